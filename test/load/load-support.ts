/**
 * Shared parts of the load and fault tests on the reference gateway: the real mock serving a
 * batch of generated runs (no scripted waits), the gateway in front of it, sessions created in
 * batches, a raw streaming client that can hang up at any byte, and bounded polling of the
 * counters both servers expose (`/_mock/streams`, `/_gateway/stats`).
 */
import http from 'node:http';
import { startMock, type RunningMock } from '../../mock-adk/server/start.ts';
import type { GatewayConfigInput } from '../../reference-impl/gateway/config.ts';
import { startGateway, type RunningGateway } from '../../reference-impl/gateway/start.ts';
import { runBody, type GatewayStreams, type MockStreams } from '../gateway-fixtures.ts';
import { asScenario, type GenScenario } from '../../harness/arbitraries/index.ts';

export type LoadStack = { mock: RunningMock; gateway: RunningGateway; close: () => Promise<void> };

/** The mock with `runs` as its scenarios and the gateway in front of it (or of `upstreamUrl`, e.g. a relay). */
export async function startLoadStack(runs: readonly GenScenario[], config: Partial<GatewayConfigInput> = {}, upstreamUrl?: (mock: RunningMock) => Promise<string>): Promise<LoadStack> {
  const mock = await startMock({ scenarios: runs.map(asScenario), timeScale: 0, journal: { maxEntries: 20_000 } });
  const upstream = upstreamUrl ? await upstreamUrl(mock) : mock.url;
  const gateway = await startGateway({ config: { auth: { mode: 'off' }, canonicalStreamEnabled: true, upstreamUrl: upstream, ...config } });
  return { mock, gateway, close: async () => { await gateway.close(); await mock.close(); } };
}

/** Create every run's session on the mock, `parallel` at a time. */
export async function createSessions(mockUrl: string, runs: readonly GenScenario[], parallel = 50): Promise<void> {
  for (let i = 0; i < runs.length; i += parallel) {
    await Promise.all(runs.slice(i, i + parallel).map(async (s) => {
      const res = await fetch(`${mockUrl}/apps/${s.id}/users/${s.session.userId}/sessions/${s.session.sessionId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      if (res.status !== 200) throw new Error(`could not create the session of ${s.id} on the mock: HTTP ${res.status} ${await res.text()}`);
      // Every run renders in every dialect: the session is armed in the run's own, the one its expected bytes are.
      const armed = await fetch(`${mockUrl}/_mock/arm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: s.session.sessionId, scenario: s.id, dialect: s.dialect }) });
      if (armed.status !== 200) throw new Error(`could not arm ${s.id} on the mock: HTTP ${armed.status} ${await armed.text()}`);
    }));
  }
}

export const runPath = (s: GenScenario): string => (s.request.endpoint === '/run_sse_enhanced' ? '/run_sse_enhanced' : '/run_sse');
export const runRequestBody = (s: GenScenario): string => JSON.stringify(runBody(asScenario(s)));

export type StreamResult = { status: number; body: Buffer; complete: boolean; error?: string };

export type OpenStream = {
  /** Resolves with the status once the headers arrived (0 if the connection failed first). */
  headers: Promise<number>;
  done: Promise<StreamResult>;
  /** Hang up now (a client that leaves). */
  drop: () => void;
};

/** When a client hangs up: right after sending its request, when the headers arrive, or after some body bytes. */
export type DropPoint = { when: 'sent' } | { when: 'headers' } | { when: 'bytes'; bytes: number };

/**
 * POST and read the whole answer over its own socket (no keep-alive pool). With `drop`, the client
 * hangs up at that point; the result then says `complete: false`.
 */
export function openStream(url: string, body: string, options: { drop?: DropPoint; headers?: Record<string, string> } = {}): OpenStream {
  let resolveHeaders: (status: number) => void = () => {};
  const headers = new Promise<number>((resolve) => { resolveHeaders = resolve; });
  let req: http.ClientRequest | undefined;
  const done = new Promise<StreamResult>((resolve) => {
    const parts: Buffer[] = [];
    let received = 0;
    let status = 0;
    let settled = false;
    const finish = (complete: boolean, error?: string) => {
      if (settled) return;
      settled = true;
      resolveHeaders(status);
      resolve({ status, body: Buffer.concat(parts), complete, ...(error !== undefined ? { error } : {}) });
    };
    const drop = options.drop;
    const hangUp = () => { finish(false, 'dropped by the client'); req?.destroy(); };
    req = http.request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers } }, (res) => {
      status = res.statusCode ?? 0;
      resolveHeaders(status);
      if (drop?.when === 'headers') { hangUp(); return; }
      res.on('data', (chunk: Buffer) => {
        parts.push(chunk);
        received += chunk.length;
        if (drop?.when === 'bytes' && received >= drop.bytes) hangUp();
      });
      res.on('end', () => finish(true));
      res.on('error', (e) => finish(false, e.message));
      res.on('close', () => finish(res.complete, res.complete ? undefined : 'closed before the end of the body'));
    });
    req.on('error', (e) => finish(false, e.message));
    req.end(body);
    if (drop?.when === 'sent') req.once('finish', hangUp);
  });
  return { headers, done, drop: () => req?.destroy() };
}

export const mockStreams = async (mockUrl: string): Promise<MockStreams> => (await (await fetch(`${mockUrl}/_mock/streams`)).json()) as MockStreams;
export const gatewayStreams = async (gatewayUrl: string): Promise<GatewayStreams['streams']> => ((await (await fetch(`${gatewayUrl}/_gateway/stats`)).json()) as GatewayStreams).streams;
export const mockRequestCount = async (mockUrl: string): Promise<number> => ((await (await fetch(`${mockUrl}/_mock/requests`)).json()) as { requests: unknown[] }).requests.length;

/**
 * Ask `read` until `done` holds, yielding 20 ms between tries, at most `tries` times; returns the
 * last value, which the test then asserts. A bound on asking, not a timing assertion. A read that
 * fails is asked again (the last failure is thrown once the tries are spent): fetch reuses an idle
 * keep-alive socket, and one the server closed as it was reused is ECONNRESET (CI of e22ceac, the
 * gateway's stats read after 1,000 streams: `fetch failed`, `read ECONNRESET`).
 */
export async function waitFor<T>(read: () => Promise<T> | T, done: (value: T) => boolean, tries = 1000): Promise<T> {
  let failure: unknown;
  for (let i = 0; i <= tries; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    try {
      const value = await read();
      failure = undefined;
      if (done(value) || i === tries) return value;
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}
