/**
 * The msw shell and the fastify shell are one engine with two last hops: for every scenario of
 * the corpus they emit the same body bytes and status. The fastify bytes are read off a real
 * socket before msw starts intercepting, so nothing of msw sits between them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import { loadScenarios } from '../scenarios/loader.ts';
import type { Scenario } from '../schemas/types.ts';
import { createMockHandlers, type MockHandlers } from '../mock-adk/msw.ts';
import { startMock } from '../mock-adk/server/start.ts';
import { eventually, postJson, scenarioRequest, sessionPath } from './mock-support.ts';
import { render } from '../mock-adk/core/render.ts';
import { applyFaults, type FaultSpec } from '../mock-adk/core/faults.ts';

const { scenarios } = loadScenarios();
const baseUrl = 'http://adk.test';

type Captured = { status: number; body: Buffer; broken: boolean; held: boolean };
const viaSocket = new Map<string, Captured>();
/** The whole scripted body of a held-open scenario (it never ends, so the reader stops there). */
function expectedLength(scenario: Scenario): number {
  const plan = render(scenario, { dialect: scenario.dialect, streaming: scenario.request.streaming ?? false, appName: scenario.id, userId: scenario.session.userId, sessionId: scenario.session.sessionId });
  return applyFaults(plan, (scenario.faults ?? []) as FaultSpec[]).chunks.reduce((n, c) => n + c.bytes.byteLength, 0);
}
const needsSession = (s: Scenario) => s.request.endpoint !== '/v1/messages' && s.upstream.kind !== 'anthropic-turn' && s.session.create !== false;
const isHeld = (s: Scenario) => s.upstream.kind !== 'anthropic-turn' && (s.upstream as { end?: string }).end === 'hold-open';

let server: ReturnType<typeof setupServer>;
let handlers: MockHandlers;

beforeAll(async () => {
  // Scripted waits off (timeScale 0) on both sides: the bytes and write boundaries are what is compared.
  const mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, timeScale: 0 });
  try {
    for (const scenario of scenarios) {
      if (needsSession(scenario)) await postJson(mock.url, sessionPath(scenario), {});
      const { path, body } = scenarioRequest(scenario);
      // A held-open stream never ends: its body is whatever arrived before the helper hangs up.
      const held = isHeld(scenario);
      const response = await postJson(mock.url, path, body, held ? { stopAfterBytes: expectedLength(scenario) } : {});
      viaSocket.set(scenario.id, { status: response.status, body: response.body, broken: response.error !== undefined, held });
    }
  } finally {
    await mock.close();
  }
  handlers = createMockHandlers({ baseUrl, scenarios, timeScale: 0 });
  server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
});

afterAll(() => { server?.close(); });

async function viaMsw(scenario: Scenario, expectedLength: number): Promise<Captured> {
  if (needsSession(scenario)) await fetch(baseUrl + sessionPath(scenario), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const { path, body } = scenarioRequest(scenario);
  // msw tees a mocked body for its own events, so cancelling the body alone never reaches the
  // mock: a client leaves by aborting its request, which the handlers see on `request.signal`.
  const leave = new AbortController();
  const response = await fetch(baseUrl + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: leave.signal });
  const parts: Uint8Array[] = [];
  let received = 0;
  let broken = false;
  const reader = response.body?.getReader();
  const held = isHeld(scenario);
  try {
    while (reader) {
      if (held && received >= expectedLength) { leave.abort(); break; }
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      received += value.byteLength;
    }
  } catch {
    broken = true;
  }
  return { status: response.status, body: Buffer.concat(parts), broken, held };
}

describe('msw handlers', () => {
  it('captured every scenario from the socket first', () => {
    expect(viaSocket.size).toBe(scenarios.length);
  });

  it.each(scenarios.map((s) => [s.id, s] as const))('msw emits the same status and bytes as the fastify server for %s', async (id, scenario) => {
    const socket = viaSocket.get(id) as Captured;
    const msw = await viaMsw(scenario, socket.body.length);
    expect(msw.status).toBe(socket.status);
    expect(msw.body.equals(socket.body), `msw:\n${msw.body.toString()}\nsocket:\n${socket.body.toString()}`).toBe(true);
    expect(msw.broken).toBe(socket.broken);
  });

  it('msw counts its streams like the server does, a client that aborted included', async () => {
    const counts = await eventually(async () => handlers.state.streams.snapshot(), (c) => c.open === 0);
    expect(counts.open).toBe(0);
    expect(counts.opened).toBeGreaterThanOrEqual(scenarios.length);
    expect(counts.completed).toBeGreaterThan(0);
    expect(counts.closedByClient).toBe(scenarios.filter(isHeld).length);
  });

  it('msw serves the control routes and the journal', async () => {
    const listed = await (await fetch(`${baseUrl}/_mock/scenarios`)).json() as { ids: string[] };
    expect(listed.ids).toEqual(scenarios.map((s) => s.id).sort());
    const journal = await (await fetch(`${baseUrl}/_mock/requests?sessionId=${encodeURIComponent(scenarios[0]?.session.sessionId ?? '')}`)).json() as { requests: Array<{ body: string }> };
    expect(journal.requests.length).toBeGreaterThan(0);
  });

  it('msw answers an unknown route with the dialect 404', async () => {
    const response = await fetch(`${baseUrl}/no/such/route`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('Cannot GET /no/such/route');
  });

  it('createMockHandlers refuses a base URL that is not an absolute http URL', () => {
    expect(() => createMockHandlers({ baseUrl: 'adk.test', scenarios })).toThrow(/not an absolute URL/);
    expect(() => createMockHandlers({ baseUrl: 'ftp://adk.test', scenarios })).toThrow(/http: or https:/);
  });
});
