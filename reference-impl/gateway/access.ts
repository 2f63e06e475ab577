/**
 * The gate every request passes before its handler, in the seed's order of concerns:
 * feature flag (501) → bearer JWT (401) → CSRF on POST (403). Routes declare what they need in
 * `config.access`; a route that says nothing (e.g. a plugin from another part) gets the full
 * check with a header token, so forgetting a declaration never opens a route.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import { createJwtVerifier, bearerToken } from './auth.ts';
import type { GatewayConfig } from './config.ts';
import { parseCookies } from './cookies.ts';
import { checkCsrf } from './csrf.ts';
import { sendError } from './http-errors.ts';

export type RouteAccess = {
  /** No flag, auth or CSRF check (stats, CSRF token issuing, health). */
  public?: boolean;
  /** Seed 004: "**When Disabled:** Returns `501 Not Implemented`". */
  canonical?: boolean;
  /** Where the bearer token comes from (default 'header'). */
  token?: 'header' | 'cookie' | 'header-or-cookie';
};

/** Who the request is for: the verified claims, or `anonymous` when auth is off. */
export type Principal = { anonymous: boolean; subject: string | undefined; claims: JWTPayload };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** A route's `config`, typed: fastify's own route typing would accept any value here. */
export function routeConfig(access: RouteAccess): { access: RouteAccess } {
  return { access };
}

/** Seed 004 § Feature Flag Disabled, exactly. */
export const flagDisabledBody = { detail: 'ADK canonical streaming not enabled. Set ENABLE_ADK_CANONICAL_STREAM=true to use this endpoint.' } as const;

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function installAccessControl(app: FastifyInstance, config: GatewayConfig): void {
  const verifier = config.auth.mode === 'jwt' ? createJwtVerifier(config.auth, config.now) : undefined;
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request, reply) => {
    // The not-found handler has no route; it answers 404 whatever the credentials.
    if (request.routeOptions.url === undefined) return;
    const access: RouteAccess = request.routeOptions.config.access ?? {};
    if (access.public) return;
    if (access.canonical && !config.canonicalStreamEnabled) return reply.code(501).type('application/json').send(flagDisabledBody);
    if (verifier) {
      // Seed 004 § Authentication: "**Dev Mode:** Set `ALLOW_UNAUTHENTICATED_SSE=true` to bypass".
      const token = tokenOf(request, access.token ?? 'header', config.authCookieName);
      if (!token.ok) return sendError(reply, token.code, token.reason);
      const result = await verifier.verify(token.token);
      if (!result.ok) return sendError(reply, result.code, result.reason);
      request.principal = { anonymous: false, subject: result.payload.sub, claims: result.payload };
    } else {
      request.principal = { anonymous: true, subject: undefined, claims: {} };
    }
    if (UNSAFE_METHODS.has(request.method)) {
      const csrf = checkCsrf(request, config.csrf);
      if (!csrf.ok) return sendError(reply, csrf.code, csrf.reason);
    }
    return;
  });
}

type TokenResult = ReturnType<typeof bearerToken>;

function tokenOf(request: FastifyRequest, source: NonNullable<RouteAccess['token']>, cookieName: string): TokenResult {
  if (source === 'header') return bearerToken(request.headers.authorization);
  const cookie = parseCookies(request.headers.cookie).get(cookieName);
  if (source === 'cookie') {
    // Seed 004 § Frontend SSE Proxy Pattern: "extracts tokens from cookies and forwards to backend" with an Authorization header.
    return cookie ? bearerToken(`Bearer ${cookie}`) : { ok: false, code: 'GW_AUTH_MISSING', reason: `missing ${cookieName} cookie` };
  }
  if (request.headers.authorization !== undefined) return bearerToken(request.headers.authorization);
  return cookie ? bearerToken(`Bearer ${cookie}`) : { ok: false, code: 'GW_AUTH_MISSING', reason: `missing bearer token (Authorization header or ${cookieName} cookie)` };
}
