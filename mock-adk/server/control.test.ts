/**
 * Control routes, scenario selection, faults from the request, the enhanced and Anthropic
 * routes, and the mock's own error answers, without a socket.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { loadScenarios } from '../../scenarios/loader.ts';
import type { Scenario } from '../../schemas/types.ts';
import { applyFaults } from '../core/faults.ts';
import { render } from '../core/render.ts';
import { renderAnthropicCall } from '../core/anthropic.ts';
import { buildMockApp, mockStateOf } from './app.ts';

const { scenarios } = loadScenarios();
const byId = (id: string): Scenario => {
  const found = scenarios.find((s) => s.id === id);
  if (!found) throw new Error(`the corpus has no scenario ${id}`);
  return found;
};
const apps: FastifyInstance[] = [];
function app(extra: Scenario[] = []): FastifyInstance {
  const built = buildMockApp({ scenarios: [...scenarios, ...extra] });
  apps.push(built);
  return built;
}
afterAll(async () => { await Promise.all(apps.map((a) => a.close())); });

const json = { 'content-type': 'application/json' };
const runPayload = (appName: string, sessionId = 's1') => JSON.stringify({ appName, userId: 'u1', sessionId, newMessage: { role: 'user', parts: [{ text: 'hi' }] } });
const bodyOf = (chunks: Array<{ bytes: Uint8Array }>) => Buffer.concat(chunks.map((c) => c.bytes)).toString('utf8');
const ctx = (appName: string, sessionId = 's1') => ({ dialect: 'adk-js' as const, streaming: false, appName, userId: 'u1', sessionId });

async function session(a: FastifyInstance, appName: string, sessionId = 's1') {
  await a.inject({ method: 'POST', url: `/apps/${appName}/users/u1/sessions/${sessionId}`, headers: json, payload: '{}' });
}

describe('POST /_mock/arm', () => {
  it('makes the next run of that session replay the armed scenario, once', async () => {
    const a = app();
    await session(a, 'plain_text');
    const armed = await a.inject({ method: 'POST', url: '/_mock/arm', headers: json, payload: '{"sessionId":"s1","scenario":"error_frame_adk_js"}' });
    expect(armed.statusCode).toBe(200);
    const first = await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: runPayload('plain_text') });
    expect(first.body).toBe(bodyOf(render(byId('error_frame_adk_js'), ctx('plain_text')).chunks));
    const second = await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: runPayload('plain_text') });
    expect(second.body).toBe(bodyOf(render(byId('plain_text'), ctx('plain_text')).chunks));
  });

  it('applies the armed faults to the armed run', async () => {
    const a = app();
    await session(a, 'plain_text');
    const faults = [{ name: 'line-endings', style: 'crlf' }];
    await a.inject({ method: 'POST', url: '/_mock/arm', headers: json, payload: JSON.stringify({ sessionId: 's1', scenario: 'plain_text', faults }) });
    const response = await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: runPayload('plain_text') });
    expect(response.body).toBe(bodyOf(applyFaults(render(byId('plain_text'), ctx('plain_text')), faults).chunks));
    expect(response.body).toContain('\r\n\r\n');
  });

  it.each([
    ['not json', 'MOCK_ARM_BAD_BODY', 400, /not JSON/],
    ['[1]', 'MOCK_ARM_BAD_BODY', 400, /must be a JSON object/],
    ['{"scenario":"plain_text"}', 'MOCK_ARM_BAD_FIELD', 400, /`sessionId`/],
    ['{"sessionId":"s1"}', 'MOCK_ARM_BAD_FIELD', 400, /`scenario`/],
    ['{"sessionId":"s1","scenario":"nope"}', 'MOCK_UNKNOWN_SCENARIO', 404, /'nope'/],
    ['{"sessionId":"s1","scenario":"plain_text","dialect":"go"}', 'MOCK_ARM_BAD_FIELD', 400, /`dialect`/],
    ['{"sessionId":"s1","scenario":"cedar_creek_briefing","dialect":"adk-js"}', 'MOCK_ARM_BAD_DIALECT', 400, /renders only in adk-python/],
    ['{"sessionId":"s1","scenario":"plain_text","faults":[{"name":"nope"}]}', 'MOCK_UNKNOWN_FAULT', 400, /'nope' is not a known fault/],
    ['{"sessionId":"s1","scenario":"plain_text","faults":{}}', 'MOCK_ARM_BAD_FIELD', 400, /must be an array/],
    ['{"sessionId":"s1","scenario":"plain_text","faults":[{"name":"chunk-size"}]}', 'MOCK_ARM_BAD_FIELD', 400, /faults`\[0\]/],
  ] as const)('answers the arm body %s with %s naming the problem', async (payload, code, status, error) => {
    const response = await app().inject({ method: 'POST', url: '/_mock/arm', headers: json, payload });
    expect(response.statusCode).toBe(status);
    const body = response.json() as { code: string; error: string; fix: string };
    expect(body.code).toBe(code);
    expect(body.error).toMatch(error);
    expect(body.fix.length).toBeGreaterThan(10);
  });
});

describe('GET /_mock/streams', () => {
  it('counts the streams of one session with ?sessionId=', async () => {
    const a = app();
    await session(a, 'plain_text', 's-one');
    await session(a, 'plain_text', 's-two');
    await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: runPayload('plain_text', 's-one') });
    const one = (await a.inject({ method: 'GET', url: '/_mock/streams?sessionId=s-one' })).json() as Record<string, number>;
    const two = (await a.inject({ method: 'GET', url: '/_mock/streams?sessionId=s-two' })).json() as Record<string, number>;
    expect(one).toEqual({ open: 0, opened: 1, closedByClient: 0, completed: 1 });
    expect(two).toEqual({ open: 0, opened: 0, closedByClient: 0, completed: 0 });
  });
});

describe('request journal', () => {
  it('keeps the exact body text of every non-control request, filters by session, and clears', async () => {
    const a = app();
    const odd = '{ "appName":"plain_text",\n  "userId":"u1", "sessionId":"s-journal" ,"newMessage":{"parts":[{"text":"caf\u00e9"}]}}';
    await a.inject({ method: 'POST', url: '/run_sse?x=1', headers: { ...json, 'x-trace': 't1' }, payload: odd });
    await a.inject({ method: 'GET', url: '/health' });
    const all = (await a.inject({ method: 'GET', url: '/_mock/requests' })).json() as { requests: Array<{ method: string; url: string; body: string; headers: Record<string, string>; receivedAt: string }>; dropped: number };
    expect(all.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /run_sse?x=1', 'GET /health']);
    expect(all.requests[0]?.body).toBe(odd);
    expect(all.requests[0]?.headers['x-trace']).toBe('t1');
    expect(Number.isNaN(Date.parse(all.requests[0]?.receivedAt ?? ''))).toBe(false);
    const one = (await a.inject({ method: 'GET', url: '/_mock/requests?sessionId=s-journal' })).json() as { requests: unknown[] };
    expect(one.requests).toHaveLength(1);
    expect((await a.inject({ method: 'DELETE', url: '/_mock/requests' })).json()).toEqual({ cleared: 2 });
    expect(((await a.inject({ method: 'GET', url: '/_mock/requests' })).json() as { requests: unknown[] }).requests).toEqual([]);
  });
});

describe('other control routes', () => {
  it('lists the loaded scenario ids and the fault catalogue', async () => {
    const a = app();
    const listed = (await a.inject({ method: 'GET', url: '/_mock/scenarios' })).json() as { ids: string[] };
    expect(listed.ids).toEqual(scenarios.map((s) => s.id).sort());
    const faults = (await a.inject({ method: 'GET', url: '/_mock/faults' })).json() as { faults: Record<string, unknown> };
    expect(Object.keys(faults.faults)).toContain('line-endings');
  });

  it('reset forgets sessions, armed runs and the journal', async () => {
    const a = app();
    await session(a, 'plain_text');
    await a.inject({ method: 'POST', url: '/_mock/reset' });
    expect(mockStateOf(a).sessions.size()).toBe(0);
    expect(mockStateOf(a).journal.list()).toEqual([]);
  });
});

describe('selection and request faults', () => {
  it('replays a create:false scenario whether or not the session exists', async () => {
    const a = app();
    const scenario = byId('session_not_found');
    const expected = render(scenario, ctx('session_not_found', 'sx'));
    const missing = await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: runPayload('session_not_found', 'sx') });
    await session(a, 'session_not_found', 'sx');
    const present = await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: runPayload('session_not_found', 'sx') });
    for (const response of [missing, present]) expect([response.statusCode, response.body]).toEqual([expected.status, bodyOf(expected.chunks)]);
  });

  it('applies X-Mock-Faults given as names or as JSON', async () => {
    const a = app();
    await session(a, 'plain_text');
    const base = render(byId('plain_text'), ctx('plain_text'));
    const named = await a.inject({ method: 'POST', url: '/run_sse', headers: { ...json, 'x-mock-faults': 'bom' }, payload: runPayload('plain_text') });
    expect(named.rawPayload.equals(Buffer.from(bodyOf(applyFaults(base, [{ name: 'bom' }]).chunks)))).toBe(true);
    const listed = await a.inject({ method: 'POST', url: '/run_sse', headers: { ...json, 'x-mock-faults': '[{"name":"status","code":502}]' }, payload: runPayload('plain_text') });
    expect(listed.statusCode).toBe(502);
  });

  it('answers a bad X-Mock-Faults header with MOCK_BAD_FAULTS naming it', async () => {
    const response = await app().inject({ method: 'POST', url: '/run_sse', headers: { ...json, 'x-mock-faults': 'no-such-fault' }, payload: runPayload('plain_text') });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'MOCK_BAD_FAULTS', error: expect.stringMatching(/'no-such-fault'/) });
  });

  it('answers 500 MOCK_RENDER_FAILED naming the scenario when its render throws', async () => {
    const broken = { ...byId('plain_text'), id: 'zz_broken', upstream: { kind: 'run', steps: [{ model: { author: 'a', text: 'abc', chunks: ['x'] } }] }, request: { message: 'hi', streaming: true } } as unknown as Scenario;
    const a = app([broken]);
    await session(a, 'zz_broken');
    const response = await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: JSON.stringify({ ...JSON.parse(runPayload('zz_broken')), streaming: true }) });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'MOCK_RENDER_FAILED', scenario: 'zz_broken', error: expect.stringContaining("scenario 'zz_broken'") });
  });

  it('answers an anthropic-turn scenario on /run_sse with MOCK_WRONG_ENDPOINT', async () => {
    const a = app();
    await session(a, 'index_reuse_turn');
    const response = await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: runPayload('index_reuse_turn') });
    expect(response.json()).toMatchObject({ code: 'MOCK_WRONG_ENDPOINT' });
  });
});

describe('POST /run and /run_sse_enhanced', () => {
  it('/run answers the JSON array of the events a non-streaming run streams', async () => {
    const a = app();
    await session(a, 'single_tool_call');
    const run = await a.inject({ method: 'POST', url: '/run', headers: json, payload: runPayload('single_tool_call') });
    const plan = render(byId('single_tool_call'), ctx('single_tool_call'));
    expect(run.statusCode).toBe(200);
    expect(run.body).toBe(`[${plan.frames.map((f) => f.data).join(',')}]`);
  });

  it('/run_sse_enhanced renders with enhanced: true, in the mock\'s dialect (the run is not pinned)', async () => {
    const a = app();
    const scenario = byId('trail_damage_audit');
    await session(a, scenario.id);
    const response = await a.inject({ method: 'POST', url: '/run_sse_enhanced', headers: json, payload: runPayload(scenario.id) });
    const expected = render(scenario, { ...ctx(scenario.id), dialect: 'adk-js', enhanced: true });
    expect(response.body).toBe(bodyOf(expected.chunks));
    expect(response.body.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});

describe('POST /v1/messages and the tool backend', () => {
  const turn = byId('index_reuse_turn');
  const ask = (a: FastifyInstance, assistants: number, model = turn.id) => a.inject({
    method: 'POST', url: '/v1/messages', headers: json,
    payload: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'go' }, ...Array.from({ length: assistants }, () => [{ role: 'assistant', content: [] }, { role: 'user', content: [] }]).flat()] }),
  });

  it('serves call N for a history with N assistant messages', async () => {
    const a = app();
    for (const n of [0, 1, 2]) expect((await ask(a, n)).body).toBe(bodyOf(renderAnthropicCall(turn, n).chunks));
  });

  it('refuses a call the scenario does not script, and unknown or non-anthropic models', async () => {
    const a = app();
    expect((await ask(a, 3)).json()).toMatchObject({ code: 'MOCK_ANTHROPIC_NO_MORE_CALLS' });
    expect((await ask(a, 0, 'nope')).json()).toMatchObject({ code: 'MOCK_UNKNOWN_SCENARIO' });
    expect((await ask(a, 0, 'plain_text')).json()).toMatchObject({ code: 'MOCK_NOT_ANTHROPIC' });
    const bad = await a.inject({ method: 'POST', url: '/v1/messages', headers: json, payload: '{"model":1}' });
    expect(bad.json()).toMatchObject({ code: 'MOCK_ANTHROPIC_BAD_REQUEST' });
  });

  it('answers scripted tool results and refuses unknown tool_use ids', async () => {
    const a = app();
    const ok = await a.inject({ method: 'POST', url: `/_mock/anthropic/${turn.id}/tools/toolu_T1`, headers: json, payload: '{}' });
    expect(ok.statusCode).toBe(200);
    const unknown = await a.inject({ method: 'POST', url: `/_mock/anthropic/${turn.id}/tools/nope`, headers: json, payload: '{}' });
    expect(unknown.json()).toMatchObject({ code: 'MOCK_UNKNOWN_TOOL_USE' });
  });
});

describe('robustness', () => {
  const seed = 20261122;
  it(`answers every generated run body with a complete HTTP answer (fast-check seed ${seed})`, async () => {
    const a = app();
    await session(a, 'plain_text');
    const field = fc.oneof(fc.constantFrom('plain_text', 'u1', 's1', ''), fc.string(), fc.integer(), fc.constant(null), fc.constant(undefined));
    const bodies = fc.oneof(
      fc.string(),
      fc.json(),
      fc.record({ appName: field, userId: field, sessionId: field, newMessage: fc.oneof(fc.constant(undefined), fc.anything(), fc.record({ parts: fc.array(fc.anything(), { maxLength: 2 }) })), streaming: fc.anything() }, { requiredKeys: [] }).map((v) => JSON.stringify(v) ?? ''),
    );
    await fc.assert(fc.asyncProperty(bodies, fc.constantFrom('/run_sse', '/run', '/run_sse_enhanced'), fc.constantFrom('application/json', 'text/plain'), async (payload, url, type) => {
      const response = await a.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
      expect(response.statusCode).toBeGreaterThanOrEqual(200);
      expect(response.statusCode).toBeLessThan(600);
    }), { seed, numRuns: 150 });
  });

  it('refuses a scenario list with a duplicate id, saying which', () => {
    expect(() => buildMockApp({ scenarios: [byId('plain_text'), byId('plain_text')] })).toThrow(/two scenarios have the id 'plain_text'/);
  });

  it('refuses an unknown dialect, naming the known ones', () => {
    expect(() => buildMockApp({ scenarios, dialect: 'go' as never })).toThrow(/adk-js@2.0 \(alias adk-js\), adk-js@1.4-1.6, adk-python@1.x-genC \(alias adk-python\), adk-python@2.x, adk-go@2.0.0/);
  });
});
