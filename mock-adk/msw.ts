/**
 * The mock as msw handlers: the same routes, render, faults and replay engine as the fastify
 * server, with a web `Response` as the last hop. POST streams are `new Response(ReadableStream)`
 * (msw's `sse()` helper is GET-only). Use in tests and browsers:
 *
 *   const handlers = createMockHandlers({ baseUrl: 'http://adk.test', scenarios });
 *   setupServer(...handlers).listen();
 *
 * What a socket adds and a Response cannot carry is left out: hop-by-hop headers (Connection,
 * Keep-Alive, Transfer-Encoding), statuses below 200, and a real TCP reset (a reset plan errors
 * the body stream instead, the way undici reports a reset: `TypeError: terminated`).
 */
import { http, type HttpHandler } from 'msw';
import type { Scenario } from '../schemas/types.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import type { Dialect, ReplayPlan } from './core/types.ts';
import { planToStream, waitHeaders } from './replay.ts';
import { mockErrorAnswer } from './server/mock-errors.ts';
import { createMockState, type MockState, type MockStateOptions } from './server/mock-state.ts';
import { allRouteGroups, recordRequest, unmatchedResult } from './server/route-table.ts';
import type { Answer, MockRequest, MockResult, MockRoute } from './server/route-types.ts';
import { hopByHopHeaders, resolveHeaders } from './server/wire-headers.ts';

export type MockHandlersOptions = Omit<MockStateOptions, 'scenarios' | 'dialect'> & {
  /** Absolute http(s) URL the handlers answer under, e.g. `http://adk.test`. */
  baseUrl: string;
  /** Default: the kit's corpus. */
  scenarios?: readonly Scenario[];
  dialect?: Dialect;
};

/** The handlers, with the state behind them (sessions, journal, stream counters). */
export type MockHandlers = HttpHandler[] & { state: MockState };

const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

export function createMockHandlers(options: MockHandlersOptions): MockHandlers {
  const base = checkBaseUrl(options?.baseUrl);
  const state = createMockState({ ...options, scenarios: options.scenarios ?? loadScenarios().scenarios });
  const basePath = new URL(base).pathname.replace(/\/$/, '');

  async function toMockRequest(request: Request, params: Record<string, string | readonly string[] | undefined>): Promise<MockRequest> {
    const url = new URL(request.url);
    const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) || '/' : url.pathname;
    const headers: Record<string, string | undefined> = {};
    request.headers.forEach((value, name) => { headers[name] = value; });
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(params)) if (value !== undefined) flat[name] = typeof value === 'string' ? value : value.join('/');
    return { method: request.method, url: path + url.search, params: flat, query: url.searchParams, headers, body: await request.text() };
  }

  function handler(method: MockRoute['method'] | 'ALL', path: string, handle: (request: MockRequest) => MockResult): HttpHandler {
    const register = method === 'ALL' ? http.all : http[method.toLowerCase() as 'get' | 'post' | 'delete' | 'patch' | 'put' | 'options'];
    return register(base + path, async ({ request, params }) => {
      const mockRequest = await toMockRequest(request, params);
      recordRequest(state, mockRequest);
      return toResponse(state, handle(mockRequest), request.signal);
    });
  }

  const handlers: HttpHandler[] = [];
  for (const group of allRouteGroups) {
    for (const route of group.routes) handlers.push(handler(route.method, route.path, (r) => route.handle(state, r)));
  }
  handlers.push(handler('ALL', '/*', (r) => unmatchedResult(state, r.method, r.url)));
  return Object.assign(handlers, { state });
}

function checkBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== 'string') throw new TypeError('createMockHandlers: baseUrl must be an absolute http(s) URL string, e.g. "http://adk.test"');
  let url: URL;
  try { url = new URL(baseUrl); } catch { throw new TypeError(`createMockHandlers: baseUrl ${JSON.stringify(baseUrl)} is not an absolute URL; pass e.g. "http://adk.test"`); }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`createMockHandlers: baseUrl must use http: or https:, got ${url.protocol}`);
  if (url.search || url.hash) throw new TypeError('createMockHandlers: baseUrl must not carry a query or a fragment');
  return baseUrl.replace(/\/+$/, '');
}

function webHeaders(headers: Answer['headers']): Headers {
  const out = new Headers();
  for (const [name, value] of resolveHeaders(headers)) if (!hopByHopHeaders.has(name.toLowerCase())) out.append(name, value);
  return out;
}

function answerResponse(answer: Answer): Response {
  try {
    return new Response(nullBodyStatuses.has(answer.status) ? null : answer.body, { status: answer.status, headers: webHeaders(answer.headers) });
  } catch (error) {
    const fallback = mockErrorAnswer('MOCK_RENDER_FAILED', `the answer cannot be carried by a fetch Response: ${(error as Error).message}`);
    return new Response(fallback.body, { status: fallback.status, headers: webHeaders(fallback.headers) });
  }
}

async function toResponse(state: MockState, result: MockResult, signal: AbortSignal): Promise<Response> {
  if (result.kind === 'answer') return answerResponse(result.answer);
  const { plan, scenarioId } = result;
  if (plan.status < 200 || plan.status > 599) {
    return answerResponse(mockErrorAnswer('MOCK_MSW_UNSUPPORTED_STATUS', `scenario '${scenarioId}' answers status ${plan.status}, which a fetch Response cannot carry`));
  }
  let headers: Headers;
  try {
    headers = webHeaders(plan.headers);
  } catch (error) {
    return answerResponse(mockErrorAnswer('MOCK_RENDER_FAILED', `scenario '${scenarioId}': the plan's headers cannot be carried by a fetch Response: ${(error as Error).message}`));
  }
  if (!(await waitHeaders(plan, signal, state.timeScale))) return Response.error();
  return streamResponse(state, plan, headers, signal, result.sessionId);
}

function streamResponse(state: MockState, plan: ReplayPlan, headers: Headers, signal: AbortSignal, sessionId?: string): Response {
  state.streams.opened(sessionId);
  let by: 'client' | 'plan' = 'plan';
  const stream = planToStream(plan, {
    timeScale: state.timeScale,
    onStart(replay) {
      const leave = () => { by = 'client'; replay.abort('client'); };
      signal.addEventListener('abort', leave, { once: true });
      void replay.done.then((outcome) => {
        signal.removeEventListener('abort', leave);
        state.streams.closed(outcome.outcome, outcome.outcome === 'aborted' ? 'client' : by, sessionId);
      });
    },
  });
  return new Response(nullBodyStatuses.has(plan.status) ? null : stream, { status: plan.status, headers });
}
