/**
 * The harness's own calls to a mock that listens in the same process, answered by the same route
 * handlers without a socket: creating a session, arming a run, reading the journal and the stream
 * counters. Each such call over HTTP cost about 0.75 ms of this process's CPU, client and server
 * side both here (fetch and fastify), and a certification makes thousands (docs/performance.md
 * fix 44). An implementation under test never takes this path: its requests reach the mock over
 * HTTP on 127.0.0.1 and are journaled as the fastify shell receives them.
 *
 * Only the session and control routes are answered here: they answer at once and stream nothing.
 * A call is journaled as the fastify shell would journal it (recordRequest skips `/_mock/`), with
 * the headers undici's fetch would have sent, so the mock's state after it is the same.
 */
import { allRouteGroups, recordRequest, routePattern } from './route-table.ts';
import type { MockState } from './mock-state.ts';
import type { MockRequest, MockRoute } from './route-types.ts';

export type LocalAnswer = { status: number; text: string };

type Compiled = { method: string; regex: RegExp; names: string[]; handle: MockRoute['handle'] };

/** The routes a local call may take: those that answer at once, never a replay. */
const localGroups = new Set(['mock-sessions', 'mock-control']);

const compiled: Compiled[] = allRouteGroups.filter((g) => localGroups.has(g.name)).flatMap((g) => g.routes)
  .map((route) => ({ method: route.method, ...routePattern(route.path), handle: route.handle }));

/** Listening mocks of this process by origin (`http://127.0.0.1:PORT`). */
const mocks = new Map<string, MockState>();

/** Called by startMock once the mock listens; the function it returns is called when it closes. */
export function registerLocalMock(url: string, state: MockState): () => void {
  const origin = new URL(url).origin;
  mocks.set(origin, state);
  return () => { if (mocks.get(origin) === state) mocks.delete(origin); };
}

/**
 * The answer of the mock at `url` (origin, path and query) when it listens in this process and the
 * route is one answered here; undefined otherwise: then the caller makes the request over HTTP.
 */
export function callLocalMock(url: string, method: string, body?: string): LocalAnswer | undefined {
  if (mocks.size === 0) return undefined;
  const parsed = new URL(url);
  const state = mocks.get(parsed.origin);
  if (!state) return undefined;
  for (const route of compiled) {
    if (route.method !== method) continue;
    const match = route.regex.exec(parsed.pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    try {
      route.names.forEach((name, i) => { params[name] = decodeURIComponent(match[i + 1] ?? ''); });
    } catch {
      return undefined; // a broken escape: the fastify shell answers that one in the dialect's words
    }
    const text = body ?? '';
    const headers: Record<string, string | undefined> = { host: parsed.host, connection: 'keep-alive', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'node', 'accept-encoding': 'gzip, deflate', ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(text)) } : {}) };
    const request: MockRequest = { method, url: parsed.pathname + parsed.search, params, query: parsed.searchParams, headers, body: text };
    recordRequest(state, request);
    const result = route.handle(state, request);
    // Session and control routes never replay; one that did would need the socket, so it is a kit bug.
    if (result.kind !== 'answer') throw new Error(`callLocalMock: ${method} ${parsed.pathname} answered with a replay; only session and control routes are answered in process (mock-adk/server/local-calls.ts)`);
    return { status: result.answer.status, text: result.answer.body };
  }
  return undefined;
}
