/**
 * Every route group of the mock, and what both shells do around the routes: journal each
 * request, and answer a request no route takes the way the dialect's server does (adk-js: the
 * Express `Cannot GET /x` page; Starlette: 404, or 405 with `allow` for a known path).
 */
import { dialects, isAdkJs } from '../core/dialects/index.ts';
import { anthropicRoutes } from './anthropic.ts';
import { controlRoutes } from './control.ts';
import { enhancedRoutes } from './enhanced.ts';
import { miscRoutes } from './misc.ts';
import type { MockState } from './mock-state.ts';
import type { Answer, MockRequest, MockResult, MockRoute } from './route-types.ts';
import { expressEtag } from '../core/dialects/etag.ts';
import { HTTP_DATE } from '../core/types.ts';
import { runRoutes } from './run.ts';
import { python2xOriginGate } from './origin-gate.ts';
import { sessionRoutes } from './sessions.ts';

export type RouteGroup = { name: string; routes: readonly MockRoute[] };

/** adk-python 2.x refuses a foreign Host or Origin before any route (origin-gate.ts); the mock's own control routes are not the server's. */
const serverRoutes = (routes: readonly MockRoute[]): MockRoute[] => routes.map((route) => ({
  ...route,
  handle: (state, request) => {
    const refused = state.dialect === 'adk-python@2.x' ? python2xOriginGate(request, state.bindHost) : undefined;
    return refused ? { kind: 'answer', answer: refused } : route.handle(state, request);
  },
}));

export const allRouteGroups: readonly RouteGroup[] = [
  { name: 'mock-sessions', routes: serverRoutes(sessionRoutes) },
  { name: 'mock-run', routes: serverRoutes(runRoutes) },
  { name: 'mock-enhanced', routes: serverRoutes(enhancedRoutes) },
  { name: 'mock-anthropic', routes: anthropicRoutes },
  { name: 'mock-control', routes: controlRoutes },
  { name: 'mock-misc', routes: serverRoutes(miscRoutes) },
];

/** The journal keeps what an implementation under test sent, not the harness's own control calls. */
export function recordRequest(state: MockState, request: MockRequest): void {
  // The path starts with '/_mock/' exactly when the URL does ('?' cannot come first in those 7 characters).
  if (request.url.startsWith('/_mock/')) return;
  // Made into an entry (time text, session) when the journal is listed: journal.ts ReceivedRequest.
  state.journal.record({ method: request.method, url: request.url, headers: request.headers, body: request.body, receivedAtMs: Date.now() });
}

/**
 * A route's path as a pattern: each `:name` matches one path segment (as find-my-way and msw match
 * it), captured in order under `names`; a trailing slash is ignored (the app's ignoreTrailingSlash).
 */
export function routePattern(path: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z]+)/g, (_m, name: string) => { names.push(name); return '([^/]+)'; });
  return { regex: new RegExp(`^${source}/?$`), names };
}

const patterns = allRouteGroups.flatMap((g) => g.routes).map((route) => ({ method: route.method, regex: routePattern(route.path).regex }));

export function unmatchedResult(state: MockState, method: string, url: string): MockResult {
  const spec = dialects[state.dialect];
  const path = url.split('?')[0] ?? url;
  const allowed = [...new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method))];
  if (method === 'OPTIONS' && allowed.length > 0 && isAdkJs(state.dialect)) return { kind: 'answer', answer: expressOptions(allowed) };
  if (allowed.length > 0 && !allowed.includes(method as MockRoute['method'])) {
    return { kind: 'answer', answer: spec.methodNotAllowed(method, path, allowed) };
  }
  return { kind: 'answer', answer: spec.notFound(method, path) };
}

/**
 * Express's automatic OPTIONS answer: "✔ 200 `Allow: POST`, body `POST` (Express auto-OPTIONS);
 * **no** `Access-Control-*` headers" (wire-format §1). A GET route also allows HEAD.
 */
function expressOptions(allowed: readonly string[]): Answer {
  const body = allowed.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])).join(',');
  return {
    status: 200,
    headers: [['X-Powered-By', 'Express'], ['Allow', body], ['Content-Type', 'text/html; charset=utf-8'], ['Content-Length', String(Buffer.byteLength(body))], ['ETag', expressEtag(body)], ['Date', HTTP_DATE]],
    body,
  };
}
