/**
 * The mock on a real socket: what a client reads off the wire, byte for byte, for every scenario
 * in the corpus, and the behaviours that belong to the socket (header order, delays, hold-open,
 * reset, a client leaving).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../scenarios/loader.ts';
import type { Scenario } from '../schemas/types.ts';
import { applyFaults } from '../mock-adk/core/faults.ts';
import { render } from '../mock-adk/core/render.ts';
import { renderAnthropicCall } from '../mock-adk/core/anthropic.ts';
import type { Dialect, ReplayPlan } from '../mock-adk/core/types.ts';
import { startMock, type RunningMock } from '../mock-adk/server/start.ts';
import { renderDialect } from '../mock-adk/server/mock-state.ts';
import { scenarioDialects } from '../mock-adk/core/scenario-dialects.ts';
import { isExpressShaped } from '../mock-adk/server/fastify-io.ts';
import { eventually, postJson, rawRequest, scenarioRequest, sessionPath, type RawRequest, type RawResponse } from './mock-support.ts';

const corpus = loadScenarios();

/** Timing and framing fixtures the corpus has no need for: raw byte scripts with delays. */
const paced: Scenario = {
  id: 'zz_paced_bytes', title: 'three frames with scripted gaps', family: 'framing', tags: [], specRefs: [{ doc: 'whatwg-sse', section: '9.2.6' }],
  dialect: 'adk-js', replays: 'test fixture', session: { userId: 'u1', sessionId: 's-paced' }, request: { message: 'hi' },
  upstream: { kind: 'bytes', chunks: [{ text: 'data: {"n":1}\n\n' }, { text: 'data: {"n":2}\n\n', delayMs: 60 }, { text: 'data: {"n":3}\n\n', delayMs: 40 }] },
  expect: { status: 200, outcome: 'complete' },
} as unknown as Scenario;
const slow: Scenario = { ...paced, id: 'zz_slow_bytes', session: { userId: 'u1', sessionId: 's-slow' }, upstream: { kind: 'bytes', chunks: [{ text: 'data: {"n":1}\n\n' }, { text: 'data: {"n":2}\n\n', delayMs: 60_000 }] } } as unknown as Scenario;

const scenarios = [...corpus.scenarios, paced, slow];

/** The plan the mock replays for a scenario's own request (what the test expects on the wire). */
function expectedPlan(scenario: Scenario, mockDialect: Dialect): ReplayPlan {
  const plan = scenario.upstream.kind === 'anthropic-turn'
    ? renderAnthropicCall(scenario, 0)
    : render(scenario, {
      dialect: renderDialect(scenario, mockDialect),
      // A byte script on /v1/messages is asked for with `stream: true`.
      streaming: scenario.request.endpoint === '/v1/messages' ? true : scenario.request.streaming ?? false,
      appName: scenario.id,
      userId: scenario.session.userId,
      sessionId: scenario.session.sessionId,
      ...(scenario.request.endpoint === '/run_sse_enhanced' ? { enhanced: true } : {}),
    });
  return applyFaults(plan, (scenario.faults ?? []) as Parameters<typeof applyFaults>[1]);
}

const bodyOf = (plan: ReplayPlan) => Buffer.concat(plan.chunks.map((c) => c.bytes));

async function runScenario(mock: RunningMock, scenario: Scenario, extra: Pick<RawRequest, 'stopAfterBytes' | 'beforeHangUp'> = {}): Promise<RawResponse> {
  if (scenario.request.endpoint !== '/v1/messages' && scenario.upstream.kind !== 'anthropic-turn' && scenario.session.create !== false) {
    await postJson(mock.url, sessionPath(scenario), { state: scenario.session.state ?? {} });
  }
  const { path, body } = scenarioRequest(scenario);
  return postJson(mock.url, path, body, extra);
}

const streams = async (mock: RunningMock) => JSON.parse((await rawRequest(mock.url, { path: '/_mock/streams' })).body.toString()) as { open: number; opened: number; closedByClient: number; completed: number };

describe.each(['adk-js', 'adk-python'] as const)('mock on a socket (%s)', (dialect) => {
  // `fast` skips scripted waits (timeScale 0: same bytes, same writes, no clock), so the whole
  // corpus, 90-second silences included, replays in a moment; `mock` keeps the scripted timing.
  let fast: RunningMock;
  let mock: RunningMock;
  beforeAll(async () => {
    fast = await startMock({ host: '127.0.0.1', port: 0, dialect, scenarios, timeScale: 0 });
    mock = await startMock({ host: '127.0.0.1', port: 0, dialect, scenarios });
  });
  afterAll(async () => { await Promise.all([fast.close(), mock.close()]); });

  it('loads a corpus with scenarios in it', () => {
    expect(corpus.scenarios.length).toBeGreaterThan(10);
  });

  it.each(corpus.scenarios.map((s) => [s.id, s] as const))('mock writes the scripted bytes and status of %s', async (_id, scenario) => {
    const plan = expectedPlan(scenario, dialect);
    const expected = bodyOf(plan);
    const response = await runScenario(fast, scenario, plan.end === 'hold-open' ? { stopAfterBytes: expected.length } : {});
    expect(response.status).toBe(plan.status);
    expect(response.body.equals(expected), `body differs:\n${response.body.toString()}\n---\n${expected.toString()}`).toBe(true);
    if (plan.end === 'reset') expect(response.error).toBeDefined();
    if (plan.end === 'eof') expect(response.error).toBeUndefined();
    // The plan's headers, in its order and spelling, then only what HTTP needs (chunked framing)
    // and, for Express-shaped plans, the Connection/Keep-Alive pair Node adds for Express too.
    const names = response.rawHeaders.map(([name]) => name);
    const planned = plan.headers.map(([name]) => name);
    expect(names.slice(0, planned.length)).toEqual(planned);
    const added = isExpressShaped(plan.headers) ? ['Connection', 'Keep-Alive', 'Transfer-Encoding'] : ['Transfer-Encoding'];
    expect(names.slice(planned.length).filter((n) => !added.includes(n))).toEqual([]);
  });

  it('mock fills the date placeholder with the current HTTP date', async () => {
    const response = await rawRequest(mock.url, { path: '/health' });
    const date = response.rawHeaders.find(([name]) => name.toLowerCase() === 'date')?.[1] ?? '';
    expect(Number.isNaN(Date.parse(date))).toBe(false);
    expect(date).toMatch(/GMT$/);
  });

  it('mock waits at least each scripted delay before writing the next chunk', async () => {
    const response = await runScenario(mock, paced);
    expect(response.body.toString()).toBe('data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":3}\n\n');
    // Lower bounds only, measured from when the request left: chunk k cannot arrive before the
    // delays scripted up to it have passed on the server, whatever the load on this machine.
    const at = (n: number) => response.arrivals.find((a) => a.bytes.toString().includes(`"n":${n}`))?.at ?? NaN;
    expect(at(1)).toBeLessThanOrEqual(at(2));
    expect(at(2)).toBeLessThan(at(3));
    // Node's timers count whole milliseconds, so one can fire up to 1 ms before performance.now() says it is due (59.95 ms seen).
    expect(at(2) - response.startedAt).toBeGreaterThanOrEqual(59);
    expect(at(3) - response.startedAt).toBeGreaterThanOrEqual(99);
  });

  it('mock keeps a hold-open stream open and counts it until the client leaves', async () => {
    const scenario = corpus.scenarios.find((s) => s.id === 'missing_done_hold_open');
    expect(scenario).toBeDefined();
    const before = await streams(mock);
    const plan = expectedPlan(scenario as Scenario, dialect);
    const response = await runScenario(mock, scenario as Scenario, { stopAfterBytes: bodyOf(plan).length });
    expect(response.stopped).toBe(true);
    const after = await eventually(() => streams(mock), (s) => s.closedByClient > before.closedByClient);
    expect(after.closedByClient).toBe(before.closedByClient + 1);
    expect(after.opened).toBe(before.opened + 1);
    expect(after.open).toBe(before.open);
  });

  it('mock counts a stream as open while its client stays, and as closed by the client once it leaves', async () => {
    const before = await streams(mock);
    let during: Awaited<ReturnType<typeof streams>> | undefined;
    const response = await runScenario(mock, slow, { stopAfterBytes: 1, beforeHangUp: async () => { during = await streams(mock); } });
    expect(response.stopped).toBe(true);
    expect(during?.open).toBe(before.open + 1);
    const after = await eventually(() => streams(mock), (s) => s.open === before.open);
    expect(after.closedByClient).toBe(before.closedByClient + 1);
    expect(after.completed).toBe(before.completed);
  });

  it('mock counts a stream that ran to its end as completed', async () => {
    const before = await streams(mock);
    await runScenario(mock, paced);
    const after = await eventually(() => streams(mock), (s) => s.completed > before.completed);
    expect(after.completed).toBe(before.completed + 1);
    expect(after.open).toBe(before.open);
  });

  it('mock surfaces a reset as a socket error on the client', async () => {
    const cut = corpus.scenarios.find((s) => expectedPlan(s, dialect).end === 'reset');
    expect(cut, 'the corpus has a scenario that ends with reset').toBeDefined();
    const response = await runScenario(mock, cut as Scenario);
    expect(response.error).toBeDefined();
    expect(response.body.equals(bodyOf(expectedPlan(cut as Scenario, dialect)))).toBe(true);
  });
});

describe('header order per dialect', () => {
  const plain = corpus.scenarios.find((s) => s.id === 'plain_text');
  const cases: Array<[Dialect, string[]]> = [
    ['adk-js', ['X-Powered-By', 'Cache-Control', 'Content-Type', 'Connection', 'Date', 'Transfer-Encoding']],
    ['adk-python', ['date', 'server', 'content-type', 'transfer-encoding']],
  ];
  it.each(cases)('the %s mock sends the SSE headers of that server in its order', async (dialect, names) => {
    expect(scenarioDialects(plain as Scenario)).toContain(dialect);
    const mock = await startMock({ host: '127.0.0.1', port: 0, dialect, scenarios: corpus.scenarios });
    try {
      const response = await runScenario(mock, plain as Scenario);
      expect(response.status).toBe(200);
      expect(response.rawHeaders.map(([n]) => n)).toEqual(names);
    } finally {
      await mock.close();
    }
  });
});

describe('closing the app', () => {
  it('closes the mock while a hold-open stream is still open', async () => {
    const mock = await startMock({ host: '127.0.0.1', port: 0, scenarios: [slow] });
    const pending = runScenario(mock, slow);
    await eventually(() => streams(mock), (s) => s.open === 1);
    await mock.close();
    const response = await pending;
    expect(response.error).toBeDefined();
    expect(response.body.toString()).toBe('data: {"n":1}\n\n');
  });
});
