/**
 * Seed 004 § Error Handling over real sockets against the real mock: the 501 flag, body
 * validation, the upstream status frame, STREAM_ERROR for a refused connection and for a reset
 * after some events, and the TIMEOUT frame. Every failing stream ends with exactly one terminal
 * frame after every byte received before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../core/sse.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { validate } from '../schemas/registry.ts';
import type { Scenario } from '../schemas/types.ts';
import { startGateway } from '../reference-impl/gateway/start.ts';
import { closedPort, createSession, getJson, longestWaitMs, rawRequest, runBody, scriptedPlan, startStack, until, type GatewayStreams, type MockStreams, type Stack } from './gateway-fixtures.ts';

const { scenarios } = loadScenarios();
const scenario = (id: string): Scenario => {
  const found = scenarios.find((s) => s.id === id);
  if (!found) throw new Error(`the corpus has no ${id} scenario`);
  return found;
};

let stack: Stack;
beforeAll(async () => { stack = await startStack(); });
afterAll(async () => { await stack.close(); });

const lastFrame = (body: Buffer) => {
  const { frames } = readSse(body);
  return { frames, last: JSON.parse(frames.at(-1)?.data ?? 'null') as Record<string, unknown> };
};

describe('feature flag (GW-FLAG-001)', () => {
  it('answers 501 with the seed detail when ENABLE_ADK_CANONICAL_STREAM is not true, and calls no upstream', async () => {
    const gateway = await startGateway({ config: { auth: { mode: 'off' }, upstreamUrl: stack.mock.url } });
    try {
      for (const path of ['/run_sse', '/run_sse_enhanced', '/api/sse/run_sse']) {
        const res = await rawRequest(`${gateway.url}${path}`, { body: JSON.stringify(runBody(scenario('plain_text'), { sessionId: 's-flag' })) });
        expect(res.status).toBe(501);
        expect(JSON.parse(res.body.toString())).toEqual({ detail: 'ADK canonical streaming not enabled. Set ENABLE_ADK_CANONICAL_STREAM=true to use this endpoint.' });
      }
      const journal = await getJson<{ requests: unknown[] }>(`${stack.mock.url}/_mock/requests?sessionId=s-flag`);
      expect(journal.requests).toEqual([]);
    } finally {
      await gateway.close();
    }
  });
});

describe('request validation (GW-REQ-001, GW-REQ-002)', () => {
  it('refuses a body missing a field with 422 naming it, and opens no upstream stream', async () => {
    const before = await getJson<MockStreams>(`${stack.mock.url}/_mock/streams`);
    const { newMessage: _dropped, ...body } = runBody(scenario('plain_text'), { sessionId: 's-invalid' });
    const res = await rawRequest(`${stack.gateway.url}/run_sse`, { body: JSON.stringify(body) });
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body.toString())).toMatchObject({ code: 'GW_INVALID_REQUEST', reason: "/newMessage: must have required property 'newMessage'", issues: [{ path: '/newMessage' }] });
    const wrongType = await rawRequest(`${stack.gateway.url}/run_sse`, { body: JSON.stringify({ ...body, newMessage: { role: 'user', parts: [] }, streaming: 'yes' }) });
    expect(wrongType.status).toBe(422);
    expect((JSON.parse(wrongType.body.toString()) as { issues: Array<{ path: string }> }).issues.map((i) => i.path).sort()).toEqual(['/newMessage/parts', '/streaming']);
    const malformed = await rawRequest(`${stack.gateway.url}/run_sse`, { body: '{"appName":' });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body.toString())).toMatchObject({ code: 'GW_MALFORMED_JSON' });
    const text = await rawRequest(`${stack.gateway.url}/run_sse`, { body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect((await getJson<MockStreams>(`${stack.mock.url}/_mock/streams`)).opened).toBe(before.opened);
    expect((await getJson<{ requests: unknown[] }>(`${stack.mock.url}/_mock/requests?sessionId=s-invalid`)).requests).toEqual([]);
  });
});

describe('upstream HTTP status (GW-ERR-001)', () => {
  it('turns the scripted 404 of session_not_found into the status frame with HTTP 200', async () => {
    const res = await rawRequest(`${stack.gateway.url}/run_sse`, { body: JSON.stringify(runBody(scenario('session_not_found'))) });
    expect(res.status).toBe(200);
    const { frames, last } = lastFrame(res.body);
    expect(frames).toHaveLength(1);
    expect(last).toEqual({ error: 'ADK upstream error: 404', status_code: 404, detail: 'Session not found: s-missing', timestamp: expect.any(Number) });
    expect(res.body.toString()).toMatch(/^data: \{"error": "ADK upstream error: 404", "status_code": 404, "detail": "Session not found: s-missing", "timestamp": \d+\.\d+\}\n\n$/);
    expect(validate('sse-error-frame', last).valid).toBe(true);
  });

  it('turns the mock\'s own 404 for a session that does not exist into the status frame', async () => {
    const res = await rawRequest(`${stack.gateway.url}/run_sse`, { body: JSON.stringify(runBody(scenario('plain_text'), { sessionId: 's-never-created' })) });
    expect(lastFrame(res.body).last).toMatchObject({ status_code: 404, detail: 'Session not found: s-never-created' });
    expect((await getJson<GatewayStreams>(`${stack.gateway.url}/_gateway/stats`)).streams.upstreamStatus).toBeGreaterThan(0);
  });
});

describe('stream errors (GW-ERR-002, GW-ERR-003)', () => {
  it('answers a refused connection with one STREAM_ERROR frame', async () => {
    const port = await closedPort();
    const gateway = await startGateway({ config: { auth: { mode: 'off' }, canonicalStreamEnabled: true, upstreamUrl: `http://127.0.0.1:${port}` } });
    try {
      const res = await rawRequest(`${gateway.url}/run_sse`, { body: JSON.stringify(runBody(scenario('plain_text'))) });
      expect(res.status).toBe(200);
      const { frames, last } = lastFrame(res.body);
      expect(frames).toHaveLength(1);
      expect(last).toEqual({ error: `ADK upstream connection failed: connect ECONNREFUSED 127.0.0.1:${port}`, error_code: 'STREAM_ERROR', timestamp: expect.any(Number) });
      expect(validate('sse-error-frame', last).valid).toBe(true);
    } finally {
      await gateway.close();
    }
  });

  it('passes every byte before an upstream reset, then closes the cut event and adds one STREAM_ERROR frame', async () => {
    const s = scenario('stream_cut_while_partial');
    await createSession(stack.mock.url, s.id, s.session.userId, s.session.sessionId);
    const body = JSON.stringify(runBody(s));
    const direct = await rawRequest(`${stack.mock.url}/run_sse`, { body });
    expect(direct.error).toBeDefined();
    const through = await rawRequest(`${stack.gateway.url}/run_sse`, { body });
    expect(through.error).toBeUndefined();
    const text = through.body.toString('latin1');
    const prefix = direct.body.toString('latin1');
    expect(text.startsWith(prefix)).toBe(true);
    const tail = text.slice(prefix.length);
    expect(tail).toMatch(/^(\n\n|\n|)data: \{"error": "ADK upstream stream broken: [^"]+", "error_code": "STREAM_ERROR", "timestamp": \d+\.\d+\}\n\n$/);
    const { frames, last } = lastFrame(through.body);
    expect(last.error_code).toBe('STREAM_ERROR');
    expect(frames.filter((f) => f.data.includes('"error_code"'))).toHaveLength(1);
    expect(frames.length).toBeGreaterThanOrEqual(readSse(direct.body).frames.length + 1);
  });
});

describe('timeout (GW-TIMEOUT-001)', () => {
  it('sends every event that arrived, then the TIMEOUT frame, and closes the upstream', async () => {
    const gateway = await startGateway({ config: { auth: { mode: 'off' }, canonicalStreamEnabled: true, upstreamUrl: stack.mock.url, timeoutMs: 400 } });
    try {
      const s = scenario('missing_done_hold_open');
      await createSession(stack.mock.url, s.id, s.session.userId, 's-timeout');
      const body = JSON.stringify(runBody(s, { sessionId: 's-timeout' }));
      const before = await getJson<MockStreams>(`${stack.mock.url}/_mock/streams`);
      const res = await rawRequest(`${gateway.url}/run_sse`, { body });
      expect(res.status).toBe(200);
      const { frames, last } = lastFrame(res.body);
      expect(frames).toHaveLength((s.expect.frames ?? 0) + 1);
      expect(last).toEqual({ error: 'Request timeout after 0.4 seconds', error_code: 'TIMEOUT', timestamp: expect.any(Number) });
      expect(res.body.toString()).toMatch(/\n\ndata: \{"error": "Request timeout after 0\.4 seconds", "error_code": "TIMEOUT", "timestamp": \d+\.\d+\}\n\n$/);
      const after = await until(() => getJson<MockStreams>(`${stack.mock.url}/_mock/streams`), (m) => m.closedByClient > before.closedByClient);
      expect(after.closedByClient).toBe(before.closedByClient + 1);
      expect((await getJson<GatewayStreams>(`${gateway.url}/_gateway/stats`)).streams).toMatchObject({ open: 0, timedOut: 1 });
    } finally {
      await gateway.close();
    }
  });

  it.each(scenarios.filter((s) => (s.request.endpoint ?? '/run_sse') === '/run_sse' && s.upstream.kind !== 'anthropic-turn' && longestWaitMs(scriptedPlan(s)) >= 5000).map((s) => [s.id, s] as const))(
    'cuts the long silence of %s with TIMEOUT after exactly the bytes sent before it', async (_id, s) => {
      const gateway = await startGateway({ config: { auth: { mode: 'off' }, canonicalStreamEnabled: true, upstreamUrl: stack.mock.url, timeoutMs: 1000 } });
      try {
        const sessionId = `s-silence-${s.id}`;
        await createSession(stack.mock.url, s.id, s.session.userId, sessionId);
        const plan = scriptedPlan(s, sessionId);
        const firstLongWait = plan.chunks.findIndex((c) => c.delayMs >= 5000);
        const before = Buffer.concat(plan.chunks.slice(0, firstLongWait).map((c) => c.bytes)).toString('latin1');
        expect(readSse(before).frames.length).toBeGreaterThan(0);
        const res = await rawRequest(`${gateway.url}/run_sse`, { body: JSON.stringify(runBody(s, { sessionId })) });
        const text = res.body.toString('latin1');
        expect(text.startsWith(before)).toBe(true);
        expect(text.slice(before.length)).toMatch(/^\n{0,2}data: \{"error": "Request timeout after 1 seconds", "error_code": "TIMEOUT", "timestamp": \d+\.\d+\}\n\n$/);
      } finally {
        await gateway.close();
      }
    });

  it('lets a run shorter than the total timeout finish with no frame added (GW-TIMEOUT-002, GW-PASS-004)', async () => {
    const s = scenario('plain_text_streaming');
    await createSession(stack.mock.url, s.id, s.session.userId, 's-no-timeout');
    const body = JSON.stringify(runBody(s, { sessionId: 's-no-timeout' }));
    const direct = await rawRequest(`${stack.mock.url}/run_sse`, { body });
    const through = await rawRequest(`${stack.gateway.url}/run_sse`, { body });
    expect(through.body.equals(direct.body)).toBe(true);
    expect(through.body.toString()).not.toMatch(/error_code/);
  });
});
