/**
 * Shared setup of the gateway's cross-part tests: the real mock (startMock) behind a reference
 * gateway, both on 127.0.0.1 port 0, and a raw HTTP client that keeps the exact bytes and header
 * names (fetch would normalise both).
 */
import http from 'node:http';
import { applyFaults } from '../mock-adk/core/faults.ts';
import { render } from '../mock-adk/core/render.ts';
import type { ReplayPlan } from '../mock-adk/core/types.ts';
import { renderDialect } from '../mock-adk/server/mock-state.ts';
import { startMock, type RunningMock } from '../mock-adk/server/start.ts';
import type { GatewayConfigInput } from '../reference-impl/gateway/config.ts';
import { startGateway, type RunningGateway } from '../reference-impl/gateway/start.ts';
import type { Scenario } from '../schemas/types.ts';

export type Stack = { mock: RunningMock; gateway: RunningGateway; close: () => Promise<void> };

export async function startStack(config: Partial<GatewayConfigInput> = {}): Promise<Stack> {
  const mock = await startMock({});
  const gateway = await startGateway({ config: { auth: { mode: 'off' }, canonicalStreamEnabled: true, upstreamUrl: mock.url, ...config } });
  return { mock, gateway, close: async () => { await gateway.close(); await mock.close(); } };
}

export type RawResponse = {
  status: number;
  /** Header name/value pairs as they were on the wire (names in their sent case). */
  rawHeaders: Array<[string, string]>;
  body: Buffer;
  /** Set when the connection broke before the response ended. */
  error?: string;
};

/** POST (or GET) and collect the raw response, however it ends (a reset keeps what arrived). */
export function rawRequest(url: string, options: { method?: string; body?: string; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: options.method ?? 'POST',
      headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
      ...(options.signal ? { signal: options.signal } : {}),
    }, (res) => {
      const parts: Buffer[] = [];
      const rawHeaders: Array<[string, string]> = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) rawHeaders.push([res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '']);
      let done = false;
      const finish = (error?: string) => {
        if (done) return;
        done = true;
        resolve({ status: res.statusCode ?? 0, rawHeaders, body: Buffer.concat(parts), ...(error !== undefined ? { error } : {}) });
      };
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => finish());
      res.on('error', (error) => finish(error.message));
      res.on('close', () => finish(res.complete ? undefined : 'closed before the end'));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The canonical body a client sends for a scenario. */
export function runBody(scenario: Scenario, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    appName: scenario.id,
    userId: scenario.session.userId,
    sessionId: scenario.session.sessionId,
    newMessage: { role: 'user', parts: [{ text: scenario.request.message }] },
    streaming: scenario.request.streaming ?? false,
    ...(scenario.request.stateDelta ? { stateDelta: scenario.request.stateDelta } : {}),
    ...overrides,
  };
}

/** Create the ADK session a run needs on the mock (scenarios with `create: false` script its absence). */
export async function createSession(mockUrl: string, appName: string, userId: string, sessionId: string, state: Record<string, unknown> = {}): Promise<void> {
  const res = await fetch(`${mockUrl}/apps/${appName}/users/${userId}/sessions/${sessionId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state }) });
  if (res.status !== 200) throw new Error(`could not create session ${appName}/${userId}/${sessionId} on the mock: HTTP ${res.status} ${await res.text()}`);
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  return (await res.json()) as T;
}

/**
 * Ask `read` until `done` holds, yielding to the event loop between tries. Not a timing
 * assertion: it bounds how many times to ask, and the test asserts the state reached.
 */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, tries = 200): Promise<T> {
  let value = await read();
  for (let i = 0; i < tries && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = await read();
  }
  return value;
}

/** A port nothing listens on: bind one, then let it go. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

/** The plan the (adk-js) mock serves for this scenario and session: its bytes and its waits. */
export function scriptedPlan(scenario: Scenario, sessionId = scenario.session.sessionId): ReplayPlan {
  const plan = render(scenario, {
    dialect: renderDialect(scenario, 'adk-js'),
    streaming: scenario.request.streaming ?? false,
    appName: scenario.id,
    userId: scenario.session.userId,
    sessionId,
    ...(scenario.request.endpoint === '/run_sse_enhanced' ? { enhanced: true } : {}),
  });
  return applyFaults(plan, (scenario.faults ?? []) as Array<{ name: string }>);
}

/** The longest single wait a plan scripts (a silence step, a dribble interval...). */
export function longestWaitMs(plan: ReplayPlan): number {
  return Math.max(0, ...plan.chunks.map((c) => c.delayMs));
}

export type MockStreams = { open: number; opened: number; closedByClient: number; completed: number };
export type GatewayStreams = { streams: { open: number; opened: number; completed: number; closedByClient: number; timedOut: number; upstreamStatus: number; streamErrors: number }; legacy: { held: number; running: number; started: number; completed: number; readers: number; droppedUnread: number; evicted: number; refused: number; replayDropped: number } };
