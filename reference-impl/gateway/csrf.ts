/**
 * CSRF protection (seed 004 § CSRF Protection: "**Method:** Token validation on POST requests",
 * "**Header:** `X-CSRF-Token: <token>`", "**Local Dev:** CSRF validation skipped for `localhost`").
 *
 * Double-submit cookie: `GET /_gateway/csrf` sets a random `csrf_token` cookie (SameSite=Strict)
 * and returns the same value; a POST must echo it in `X-CSRF-Token`. A cross-site page can make
 * the browser send the cookie but cannot read it, so it cannot forge the header.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { parseCookies } from './cookies.ts';
import type { GatewayErrorCode } from './error-codes.ts';

export type CsrfResult = { ok: true; skipped: boolean } | { ok: false; code: GatewayErrorCode; reason: string };

export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

export function csrfCookie(name: string, token: string): string {
  return `${name}=${token}; Path=/; SameSite=Strict`;
}

export function checkCsrf(request: FastifyRequest, options: { skipLocalhost: boolean; cookieName: string; headerName?: string }): CsrfResult {
  if (options.skipLocalhost && isLocalRequest(request)) return { ok: true, skipped: true };
  // Seed 004 names `X-CSRF-Token`; a team's frontend may use another (Angular's X-XSRF-TOKEN).
  const header = request.headers[(options.headerName ?? 'x-csrf-token').toLowerCase()];
  const sent = Array.isArray(header) ? header[0] : header;
  if (!sent) return { ok: false, code: 'GW_CSRF_MISSING', reason: 'missing X-CSRF-Token header' };
  const cookie = parseCookies(request.headers.cookie).get(options.cookieName);
  if (!cookie) return { ok: false, code: 'GW_CSRF_MISSING', reason: `missing ${options.cookieName} cookie (GET /_gateway/csrf sets it)` };
  const a = Buffer.from(sent);
  const b = Buffer.from(cookie);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return { ok: false, code: 'GW_CSRF_MISMATCH', reason: `X-CSRF-Token does not match the ${options.cookieName} cookie` };
  return { ok: true, skipped: false };
}

const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * "localhost", precisely: the TCP peer is a loopback address, the request was addressed to a
 * loopback name (Host), no proxy forwarded it (no Forwarded / X-Forwarded-For), and a browser
 * Origin, if any, is itself local. A proxy on the same machine or a public page that makes a
 * browser call http://localhost is therefore not "localhost".
 */
export function isLocalRequest(request: FastifyRequest): boolean {
  const peer = request.raw.socket.remoteAddress ?? '';
  if (!isLoopbackAddress(peer)) return false;
  if (request.headers.forwarded !== undefined || request.headers['x-forwarded-for'] !== undefined) return false;
  if (!isLocalHost(request.headers.host)) return false;
  const origin = request.headers.origin;
  if (origin !== undefined) {
    try { if (!LOCAL_HOSTNAMES.has(new URL(origin).hostname)) return false; } catch { return false; }
  }
  return true;
}

export function isLoopbackAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

function isLocalHost(host: string | undefined): boolean {
  if (!host) return false;
  const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0] ?? '';
  return LOCAL_HOSTNAMES.has(hostname.toLowerCase());
}
