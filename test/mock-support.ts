/**
 * Helpers for the mock's socket tests: raw HTTP over node:http (nothing re-frames the body, and
 * `rawHeaders` keeps the order and spelling of every header), and the request that runs a
 * scenario the way a client of the real server would.
 */
import { request as httpRequest } from 'node:http';
import type { Scenario } from '../schemas/types.ts';

export type RawResponse = {
  status: number;
  /** Header names and values in wire order, as received. */
  rawHeaders: Array<[string, string]>;
  body: Buffer;
  /** The body as it arrived, one entry per socket read, with the time it arrived (performance.now()). */
  arrivals: Array<{ at: number; bytes: Buffer }>;
  /** performance.now() just before the request was sent. */
  startedAt: number;
  /** Set when the connection broke before the body ended (a reset, a cut). */
  error?: Error;
  /** True when the helper hung up itself (stopAfterBytes reached). */
  stopped: boolean;
};

export type RawRequest = {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Hang up once this many body bytes arrived (for streams that never end). */
  stopAfterBytes?: number;
  /** Called once the status line and headers arrived. */
  onHeaders?: (status: number) => void;
  /** Awaited after stopAfterBytes is reached, before hanging up (to look at the mock meanwhile). */
  beforeHangUp?: () => Promise<void>;
};

export function rawRequest(baseUrl: string, options: RawRequest): Promise<RawResponse> {
  const url = new URL(options.path, baseUrl);
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      const rawHeaders: Array<[string, string]> = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) rawHeaders.push([res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '']);
      options.onHeaders?.(res.statusCode ?? 0);
      const arrivals: RawResponse['arrivals'] = [];
      let received = 0;
      let settled = false;
      const finish = (extra: { error?: Error; stopped?: boolean } = {}) => {
        if (settled) return;
        settled = true;
        resolve({ status: res.statusCode ?? 0, startedAt, rawHeaders, body: Buffer.concat(arrivals.map((a) => a.bytes)), arrivals, stopped: extra.stopped ?? false, ...(extra.error ? { error: extra.error } : {}) });
      };
      res.on('data', (chunk: Buffer) => {
        arrivals.push({ at: performance.now(), bytes: chunk });
        received += chunk.length;
        if (options.stopAfterBytes !== undefined && received >= options.stopAfterBytes && !settled) {
          const hangUp = () => { finish({ stopped: true }); req.destroy(); };
          if (options.beforeHangUp) void options.beforeHangUp().then(hangUp, hangUp);
          else hangUp();
        }
      });
      res.on('end', () => finish());
      res.on('error', (error) => finish({ error }));
      res.on('aborted', () => finish({ error: new Error('aborted') }));
      res.on('close', () => { if (!res.complete) finish({ error: new Error('closed before the end of the body') }); });
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export function postJson(baseUrl: string, path: string, value: unknown, extra: Partial<RawRequest> = {}): Promise<RawResponse> {
  return rawRequest(baseUrl, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value), ...extra });
}

/** The body a client of the real server sends to run `scenario` (its own app, user, session, message). */
export function runBody(scenario: Scenario): Record<string, unknown> {
  return {
    appName: scenario.id,
    userId: scenario.session.userId,
    sessionId: scenario.session.sessionId,
    newMessage: { role: 'user', parts: [{ text: scenario.request.message }] },
    streaming: scenario.request.streaming ?? false,
    ...(scenario.request.stateDelta ? { stateDelta: scenario.request.stateDelta } : {}),
  };
}

/** Where a scenario's request goes, and with what body. */
export function scenarioRequest(scenario: Scenario): { path: string; body: Record<string, unknown> } {
  if (scenario.upstream.kind === 'anthropic-turn' || scenario.request.endpoint === '/v1/messages') {
    return { path: '/v1/messages', body: { model: scenario.id, max_tokens: 1024, stream: true, messages: [{ role: 'user', content: scenario.request.message }] } };
  }
  const endpoint = scenario.request.endpoint ?? '/run_sse';
  return { path: endpoint, body: runBody(scenario) };
}

export const sessionPath = (scenario: Scenario, appName = scenario.id) =>
  `/apps/${encodeURIComponent(appName)}/users/${encodeURIComponent(scenario.session.userId)}/sessions/${encodeURIComponent(scenario.session.sessionId)}`;

/** Poll a condition on the mock (a counter that changes when a socket closes); gives up after `tries`. */
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, tries = 200): Promise<T> {
  let value = await read();
  for (let i = 0; i < tries && !ok(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = await read();
  }
  return value;
}
