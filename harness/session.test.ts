import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveChildren } from './child.ts';
import { openSessionPool, type SessionPool } from './session.ts';
import { parseLine } from './session-protocol.ts';

const dir = mkdtempSync(join(tmpdir(), 'adk-session-'));
const hello = { name: 'echo', version: '1.0.0', language: 'javascript', parts: ['transformer'] };

/** A session implementation that upper-cases each input line; `text: "crash"` exits, `text: "hang"` never ends the run, `text: "spin"` busy-loops 3 s first, `text: "garbage"` writes a non-protocol line. */
const echo = join(dir, 'echo.mjs');
writeFileSync(echo, `
import { createInterface } from 'node:readline';
const out = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const rl = createInterface({ input: process.stdin });
const env = new Map();
rl.on('line', (l) => {
  const m = JSON.parse(l);
  if (m.cmd === 'start') out({ cmd: 'ready', protocol: 1, implementation: ${JSON.stringify(hello)} });
  else if (m.cmd === 'open') env.set(m.run, m.env);
  else if (m.cmd === 'input') {
    const text = m.text ?? Buffer.from(m.bytes, 'base64').toString('utf8');
    if (text === 'crash') process.exit(3);
    if (text === 'garbage') { process.stdout.write('not json\\n'); return; }
    if (text === 'hang') { env.set(m.run, 'hang'); return; }
    // 3 s of its own CPU, not of the clock: on a loaded machine it must still outspend the budget.
    if (text === 'spin') { const from = process.cpuUsage(); for (let u = process.cpuUsage(from); u.user + u.system < 3000000; u = process.cpuUsage(from)); }
    out({ run: m.run, line: text.toUpperCase() + ':' + (env.get(m.run)?.TAG ?? '') });
  } else if (m.cmd === 'end') { if (env.get(m.run) !== 'hang') out({ run: m.run, exit: 0 }); }
  else if (m.cmd === 'stop') process.exit(0);
});
`);

let pool: SessionPool | undefined;
afterEach(async () => { await pool?.close(); pool = undefined; });

const script = (lines: string[], env: Record<string, string> = {}, extra: Record<string, unknown> = {}) => ({ command: '', env, input: lines.map((text) => ({ text, delayMs: 5 })), timeoutMs: 2000, ...extra });

describe('session protocol codec', () => {
  it('reads ready, line and exit, and says why a line is none of them', () => {
    expect(parseLine(JSON.stringify({ cmd: 'ready', protocol: 1, implementation: hello }))).toEqual({ kind: 'ready', protocol: 1, implementation: hello });
    expect(parseLine('{"run":"r1","line":"x"}')).toEqual({ kind: 'line', run: 'r1', text: 'x' });
    expect(parseLine('{"run":"r1","exit":0}')).toEqual({ kind: 'exit', run: 'r1', code: 0 });
    expect(parseLine('nope')).toMatchObject({ kind: 'invalid', why: 'not JSON' });
    expect(parseLine('{"cmd":"ready","protocol":2,"implementation":{}}')).toMatchObject({ kind: 'invalid', why: expect.stringContaining('speaks 1') });
    expect(parseLine('{"cmd":"ready","protocol":1,"implementation":{"name":"x","version":"1","language":"py","parts":[]}}')).toMatchObject({ kind: 'invalid', why: expect.stringContaining('parts') });
    expect(parseLine('{"line":"x"}')).toMatchObject({ kind: 'invalid', why: expect.stringContaining('run') });
  });
});

describe('openSessionPool', () => {
  it('ends a run that wrote its last line and had its input but sends no exit within the grace, as lingered (child.ts exitAfter), keeping the process', async () => {
    pool = openSessionPool({ command: `node ${echo}`, part: 'client', startupTimeoutMs: 5000 });
    const obs = await pool.runChild(script(['x', 'hang'], {}, { exitAfter: { last: (l: string) => l.startsWith('X'), graceMs: 200 } }));
    expect(obs).toMatchObject({ lingered: true, timedOut: false, exitCode: null });
    expect(obs.lines.map((l) => l.text)).toEqual(['X:']);
    expect(obs.durationMs).toBeLessThan(1500);
    // Not a fault of the process: it serves the next run.
    expect((await pool.runChild(script(['y']))).lines.map((l) => l.text)).toEqual(['Y:']);
    expect(pool.restarts()).toEqual([]);
  });

  it('handshakes once and serves many runs in one process, each with its own environment', async () => {
    pool = openSessionPool({ command: `node ${echo}`, part: 'transformer', startupTimeoutMs: 5000 });
    const ready = await pool.ready();
    expect(ready).toMatchObject({ ok: true, implementation: hello });
    const a = await pool.runChild(script(['a', 'b'], { TAG: '1' }));
    const b = await pool.runChild(script(['c'], { TAG: '2' }));
    expect(a.lines.map((l) => l.text)).toEqual(['A:1', 'B:1']);
    expect(a.exitCode).toBe(0);
    expect(a.stdinClosedAt).toBeGreaterThanOrEqual(10);
    expect(b.lines.map((l) => l.text)).toEqual(['C:2']);
    expect(pool.restarts()).toEqual([]);
  });

  it('keeps interleaved runs apart', async () => {
    pool = openSessionPool({ command: `node ${echo}`, part: 'transformer', startupTimeoutMs: 5000, runsPerProcess: 20 });
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => pool!.runChild(script([`x${i}`, `y${i}`], { TAG: String(i) }))));
    all.forEach((o, i) => expect(o.lines.map((l) => l.text)).toEqual([`X${i}:${i}`, `Y${i}:${i}`]));
  });

  it('ends the runs of a process that exits with its status, and restarts for the next run', async () => {
    pool = openSessionPool({ command: `node ${echo}`, part: 'transformer', startupTimeoutMs: 5000 });
    const crashed = await pool.runChild(script(['crash']));
    expect(crashed).toMatchObject({ exitCode: 3, timedOut: false });
    const next = await pool.runChild(script(['ok']));
    expect(next.lines.map((l) => l.text)).toEqual(['OK:']);
    expect(pool.restarts()).toEqual([{ process: 1, reason: expect.stringContaining('exited (status 3) during r1') }]);
  });

  it('ends an overrun as a timeout, retires its process and goes on', async () => {
    pool = openSessionPool({ command: `node ${echo}`, part: 'transformer', startupTimeoutMs: 5000 });
    const hung = await pool.runChild(script(['hang'], {}, { timeoutMs: 300 }));
    expect(hung).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' });
    const next = await pool.runChild(script(['ok']));
    expect(next.exitCode).toBe(0);
    expect(pool.restarts()).toEqual([{ process: 1, reason: 'r1 overran its bound' }]);
  });

  it('stops a run past its CPU budget as at its bound, long before the bound, with the CPU it used', async () => {
    if (!existsSync('/proc/self/stat')) return; // CPU time is read from /proc: elsewhere no budget can be kept
    pool = openSessionPool({ command: `node ${echo}`, part: 'transformer', startupTimeoutMs: 5000 });
    const spun = await pool.runChild(script(['spin'], {}, { timeoutMs: 20_000, measureCpu: true, cpuBudgetMs: 300 }));
    expect(spun).toMatchObject({ timedOut: true, signal: 'SIGTERM' });
    expect(spun.cpuMs).toBeGreaterThan(300);
    expect(spun.durationMs).toBeLessThan(20_000);
    const idle = await pool.runChild(script(['ok'], {}, { measureCpu: true, cpuBudgetMs: 300 }));
    expect(idle).toMatchObject({ timedOut: false, exitCode: 0 });
  });

  it('gives a line that is not the protocol to the run in flight, as a one-shot stray line', async () => {
    pool = openSessionPool({ command: `node ${echo}`, part: 'transformer', startupTimeoutMs: 5000 });
    const run = await pool.runChild(script(['garbage', 'a']));
    expect(run.lines.map((l) => l.text)).toEqual(['not json', 'A:']);
  });

  it('says why a one-shot command is no session process, and leaves nothing running', async () => {
    pool = openSessionPool({ command: 'head -n 1 > /dev/null; echo plain; sleep 5', part: 'transformer', startupTimeoutMs: 5000 });
    const run = await pool.runChild(script(['a']));
    expect(run.spawnError).toMatch(/first line is not "ready"|exited .* before its "ready" line/);
    await pool.close();
    expect(liveChildren()).toBe(0);
  });
});

/** A session implementation that reports, at each run's end, how its bytes came: the count of `input` messages, the largest, and the whole. */
const pieces = join(dir, 'pieces.mjs');
writeFileSync(pieces, `
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
const out = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const runs = new Map();
createInterface({ input: process.stdin }).on('line', (l) => {
  const m = JSON.parse(l);
  if (m.cmd === 'start') out({ cmd: 'ready', protocol: 1, implementation: ${JSON.stringify({ ...hello, parts: ['client'] })} });
  else if (m.cmd === 'open') runs.set(m.run, []);
  else if (m.cmd === 'input') runs.get(m.run).push(Buffer.from(m.bytes, 'base64'));
  else if (m.cmd === 'end') {
    const got = runs.get(m.run);
    out({ run: m.run, line: JSON.stringify({ messages: got.length, largest: Math.max(...got.map((b) => b.length)), sha: createHash('sha256').update(Buffer.concat(got)).digest('hex') }) });
    out({ run: m.run, exit: 0 });
  } else if (m.cmd === 'stop') process.exit(0);
});
`);

describe('a run\'s raw bytes', () => {
  it('go in pieces of at most 64 KiB, in order, whole: a socket\'s reads, so a client\'s idle clock restarts with each (the CI of 2820dfd ended a 2 MB event idle)', async () => {
    const { createHash } = await import('node:crypto');
    const { inputPieceBytes } = await import('./session.ts');
    pool = openSessionPool({ command: `node ${pieces}`, part: 'client', startupTimeoutMs: 5000 });
    const body = Buffer.from(`data: {"t":"${'é'.repeat(1024 * 1024)}"}\n\n`);
    const small = Buffer.from('data: {"n":1}\n\n');
    const obs = await pool.runChild({ command: '', input: [{ bytes: body, delayMs: 0 }, { bytes: small, delayMs: 0 }], timeoutMs: 10_000 });
    const report = JSON.parse(obs.lines[0]?.text ?? '{}') as { messages: number; largest: number; sha: string };
    expect(report).toEqual({ messages: Math.ceil(body.length / inputPieceBytes) + 1, largest: inputPieceBytes, sha: createHash('sha256').update(Buffer.concat([body, small])).digest('hex') });
    // One input of the script is one write for the harness's feed accounting, however many pieces it went in.
    expect(obs.inputAt).toHaveLength(2);
  });
});
