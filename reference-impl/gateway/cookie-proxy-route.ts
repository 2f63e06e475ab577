/**
 * Seed 004 § Frontend SSE Proxy Pattern: "JWT tokens must not be exposed in browser URLs";
 * "Server-side Next.js API route extracts tokens from cookies and forwards to backend".
 *
 * `POST /api/sse/run_sse` reads the bearer token from the HttpOnly cookie (AUTH_COOKIE_NAME,
 * default `access_token`) in place of the Authorization header (access.ts, `token: 'cookie'`)
 * and then runs the very same /run_sse logic: validation, upstream call, passthrough, frames.
 * An Authorization header on this route is ignored: the cookie is the only credential here.
 */
import type { FastifyPluginAsync } from 'fastify';
import { routeConfig } from './access.ts';
import type { RunSseHandler } from './run-sse-route.ts';

export function cookieProxyRoute(handle: RunSseHandler): FastifyPluginAsync {
  return async (app) => {
    app.post('/api/sse/run_sse', { config: routeConfig({ canonical: true, token: 'cookie' }) }, (request, reply) => handle(request, reply, '/run_sse'));
  };
}
