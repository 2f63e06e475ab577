/**
 * adk-python 2.x's `_OriginCheckMiddleware` (google/adk-python `src/google/adk/cli/api_server.py`
 * @024a438920293e9de5f95b58c0669f858d39fa6f), which runs before every route:
 *
 * - DNS-rebinding guard (`_is_dns_rebinding_request`): on a loopback bind, a request whose Host
 *   header names any other host (or more than one host) gets `403 Forbidden: host not allowed`.
 *   With no `--allow_origins` (the mock has none) no other host is vouched for.
 * - Origin check (`_is_request_origin_allowed`): a request with an `Origin` header whose host is
 *   not loopback (on a loopback bind), or that differs from the request's own origin
 *   (`Forwarded` proto+host, else `X-Forwarded-Host`/`Host` with `X-Forwarded-Proto` or the
 *   scheme), gets `403 Forbidden: origin not allowed`.
 * Both answer `text/plain` through the raw ASGI channel (`_send_forbidden`), after uvicorn's date
 * and server headers. A gateway that passes the browser's Host or Origin on to an adk-python 2.x
 * server is refused by it: this is that answer.
 *
 * `bindHost` is the address the mock listens on (`adk api_server --host`; inferred to reach
 * `bind_host`); undefined (msw, inject) means the bind is unknown, and the guard is off, as the
 * source does for `bind_host=None`.
 */
import { HTTP_DATE } from '../core/types.ts';
import type { Answer, MockRequest } from './route-types.ts';

function stripPort(host: string): string {
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) return host;
    const suffix = host.slice(close + 1);
    return suffix === '' || /^:\d+$/.test(suffix) ? host.slice(1, close) : host;
  }
  const colons = host.split(':').length - 1;
  if (colons !== 1) return host;
  const [bare, port] = host.split(':') as [string, string];
  return /^\d+$/.test(port) ? bare : host;
}

/** `_is_loopback_address`: localhost (any case, a root dot allowed) or a loopback IP. */
export function isLoopback(host: string): boolean {
  const bare = stripPort(host).toLowerCase().replace(/\.+$/, '');
  if (bare === 'localhost') return true;
  if (/^127(\.\d{1,3}){3}$/.test(bare)) return bare.split('.').every((n) => Number(n) <= 255);
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
}

const first = (value: string | undefined): string | undefined => value?.split(',', 1)[0]?.trim();

function forbidden(reason: string): Answer {
  const body = `Forbidden: ${reason}`;
  return { status: 403, headers: [['date', HTTP_DATE], ['server', 'uvicorn'], ['content-type', 'text/plain'], ['content-length', String(Buffer.byteLength(body))]], body };
}

/** `_get_request_origin`: what the request's own origin is, from Forwarded, X-Forwarded-* or Host. */
function requestOrigin(headers: MockRequest['headers']): string | undefined {
  const forwarded = first(headers.forwarded);
  if (forwarded !== undefined) {
    let proto: string | undefined;
    let host: string | undefined;
    for (const element of forwarded.split(';')) {
      const at = element.indexOf('=');
      if (at < 0) continue;
      const name = element.slice(0, at).trim().toLowerCase();
      const value = element.slice(at + 1).trim().replace(/^"(.*)"$/, '$1');
      if (name === 'proto') proto = value;
      else if (name === 'host') host = value;
    }
    if (proto !== undefined && host !== undefined) return `${proto === 'ws' ? 'http' : proto === 'wss' ? 'https' : proto}://${host}`;
  }
  const host = first(headers['x-forwarded-host']) ?? first(headers.host);
  if (host === undefined) return undefined;
  const proto = first(headers['x-forwarded-proto']) ?? 'http';
  return `${proto === 'ws' ? 'http' : proto === 'wss' ? 'https' : proto}://${host}`;
}

export function python2xOriginGate(request: MockRequest, bindHost: string | undefined): Answer | undefined {
  const loopbackBind = bindHost !== undefined && isLoopback(bindHost);
  const host = request.headers.host;
  // Node joins repeated Host headers with ", ": a list of hosts is smuggling, refused.
  if (loopbackBind && host !== undefined && (host.includes(',') || !isLoopback(host.trim()))) return forbidden('host not allowed');
  const origin = first(request.headers.origin);
  if (origin === undefined) return undefined;
  if (loopbackBind) {
    let originHost = '';
    try { originHost = new URL(origin).hostname.replace(/^\[|\]$/g, ''); } catch { return forbidden('origin not allowed'); }
    if (!isLoopback(originHost)) return forbidden('origin not allowed');
  }
  return origin === requestOrigin(request.headers) ? undefined : forbidden('origin not allowed');
}
