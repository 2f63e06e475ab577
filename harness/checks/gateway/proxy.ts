/**
 * GW-PROXY-002: seed 004 § Frontend SSE Proxy Pattern, "JWT tokens must not be exposed in browser
 * URLs"; "Server-side Next.js API route extracts tokens from cookies and forwards to backend"
 * (`POST /api/sse/run_sse` → `POST /run_sse with Authorization header`).
 *
 * Observable from outside: a request that carries the token only in the HttpOnly cookie is
 * authenticated (the stream arrives unchanged), a bad cookie token is refused with 401 (so the
 * cookie is really verified, not just present), no upstream URL carries the token, and a token in
 * the request's own URL (`?token=`, `?access_token=`: the EventSource habit) is never accepted, so
 * no client is ever led to put one there.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { commonPrefix, finding, judge, noStreamReason, untested, type Exchange } from './types.ts';

export type ProxyObservation = {
  /** Valid token in the cookie, no Authorization header. */
  accepted: Exchange;
  /** The upstream bytes the accepted request must stream. */
  expected: Uint8Array;
  /** A token signed with another key in the cookie. */
  refused: Exchange;
  /** URLs of every upstream request the two made, or why unknown. */
  upstreamUrls: string[] | { error: string };
  token: string;
  /** Requests with a valid token only in their URL's query (no header, no cookie), by what was sent. */
  urlToken?: Array<{ label: string; exchange: Exchange }>;
};

export function checkProxy(probe: string, o: ProxyObservation): CheckOutcome[] {
  const req = 'GW-PROXY-002';
  const findings: Finding[] = [];
  const noAccepted = noStreamReason(o.accepted);
  if (noAccepted !== undefined) return [untested(req, probe, `cookie request: ${noAccepted}`)];
  if (o.accepted.status !== 200) {
    findings.push(finding(req, 'cookie-token-refused', 'status', `POST /api/sse/run_sse with a valid token in the access_token cookie got HTTP ${o.accepted.status}`, 200, o.accepted.status));
  } else if (commonPrefix(o.accepted.body, o.expected) !== o.expected.length || o.accepted.body.length !== o.expected.length) {
    findings.push(finding(req, 'proxy-stream-changed', 'body', 'the cookie-authenticated stream is not the upstream\'s bytes', o.expected.length, o.accepted.body.length));
  }
  const noRefused = noStreamReason(o.refused);
  if (noRefused === undefined && o.refused.status !== 401) {
    findings.push(finding(req, 'cookie-token-not-verified', 'cookie:access_token', `a token signed with another key in the cookie got HTTP ${o.refused.status}: the proxy does not verify the cookie token`, 401, o.refused.status));
  }
  if (Array.isArray(o.upstreamUrls)) {
    const leaked = o.upstreamUrls.filter((u) => u.includes(o.token) || /[?&](access_)?token=/i.test(u));
    if (leaked.length > 0) findings.push(finding(req, 'token-in-url', 'upstream:url', 'the token was put in an upstream URL', 'no token in any URL', leaked));
  }
  for (const u of o.urlToken ?? []) {
    const status = u.exchange.status;
    if (noStreamReason(u.exchange) === undefined && status !== undefined && status >= 200 && status <= 299) {
      findings.push(finding(req, 'token-accepted-from-url', 'url:query', `${u.label} was accepted (HTTP ${status}): the gateway takes a JWT from the request URL, which browsers log, cache and send in Referer`, 401, status));
    }
  }
  return [judge(req, probe, findings)];
}
