/**
 * `adk-conformance record` against a running mock standing in for a real ADK server: the file it
 * writes lints, replays byte for byte, and never holds a secret the request carried.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../args.ts';
import { startMock, type RunningMock } from '../../mock-adk/server/start.ts';
import { mockStateOf } from '../../mock-adk/server/app.ts';
import { loadScenarioFile } from '../../scenarios/loader.ts';
import { rawRequest } from '../../test/mock-support.ts';
import { run } from './record.ts';

const dir = mkdtempSync(join(tmpdir(), 'record-cmd-'));
let upstream: RunningMock;
beforeAll(async () => { upstream = await startMock({ host: '127.0.0.1', port: 0 }); });
afterAll(async () => { await upstream.close(); rmSync(dir, { recursive: true, force: true }); });

async function record(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

async function runOn(url: string, app: string, session: string, streaming: boolean) {
  await rawRequest(url, { method: 'POST', path: `/apps/${app}/users/u1/sessions/${session}`, headers: { 'content-type': 'application/json' }, body: '{}' });
  return rawRequest(url, { method: 'POST', path: '/run_sse', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ appName: app, userId: 'u1', sessionId: session, newMessage: { role: 'user', parts: [{ text: 'x' }] }, streaming }) });
}

describe('adk-conformance record', () => {
  it('writes a scenario that the mock replays with the upstream\'s exact status, headers and bytes', async () => {
    const file = join(dir, 'recorded_streaming.json');
    const { code, out } = await record(['--upstream', upstream.url, '--app', 'single_tool_call_streaming', '--session', 's-rec-1', '--message', 'How big was Cedar Creek?', '--streaming', '--out', file]);
    expect(code).toBe(0);
    expect(out[0]).toMatch(/recorded .*recorded_streaming\.json: adk-js \(detected adk-js from integer-ms timestamps, 8-char event ids, Express headers\), HTTP 200, 7 frames, outcome complete/);
    const scenario = loadScenarioFile(file);
    expect(scenario).toMatchObject({ id: 'recorded_streaming', dialect: 'adk-js', request: { message: 'How big was Cedar Creek?', streaming: true }, upstream: { kind: 'bytes', status: 200 }, expect: { outcome: 'complete', frames: 7, completionPoint: 6 } });

    const replay = await startMock({ host: '127.0.0.1', port: 0, scenarios: [scenario] });
    try {
      // The mock seeds ids by session, so the recorded session run again gives the recorded bytes.
      const original = await runOn(upstream.url, 'single_tool_call_streaming', 's-rec-1', true);
      const replayed = await runOn(replay.url, 'recorded_streaming', 'any-session', true);
      const withoutDate = (h: Array<[string, string]>) => h.filter(([n]) => n.toLowerCase() !== 'date');
      expect(replayed.status).toBe(original.status);
      expect(withoutDate(replayed.rawHeaders)).toEqual(withoutDate(original.rawHeaders));
      expect(replayed.body.equals(original.body)).toBe(true);
    } finally {
      await replay.close();
    }
  });

  it('keeps the Authorization header, the cookie and a secret in the message out of the file', async () => {
    const file = join(dir, 'recorded_secrets.json');
    const secret = 'sk-ant-api03-SECRETSECRETSECRET1234';
    const { code, out } = await record([
      '--upstream', upstream.url, '--app', 'plain_text', '--session', 's-rec-secret', '--message', `my key is ${secret} and password: hunter22`,
      '--header', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJl', '--header', 'Cookie: sid=cookie-value-42', '--redact', 'hunter2[0-9]', '--out', file,
    ]);
    expect(code).toBe(0);
    const text = readFileSync(file, 'utf8');
    for (const leaked of [secret, 'hunter22', 'eyJhbGciOiJIUzI1NiJ9', 'cookie-value-42', 'Authorization', 'Cookie']) expect(text).not.toContain(leaked);
    expect(loadScenarioFile(file).request.message).toBe('my key is [REDACTED] and password: [REDACTED]');
    expect(out[1]).toMatch(/request headers are never recorded; redacted .*openai-anthropic-key x1/);
    // They were sent: the upstream saw all three.
    const sent = mockStateOf(upstream.app).journal.list({ sessionId: 's-rec-secret' }).find((e) => e.url === '/run_sse');
    expect(sent?.headers['authorization']).toMatch(/^Bearer eyJ/);
    expect(sent?.headers['cookie']).toBe('sid=cookie-value-42');
    expect(sent?.body).toContain(secret);
  });

  it('lets the server choose the session id when --session is left out', async () => {
    const file = join(dir, 'recorded_auto_session.json');
    expect((await record(['--upstream', upstream.url, '--app', 'plain_text', '--message', 'hi', '--out', file])).code).toBe(0);
    expect(loadScenarioFile(file).session.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  });

  it('refuses to overwrite a file without --force', async () => {
    const file = join(dir, 'existing.json');
    writeFileSync(file, '{}');
    await expect(record(['--upstream', upstream.url, '--app', 'plain_text', '--message', 'hi', '--out', file])).rejects.toThrow(/exists; pass --force/);
  });

  it.each([
    [['--app', 'a', '--message', 'm', '--out', 'x.json'], /--upstream is required/],
    [['--upstream', 'http://127.0.0.1:1', '--app', 'a', '--message', 'm', '--out', 'Bad-Name.json'], /must match \[a-z0-9_\]\+/],
    [['--upstream', 'http://127.0.0.1:1', '--app', 'a', '--message', 'm', '--out', 'x.txt'], /must name a \.json file/],
    [['--upstream', 'http://127.0.0.1:1', '--app', 'a', '--message', 'm', '--out', 'x.json', '--family', 'streamin'], /did you mean 'streaming'/],
    [['--upstream', 'http://127.0.0.1:1', '--app', 'a', '--message', 'm', '--out', 'x.json', '--header', 'no colon'], /is not 'Name: value'/],
    [['--upstream', 'http://127.0.0.1:1', '--app', 'a', '--message', 'm', '--out', 'x.json', '--redact', '('], /not a valid regular expression/],
  ])('refuses bad options %#', async (argv, message) => {
    await expect(record(argv.map((a) => (a.endsWith('.json') || a.endsWith('.txt') ? join(dir, a) : a)))).rejects.toThrow(message);
  });

  it('says which upstream cannot be reached', async () => {
    const error = await record(['--upstream', 'http://127.0.0.1:1', '--app', 'a', '--message', 'm', '--out', join(dir, 'nowhere.json')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/cannot reach the upstream at http:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\)/);
  });

  it('says when the session already exists on the upstream', async () => {
    await rawRequest(upstream.url, { method: 'POST', path: '/apps/plain_text/users/u1/sessions/taken', headers: { 'content-type': 'application/json' }, body: '{}' });
    await expect(record(['--upstream', upstream.url, '--app', 'plain_text', '--session', 'taken', '--message', 'm', '--out', join(dir, 'taken.json')])).rejects.toThrow(/refused to create session 'taken' \(HTTP 400/);
  });

  it('records an end the server never sends as hold-open after the idle bound', async () => {
    const file = join(dir, 'recorded_hold_open.json');
    expect((await record(['--upstream', upstream.url, '--app', 'missing_done_hold_open', '--message', 'm', '--idle-ms', '300', '--out', file])).code).toBe(0);
    expect(loadScenarioFile(file)).toMatchObject({ upstream: { kind: 'bytes', end: 'hold-open' }, expect: { outcome: 'hold-open' } });
  });
});
