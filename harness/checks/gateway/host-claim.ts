/**
 * GW-HOST-001: seed 004 § CSRF Protection, "**Validation:** Server-side check in middleware" and
 * "**Local Dev:** CSRF validation skipped for `localhost`". The skip is for a developer's own
 * machine; the Host header says nothing about that: any client writes it, and a reverse proxy in
 * front of the gateway (`proxy_pass http://localhost:8000`) presents `localhost` on every request
 * it passes, so a skip keyed on it (`request.url.hostname == "localhost"`) turns CSRF off for
 * everyone. On an instance with the skip on (CSRF_SKIP_LOCALHOST=true), the harness sends the same
 * POST without a valid token twice, from 127.0.0.1: with the gateway's own Host and with `Host:
 * localhost:<port>`. The peer is local both times, so a skip decided by the peer serves both and a
 * gateway without a skip refuses both; only a decision made by the Host header tells them apart.
 * The localhost request being served, or reaching the upstream, where the other was not, fails;
 * the other way round (a Host allow-list refusing it) is not a CSRF skip and passes. A control
 * request with a valid token must be served first: two refusals for another reason (a token the
 * instance does not take) would prove nothing.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { finding, judge, noStreamReason, untested, type Exchange } from './types.ts';

export type HostClaimAttempt = { exchange: Exchange; upstreamRequests: number | { error: string } };
export type HostClaimCase = { label: string; plain: HostClaimAttempt; claimed: HostClaimAttempt };

const served = (x: Exchange) => x.status !== undefined && x.status >= 200 && x.status <= 299;

export function checkHostClaim(probe: string, control: Exchange, cases: HostClaimCase[]): CheckOutcome {
  const req = 'GW-HOST-001';
  const controlProblem = noStreamReason(control);
  if (controlProblem !== undefined) return untested(req, probe, `control request with a valid CSRF token: ${controlProblem}`);
  if (!served(control)) return untested(req, probe, `a POST with a valid CSRF token got HTTP ${control.status} on the CSRF_SKIP_LOCALHOST=true instance, so what the Host header changes proves nothing`);
  const findings: Finding[] = [];
  const skipped: string[] = [];
  let judged = 0;
  for (const [i, c] of cases.entries()) {
    const problem = ([['with its own Host', c.plain], ['with Host: localhost', c.claimed]] as const)
      .map(([which, a]) => {
        const noStream = noStreamReason(a.exchange);
        if (noStream !== undefined) return `${c.label} ${which}: ${noStream}`;
        return typeof a.upstreamRequests === 'object' ? `the mock's journal could not be read: ${a.upstreamRequests.error}` : undefined;
      })
      .find((p) => p !== undefined);
    if (problem !== undefined) { skipped.push(problem); continue; }
    judged++;
    const plain = c.plain.exchange.status;
    const claimed = c.claimed.exchange.status;
    if (served(c.claimed.exchange) && !served(c.plain.exchange)) {
      findings.push(finding(req, 'host-claim-skips-csrf', `case[${i}]/status`, `${c.label} got HTTP ${claimed} with Host: localhost and HTTP ${plain} with the gateway's own Host, from the same 127.0.0.1 peer: the localhost skip trusts a Host header that any client or reverse proxy writes`, plain, claimed));
    }
    const up = (a: HostClaimAttempt) => (typeof a.upstreamRequests === 'number' ? a.upstreamRequests : 0);
    if (up(c.claimed) > 0 && up(c.plain) === 0) {
      findings.push(finding(req, 'host-claim-forwarded', `case[${i}]/upstream`, `${c.label} reached the upstream only when its Host header said localhost`, 0, up(c.claimed)));
    }
  }
  if (judged === 0) return untested(req, probe, skipped.join('; ') || 'no request was sent');
  return judge(req, probe, findings);
}
