/**
 * Refusal probes share one shape: a control request that must be accepted (otherwise a refusal
 * proves nothing: a gateway that refuses everything would pass), then attempts that must each be
 * refused with one status. Used by the auth (401) and CSRF (403) checks.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { finding, judge, noStreamReason, untested, type Exchange } from './types.ts';

export type RefusalAttempt = {
  requirement: string;
  /** What was wrong with the request, as said in findings ("an expired token"). */
  label: string;
  /** Where the fault is, for the finding path (`header:authorization`). */
  path: string;
  exchange: Exchange;
};

export type RefusalCase = {
  probe: string;
  /** The same request done right. */
  control: Exchange;
  attempts: RefusalAttempt[];
  expectedStatus: number;
  /** Finding code when an attempt is accepted, e.g. `accepted-invalid-token`. */
  acceptedCode: string;
  /** Said in messages: "a valid token", "a matching CSRF token". */
  controlLabel: string;
};

export function checkRefusals(c: RefusalCase): CheckOutcome[] {
  const requirements = [...new Set(c.attempts.map((a) => a.requirement))];
  const controlProblem = noStreamReason(c.control) ?? (c.control.status !== 200 ? `a request with ${c.controlLabel} was refused (HTTP ${c.control.status}), so refusals prove nothing` : undefined);
  if (controlProblem !== undefined) return requirements.map((r) => untested(r, c.probe, `control request: ${controlProblem}`));
  return requirements.map((requirement) => {
    const findings: Finding[] = [];
    const skipped: string[] = [];
    let judged = 0;
    for (const a of c.attempts.filter((x) => x.requirement === requirement)) {
      const problem = noStreamReason(a.exchange);
      if (problem !== undefined) { skipped.push(`${a.label}: ${problem}`); continue; }
      judged++;
      const status = a.exchange.status;
      if (status === c.expectedStatus) continue;
      const accepted = status !== undefined && status >= 200 && status <= 299;
      findings.push(finding(requirement, accepted ? c.acceptedCode : 'wrong-refusal-status', a.path, accepted ? `the gateway accepted a request with ${a.label} (HTTP ${status})` : `a request with ${a.label} got HTTP ${status}, not ${c.expectedStatus}`, c.expectedStatus, status));
    }
    if (findings.length === 0 && judged === 0) return untested(requirement, c.probe, skipped.join('; '));
    return judge(requirement, c.probe, findings);
  });
}
