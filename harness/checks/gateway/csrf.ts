/**
 * GW-CSRF-002: seed 004 § CSRF Protection, "**Method:** Token validation on POST requests",
 * "**Header:** `X-CSRF-Token: <token>`", "**Validation:** Server-side check in middleware",
 * "**Local Dev:** CSRF validation skipped for `localhost`". The harness's gateway contract turns
 * the localhost skip off (CSRF_SKIP_LOCALHOST=false), so from 127.0.0.1 too:
 *
 * - a POST with a valid token (one the gateway issued at `GET /csrf-token`, or the double-submit
 *   pair when it issues none) is served, and reaches the upstream;
 * - a POST without the token, or with one the gateway never issued (or that does not match its
 *   cookie), is refused with 403, and nothing reaches the upstream: the check is middleware,
 *   before the run starts, not a refusal after the fact.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { fail, finding, judge, noStreamReason, untested, type Exchange } from './types.ts';
import type { RefusalAttempt } from './refusals.ts';

export type CsrfAttempt = RefusalAttempt & {
  /** Run requests that reached the mock for this attempt's body, or why unknown. */
  upstreamRequests: number | { error: string };
};

export type CsrfCase = {
  probe: string;
  /** How the harness got its valid token: 'endpoint' (GET /csrf-token) or 'double-submit'. */
  source: 'endpoint' | 'double-submit';
  control: Exchange;
  controlUpstream: number | { error: string };
  attempts: CsrfAttempt[];
};

export function checkCsrf(c: CsrfCase): CheckOutcome[] {
  const req = 'GW-CSRF-002';
  const how = c.source === 'endpoint' ? 'the token the gateway issued at GET /csrf-token' : 'a matching double-submit pair (X-CSRF-Token header and csrf_token cookie)';
  const controlProblem = noStreamReason(c.control);
  if (controlProblem !== undefined) return [untested(req, c.probe, `control request: ${controlProblem}`)];
  if (c.control.status === 403) {
    return [fail(req, c.probe, [finding(req, 'valid-token-refused', 'header:x-csrf-token', `a POST with ${how} was refused with 403; the harness sends the token the gateway issues at GET /csrf-token, or the double-submit pair when that route is absent (docs/harness-gateway.md)`, 200, 403)])];
  }
  if (c.control.status !== 200) return [untested(req, c.probe, `a POST with ${how} got HTTP ${c.control.status}, so refusals prove nothing`)];
  const findings: Finding[] = [];
  if (typeof c.controlUpstream === 'number' && c.controlUpstream === 0) {
    findings.push(finding(req, 'valid-token-not-forwarded', 'upstream', `a POST with ${how} was answered 200 but never reached the upstream`, 1, 0));
  }
  const skipped: string[] = [];
  let judged = 0;
  for (const a of c.attempts) {
    const problem = noStreamReason(a.exchange);
    if (problem !== undefined) { skipped.push(`${a.label}: ${problem}`); continue; }
    judged++;
    const status = a.exchange.status;
    if (status !== 403) {
      const accepted = status !== undefined && status >= 200 && status <= 299;
      findings.push(finding(req, accepted ? 'csrf-not-checked' : 'wrong-refusal-status', a.path, accepted ? `the gateway accepted a POST with ${a.label} (HTTP ${status})` : `a POST with ${a.label} got HTTP ${status}, not 403`, 403, status));
    }
    if (typeof a.upstreamRequests === 'number' && a.upstreamRequests > 0) {
      findings.push(finding(req, 'forwarded-without-valid-token', 'upstream', `a POST with ${a.label} reached the upstream (${a.upstreamRequests} run request${a.upstreamRequests > 1 ? 's' : ''})${status === 403 ? ' before the gateway refused it' : ''}: the token is checked before anything starts`, 0, a.upstreamRequests));
    }
  }
  if (findings.length === 0 && judged === 0) return [untested(req, c.probe, skipped.join('; '))];
  return [judge(req, c.probe, findings)];
}
