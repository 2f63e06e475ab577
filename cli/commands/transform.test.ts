import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../args.ts';
import { validate } from '../../schemas/registry.ts';
import { cedarCreekSteps, renderRun } from '../../test/transformer-fixtures.ts';
import { run } from './transform.ts';

const bin = fileURLToPath(new URL('../../bin/adk-conformance.js', import.meta.url));
type Briefing = { type: string; state?: string; source_agent: string; correlation_id: string; content: { summary: string }; proof_layer?: { confidence?: number }; error?: { code?: string; message: string } };

/** In process: the same code path as the binary, without a process per case. */
async function filter(input: string | Buffer, argv: string[] = [], env: Record<string, string | undefined> = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const done = run(argv, { stdin, stdout, stderr, env });
  stdin.end(input);
  const code = await done;
  const text = Buffer.concat(out).toString('utf8');
  const lines = argv.includes('--help') ? [] : text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Briefing);
  return { code, text, lines, stderr: Buffer.concat(err).toString('utf8') };
}

const cedar = renderRun(cedarCreekSteps, { dialect: 'adk-python', streaming: true });

describe('adk-conformance transform (docs/transform-contract.md)', () => {
  it('the binary turns the Cedar Creek frames into briefings, one valid JSON object per LF-ended line, and exits 0', async () => {
    const child = spawn(process.execPath, [bin, 'transform', '--session-id', 's-cedar'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stdin.end(cedar.join('\n') + '\n');
    const [code] = await once(child, 'close');
    const text = Buffer.concat(out).toString('utf8');
    expect(code).toBe(0);
    expect(text.endsWith('\n')).toBe(true);
    const events = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Briefing);
    for (const e of events) expect(validate('agent-briefing-event', e).errors).toEqual([]);
    expect(events.filter((e) => e.type === 'INSIGHT' && !e.state).slice(0, 4).map((e) => e.proof_layer?.confidence)).toEqual([0.92, 0.9, 0.91, 0.95]);
    expect(events.at(-1)).toMatchObject({ state: 'COMPLETE', correlation_id: 's-cedar', proof_layer: { confidence: 0.9 } });
  });

  it('the binary writes each briefing as soon as its line is read, before the input ends', async () => {
    const child = spawn(process.execPath, [bin, 'transform', '--session-id', 's'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.write(`${cedar[0]}\n`);
    const [first] = (await once(child.stdout, 'data')) as [Buffer];
    expect(JSON.parse(first.toString('utf8').split('\n')[0] as string)).toMatchObject({ state: 'THINKING' });
    child.stdin.end();
    const [code] = await once(child, 'close');
    expect(code).toBe(0);
  });

  it('the binary exits 2 on a usage error and says what was wrong on stderr', async () => {
    const child = spawn(process.execPath, [bin, 'transform', '--correlation', 'session'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ADK_CONFORMANCE_SESSION_ID: '' } });
    const err: Buffer[] = [];
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.end();
    const [code] = await once(child, 'close');
    expect(code).toBe(2);
    expect(Buffer.concat(err).toString('utf8')).toMatch(/--correlation session needs the session id/);
  });

  it('CRLF and CR line ends, a leading BOM, a last line without its end and empty lines all read as lines', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${cedar.slice(0, 5).join('\r\n')}\r\r\n\n${cedar.slice(5).join('\r')}`)]);
    const { code, lines } = await filter(body, ['--session-id', 's']);
    const { lines: expected } = await filter(cedar.join('\n'), ['--session-id', 's']);
    expect(code).toBe(0);
    expect(lines.map((l) => [l.type, l.state, l.source_agent])).toEqual(expected.map((l) => [l.type, l.state, l.source_agent]));
    expect(lines.some((l) => l.type === 'ALERT')).toBe(false);
  });

  it('a malformed line becomes an ALERT naming its line number, stderr says so, and the run goes on', async () => {
    const { code, lines, stderr } = await filter(`${cedar[0]}\n{"author": "coor\n${cedar.slice(1).join('\n')}\n`, ['--session-id', 's']);
    expect(code).toBe(0);
    expect(lines[1]).toMatchObject({ type: 'ALERT', error: { code: 'INVALID_FRAME' }, content: { summary: 'line 2: unreadable frame' } });
    expect(stderr).toMatch(/^adk-conformance transform: line 2: invalid JSON/);
    expect(lines.at(-1)?.state).toBe('COMPLETE');
  });

  it('[DONE] ends the run: later lines are read and ignored', async () => {
    const { lines } = await filter(`${renderRun([{ model: { author: 'a', text: 'Answer.' } }], { dialect: 'adk-js', streaming: false }).join('\n')}\n[DONE]\n{"error":"late"}\n`, ['--session-id', 's', '--enhanced']);
    expect(lines.map((l) => l.state)).toEqual(['THINKING', 'COMPLETE']);
  });

  it('--enhanced reports a stream that ends without [DONE]', async () => {
    const { lines } = await filter(renderRun([{ model: { author: 'a', text: 'Answer.' } }], { dialect: 'adk-js', streaming: false }).join('\n'), ['--enhanced']);
    expect(lines.map((l) => l.error?.code ?? l.state)).toEqual(['THINKING', 'MISSING_DONE', 'COMPLETE']);
  });

  it('an empty input is one ERROR: the stream ended without a final answer', async () => {
    const { code, lines } = await filter('', ['--session-id', 's']);
    expect(code).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ state: 'ERROR', error: { code: 'NO_FINAL_ANSWER' } });
  });

  it('without a session id the correlation id is the first invocationId; the environment variable supplies one', async () => {
    const { lines } = await filter(cedar.join('\n'));
    expect(new Set(lines.map((l) => l.correlation_id))).toEqual(new Set(['e-3f0d0c4e-7f1b-4c8e-9a55-1b2c3d4e5f60']));
    const fromEnv = await filter(cedar.join('\n'), [], { ADK_CONFORMANCE_SESSION_ID: 'env-session' });
    expect(new Set(fromEnv.lines.map((l) => l.correlation_id))).toEqual(new Set(['env-session']));
    const forced = await filter(cedar.join('\n'), ['--session-id', 's', '--correlation', 'invocation']);
    expect(forced.lines[0]?.correlation_id).toBe('e-3f0d0c4e-7f1b-4c8e-9a55-1b2c3d4e5f60');
  });

  it('--specialist names delegations whose calls do not have the AgentTool shape', async () => {
    const frames = renderRun([{ model: { author: 'c', calls: [{ name: 'burn_analyst', args: { fire_id: 'x' } }] } }, { tools: { author: 'c', responses: [{ name: 'burn_analyst', response: { result: 'High.\n**Confidence:** 92%' } }] } }], { dialect: 'adk-js', streaming: false });
    const { lines } = await filter(frames.join('\n'), ['--specialist', 'burn_analyst']);
    expect(lines.map((l) => l.state ?? l.type)).toEqual(['THINKING', 'DELEGATING', 'INSIGHT', 'ERROR']);
  });

  it('invalid UTF-8 becomes replacement characters, then an ALERT for the unreadable line', async () => {
    const { lines } = await filter(Buffer.from([0x7b, 0xff, 0x7d, 0x0a]));
    expect(lines[0]).toMatchObject({ type: 'ALERT', content: { summary: 'line 1: unreadable frame' } });
  });

  it.each([
    [['--correlation', 'turn'], /--correlation must be 'session' or 'invocation'/],
    [['--corelation', 'session'], /did you mean '--correlation'/],
    [['frames.ndjson'], /unexpected argument 'frames.ndjson'/],
    [['--session-id', ' '], /--session-id must not be empty/],
  ])('%j is a usage error', async (argv, message) => {
    await expect(filter('', argv)).rejects.toThrow(UsageError);
    await expect(filter('', argv)).rejects.toThrow(message);
  });

  it('--help prints the contract summary and exits 0', async () => {
    const { code, text } = await filter('', ['--help']);
    expect(code).toBe(0);
    expect(text).toMatch(/^usage: adk-conformance transform/);
  });

  it('a closed stdout is an I/O error: exit 1 with the reason on stderr', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const err: Buffer[] = [];
    stderr.on('data', (c: Buffer) => err.push(c));
    const done = run([], { stdin, stdout, stderr, env: {} });
    stdout.destroy(new Error('EPIPE: broken pipe'));
    stdin.end(cedar.join('\n'));
    expect(await done).toBe(1);
    expect(Buffer.concat(err).toString('utf8')).toMatch(/I\/O error: EPIPE/);
  });
});

describe('adk-conformance transform --spec 1.1 (issue 31 §2)', () => {
  it('writes the same run in spec 1.1\'s form, every event valid against the 1.1 schema and declaring 1.1.0', async () => {
    const plain = await filter(cedar.join('\n') + '\n', ['--session-id', 's-cedar']);
    const v11 = await filter(cedar.join('\n') + '\n', ['--session-id', 's-cedar', '--spec', '1.1']);
    expect(v11.code).toBe(0);
    expect(v11.lines.length).toBe(plain.lines.length);
    for (const e of v11.lines) expect(validate('agent-briefing-event-1-1', e).errors).toEqual([]);
    const names: Record<string, string> = { INSIGHT: 'insight', ALERT: 'alert', ACTION: 'action_required', STATUS: 'status_update' };
    expect(v11.lines.map((e) => e.type)).toEqual(plain.lines.map((e) => names[e.type]));
    expect(v11.lines.at(-1)).toMatchObject({ schema_version: '1.1.0', type: 'insight', state: 'COMPLETE', severity: 'info', ui_binding: { target: 'panel_inject' }, content: { suggested_actions: [] } });
  });

  it('refuses a version it does not know', async () => {
    await expect(filter('', ['--spec', '2.0'])).rejects.toThrow(new UsageError("--spec must be '1.0' or '1.1', got '2.0'."));
  });
});
