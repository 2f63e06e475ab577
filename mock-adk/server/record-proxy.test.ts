/**
 * The recording proxy (`mock --record-from`): a second mock stands in for the real server; every
 * request goes through untouched, every run lands in the record folder as a replayable scenario.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../scenarios/loader.ts';
import { rawRequest } from '../../test/mock-support.ts';
import { mockStateOf } from './app.ts';
import { startMock, type RunningMock } from './start.ts';

const dir = mkdtempSync(join(tmpdir(), 'record-proxy-'));
const recorded: string[] = [];
const problems: string[] = [];
let upstream: RunningMock;
let proxy: RunningMock;

beforeAll(async () => {
  upstream = await startMock({ host: '127.0.0.1', port: 0, dialect: 'adk-python' });
  proxy = await startMock({
    host: '127.0.0.1', port: 0, scenarios: [],
    recordFrom: { upstream: upstream.url, dir, redact: ['ACME-[0-9]{4}'], onRecorded: (e) => ('error' in e ? problems.push(e.error) : recorded.push(e.file)) },
  });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

const json = { 'content-type': 'application/json' };
const runBody = (app: string, session: string, text = 'x', streaming = false) => JSON.stringify({ appName: app, userId: 'u1', sessionId: session, newMessage: { role: 'user', parts: [{ text }] }, streaming });
const withoutDate = (h: Array<[string, string]>) => h.filter(([n]) => n.toLowerCase() !== 'date');

async function settle(): Promise<void> {
  // The file is written once the upstream body ended, right after the client got the last byte.
  for (let i = 0; i < 50 && recorded.length + problems.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
}

describe('the recording proxy', () => {
  it('passes a run through with the upstream\'s status, headers and bytes, and records it', async () => {
    recorded.length = 0;
    const state = JSON.stringify({ state: { units: 'metric' } });
    const created = await rawRequest(proxy.url, { method: 'POST', path: '/apps/plain_text_python_streaming/users/u1/sessions', headers: json, body: state });
    const id = (JSON.parse(created.body.toString()) as { id: string }).id;
    const via = await rawRequest(proxy.url, { method: 'POST', path: '/run_sse', headers: json, body: runBody('plain_text_python_streaming', id, 'hi ACME-1234', true) });
    const direct = await rawRequest(upstream.url, { method: 'POST', path: '/run_sse', headers: json, body: runBody('plain_text_python_streaming', id, 'hi', true) });
    expect(via.status).toBe(200);
    expect(withoutDate(via.rawHeaders)).toEqual(withoutDate(direct.rawHeaders));
    expect(via.body.equals(direct.body)).toBe(true);
    await settle();
    expect(recorded).toEqual([join(dir, 'plain_text_python_streaming_001.json')]);
    const scenario = loadScenarioFile(recorded[0]!);
    expect(scenario).toMatchObject({ dialect: 'adk-python', session: { sessionId: id, state: { units: 'metric' } }, request: { message: 'hi [REDACTED]', streaming: true }, upstream: { kind: 'bytes' } });

    const replay = await startMock({ host: '127.0.0.1', port: 0, scenarios: [scenario] });
    try {
      await rawRequest(replay.url, { method: 'POST', path: `/apps/${scenario.id}/users/u1/sessions/r1`, headers: json, body: '{}' });
      const replayed = await rawRequest(replay.url, { method: 'POST', path: '/run_sse', headers: json, body: runBody(scenario.id, 'r1') });
      expect(withoutDate(replayed.rawHeaders)).toEqual(withoutDate(via.rawHeaders));
      expect(replayed.body.equals(via.body)).toBe(true);
    } finally {
      await replay.close();
    }
  });

  it('forwards credentials to the upstream and writes none of them', async () => {
    recorded.length = 0;
    await rawRequest(proxy.url, { method: 'POST', path: '/apps/plain_text/users/u1/sessions/s-cred', headers: json, body: '{}' });
    await rawRequest(proxy.url, { method: 'POST', path: '/run_sse', headers: { ...json, authorization: 'Bearer proxy-token-777', cookie: 'sid=proxy-cookie-888' }, body: runBody('plain_text', 's-cred') });
    await settle();
    const sent = mockStateOf(upstream.app).journal.list({ sessionId: 's-cred' }).find((e) => e.url === '/run_sse');
    expect(sent?.headers).toMatchObject({ authorization: 'Bearer proxy-token-777', cookie: 'sid=proxy-cookie-888' });
    const text = readFileSync(recorded[0]!, 'utf8');
    expect(text).not.toContain('proxy-token-777');
    expect(text).not.toContain('proxy-cookie-888');
  });

  it('numbers a second run of the same app instead of overwriting the first', async () => {
    recorded.length = 0;
    await rawRequest(proxy.url, { method: 'POST', path: '/run_sse', headers: json, body: runBody('plain_text', 's-cred') });
    await settle();
    expect(recorded).toEqual([join(dir, 'plain_text_002.json')]);
  });

  it('forwards every other route and answers it in the upstream\'s words', async () => {
    const missing = await rawRequest(proxy.url, { path: '/no-such-route' });
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toBe('{"detail":"Not Found"}');
    expect((await rawRequest(proxy.url, { path: '/health' })).body.toString()).toBe('{"status":"ok"}');
  });

  it('keeps its own control routes', async () => {
    const ids = JSON.parse((await rawRequest(proxy.url, { path: '/_mock/scenarios' })).body.toString()) as { ids: string[] };
    expect(ids.ids).toEqual([]);
  });

  it('records a stream the client left while it was held open, ending hold-open', async () => {
    recorded.length = 0;
    await rawRequest(proxy.url, { method: 'POST', path: '/apps/missing_done_hold_open/users/u1/sessions/s-hold', headers: json, body: '{}' });
    const res = await rawRequest(proxy.url, { method: 'POST', path: '/run_sse', headers: json, body: runBody('missing_done_hold_open', 's-hold'), stopAfterBytes: 1 });
    expect(res.stopped).toBe(true);
    await settle();
    expect(loadScenarioFile(recorded[0]!)).toMatchObject({ upstream: { end: 'hold-open' } });
  });

  it('answers 502 naming the upstream it cannot reach', async () => {
    const lonely = await startMock({ host: '127.0.0.1', port: 0, scenarios: [], recordFrom: { upstream: 'http://127.0.0.1:1', dir } });
    try {
      const res = await rawRequest(lonely.url, { path: '/list-apps' });
      expect(res.status).toBe(502);
      expect(JSON.parse(res.body.toString())).toMatchObject({ error: expect.stringContaining('cannot reach http://127.0.0.1:1 (ECONNREFUSED)') });
    } finally {
      await lonely.close();
    }
  });

  it('refuses an upstream that is not an http URL when the app is built', async () => {
    await expect(startMock({ host: '127.0.0.1', port: 0, scenarios: [], recordFrom: { upstream: 'ftp://x', dir } })).rejects.toThrow(/must be an http\(s\) URL/);
  });

  it('wrote only scenario files', () => {
    expect(readdirSync(dir).every((f) => /^[a-z0-9_]+\.json$/.test(f))).toBe(true);
  });
});
