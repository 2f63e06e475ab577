/**
 * Seed 004 § Streaming Pattern: "**Mutation:** Zero (raw passthrough from ADK service)". For every
 * streaming scenario of the corpus, the bytes through the gateway equal the mock's own bytes for
 * the same request (same session, so the same deterministic rendering).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../core/sse.ts';
import { faultCatalog } from '../mock-adk/core/faults.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import type { Scenario } from '../schemas/types.ts';
import { createSession, longestWaitMs, rawRequest, runBody, scriptedPlan, startStack, type Stack } from './gateway-fixtures.ts';

const { scenarios } = loadScenarios();
const endpointOf = (s: Scenario) => s.request.endpoint ?? '/run_sse';
// Byte-identical cases: every streamed run that ends by EOF. A reset gets a STREAM_ERROR frame, a
// held-open stream never ends, and a silence longer than LONG_WAIT_MS is where the timeout test
// (gateway-errors.test.ts) cuts in: those have their own tests.
const LONG_WAIT_MS = 5000;
const streamed = scenarios.filter((s) => (endpointOf(s) === '/run_sse' || endpointOf(s) === '/run_sse_enhanced') && (s.upstream.kind === 'run' || s.upstream.kind === 'bytes'));
const passthrough = streamed.filter((s) => {
  const plan = scriptedPlan(s);
  return plan.end === 'eof' && plan.status === 200 && longestWaitMs(plan) < LONG_WAIT_MS;
});

let stack: Stack;
beforeAll(async () => { stack = await startStack(); });
afterAll(async () => { await stack.close(); });

describe('byte-identical passthrough (GW-PASS-001)', () => {
  it('covers the framing family of the corpus', () => {
    const framing = scenarios.filter((s) => s.family === 'framing');
    expect(framing.length).toBeGreaterThan(0);
    // A framing scenario either passes through byte for byte here, or scripts a silence that the
    // timeout test of gateway-errors.test.ts runs through a short total timeout.
    const elsewhere = framing.filter((s) => !passthrough.includes(s));
    expect(elsewhere.map((s) => [s.id, longestWaitMs(scriptedPlan(s)) >= LONG_WAIT_MS])).toEqual(elsewhere.map((s) => [s.id, true]));
  });

  it.each(passthrough.map((s) => [s.id, s] as const))('gateway passes %s through byte for byte', async (_id, scenario) => {
    const { mock, gateway } = stack;
    if (scenario.session.create !== false) await createSession(mock.url, scenario.id, scenario.session.userId, scenario.session.sessionId, scenario.session.state ?? {});
    const body = JSON.stringify(runBody(scenario));
    const direct = await rawRequest(`${mock.url}${endpointOf(scenario)}`, { body });
    const through = await rawRequest(`${gateway.url}${endpointOf(scenario)}`, { body });
    expect(through.status).toBe(200);
    expect(through.error).toBeUndefined();
    expect(direct.body.length).toBeGreaterThan(0);
    expect(through.body.toString('latin1')).toBe(direct.body.toString('latin1'));
  });
});

// Every fault of the mock's catalog over one multi-frame scenario, armed on one session for the
// direct request and again for the gateway's, so both render the same bytes. Long waits are cut
// short; hold-open never ends by itself (gateway-abort.test.ts and the timeout test cover it).
const shortened: Record<string, Record<string, unknown>> = { silence: { ms: 30 }, 'delay-headers': { ms: 30 }, dribble: { intervalMs: 1 } };
const faults = Object.entries(faultCatalog).filter(([name]) => name !== 'hold-open').map(([name, entry]) => [name, { ...entry.example, ...shortened[name] }] as const);

describe('passthrough under every mock fault (GW-PASS-001, GW-ERR-001..003)', () => {
  it.each(faults)('gateway passes the %s fault through, adding a frame only for a failed exchange', async (name, fault) => {
    const { mock, gateway } = stack;
    const s = scenarios.find((x) => x.id === 'cedar_creek_briefing_streaming');
    if (!s) throw new Error('the corpus has no cedar_creek_briefing_streaming scenario');
    const sessionId = `s-fault-${name}`;
    await createSession(mock.url, s.id, s.session.userId, sessionId);
    const arm = () => fetch(`${mock.url}/_mock/arm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId, scenario: s.id, faults: [fault] }) });
    const body = JSON.stringify(runBody(s, { sessionId }));
    expect((await arm()).status).toBe(200);
    const direct = await rawRequest(`${mock.url}/run_sse`, { body });
    expect((await arm()).status).toBe(200);
    const through = await rawRequest(`${gateway.url}/run_sse`, { body });
    expect(through.status).toBe(200);
    expect(through.error).toBeUndefined();
    const text = through.body.toString('latin1');
    const frames = readSse(through.body).frames;
    if (direct.status >= 400) {
      // Seed 004 § HTTP Status Errors: the status frame alone.
      expect(frames).toHaveLength(1);
      expect(JSON.parse(frames[0]?.data ?? '{}')).toMatchObject({ error: `ADK upstream error: ${direct.status}`, status_code: direct.status });
    } else if (direct.error !== undefined) {
      // Cut: every byte before the cut, the line ends that close it, one STREAM_ERROR frame.
      const prefix = direct.body.toString('latin1');
      expect(text.startsWith(prefix)).toBe(true);
      expect(text.slice(prefix.length)).toMatch(/^(\r?\n?\n?)data: \{"error": "ADK upstream stream broken: [^"]+", "error_code": "STREAM_ERROR", "timestamp": \d+\.\d+\}\n\n$/);
      expect(frames.filter((f) => f.data.includes('"error_code"'))).toHaveLength(1);
    } else {
      expect(text).toBe(direct.body.toString('latin1'));
    }
  });
});

describe('response headers (GW-HDR-001..004)', () => {
  it('sends exactly the four seed headers, whatever the upstream sent', async () => {
    const scenario = scenarios.find((s) => s.id === 'plain_text');
    if (!scenario) throw new Error('the corpus has no plain_text scenario');
    await createSession(stack.mock.url, scenario.id, 'u-headers', 's-headers');
    const res = await rawRequest(`${stack.gateway.url}/run_sse`, { body: JSON.stringify(runBody(scenario, { userId: 'u-headers', sessionId: 's-headers' })) });
    const names = res.rawHeaders.map(([name]) => name.toLowerCase());
    expect(res.rawHeaders.filter(([name]) => !['date', 'transfer-encoding'].includes(name.toLowerCase()))).toEqual([
      ['Content-Type', 'text/event-stream'],
      ['Cache-Control', 'no-cache'],
      ['Connection', 'keep-alive'],
      ['X-Accel-Buffering', 'no'],
    ]);
    expect(names).not.toContain('x-powered-by');
    expect(readSse(res.body).frames).toHaveLength(1);
  });
});

describe('the forwarded request (GW-PASS-002)', () => {
  it('sends the model_dump of the client body to the upstream /run_sse', async () => {
    const scenario = scenarios.find((s) => s.id === 'plain_text');
    if (!scenario) throw new Error('the corpus has no plain_text scenario');
    await createSession(stack.mock.url, scenario.id, 'u-fwd', 's-fwd');
    const sent = { sessionId: 's-fwd', extraField: 'dropped', userId: 'u-fwd', appName: scenario.id, newMessage: { parts: [{ text: 'Cedar Creek?' }], role: 'user' }, stateDelta: { units: 'metric' } };
    const res = await rawRequest(`${stack.gateway.url}/run_sse`, { body: JSON.stringify(sent), headers: { authorization: 'Bearer not-forwarded', cookie: 'access_token=not-forwarded' } });
    expect(res.status).toBe(200);
    const journal = await (await fetch(`${stack.mock.url}/_mock/requests?sessionId=s-fwd`)).json() as { requests: Array<{ method: string; url: string; headers: Record<string, string>; body: string }> };
    const run = journal.requests.filter((r) => r.url === '/run_sse');
    expect(run).toHaveLength(1);
    expect(run[0]?.body).toBe('{"appName":"plain_text","userId":"u-fwd","sessionId":"s-fwd","newMessage":{"parts":[{"text":"Cedar Creek?"}],"role":"user"},"streaming":false,"stateDelta":{"units":"metric"}}');
    expect(run[0]?.headers['content-type']).toBe('application/json');
    expect(Object.keys(run[0]?.headers ?? {})).not.toContain('authorization');
    expect(Object.keys(run[0]?.headers ?? {})).not.toContain('cookie');
  });
});

describe('no buffering (GW-PASS-005)', () => {
  it('delivers every event while the upstream is still open', async () => {
    const scenario = scenarios.find((s) => s.id === 'missing_done_hold_open');
    if (!scenario) throw new Error('the corpus has no missing_done_hold_open scenario');
    await createSession(stack.mock.url, scenario.id, scenario.session.userId, 's-flush');
    const body = JSON.stringify(runBody(scenario, { sessionId: 's-flush' }));
    const expected = scenario.expect.frames ?? 0;
    expect(expected).toBeGreaterThan(0);
    const controller = new AbortController();
    const res = await fetch(`${stack.gateway.url}/run_sse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: controller.signal });
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no body');
    let received = Buffer.alloc(0);
    // The upstream never ends this stream: reaching the count proves each frame was flushed on arrival.
    while (readSse(received).frames.length < expected) {
      const { value, done } = await reader.read();
      if (done) break;
      received = Buffer.concat([received, Buffer.from(value)]);
    }
    controller.abort();
    expect(readSse(received).frames).toHaveLength(expected);
  });
});
