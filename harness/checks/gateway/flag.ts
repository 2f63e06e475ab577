/**
 * GW-FLAG-001: seed 004 § Feature Flag Requirement, "**Default:** `false` (safe rollout)",
 * "**When Disabled:** Returns `501 Not Implemented`", and § Feature Flag Disabled, the body:
 * `{"detail": "ADK canonical streaming not enabled. Set ENABLE_ADK_CANONICAL_STREAM=true to use this endpoint."}`.
 *
 * The flag guards the endpoint, so it comes before anything the endpoint does with the body: a
 * gateway that validates first (a FastAPI route whose flag check sits in the handler, after the
 * RunAgentRequest model parsed the body) answers an invalid body with 422 while it is switched off.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { finding, judge, noStreamReason, untested, type Exchange } from './types.ts';

export const flagDisabledDetail = 'ADK canonical streaming not enabled. Set ENABLE_ADK_CANONICAL_STREAM=true to use this endpoint.';

/** One POST /run_sse to a gateway started without ENABLE_ADK_CANONICAL_STREAM=true; `label` says what was sent. */
export type FlagAttempt = { label: string; exchange: Exchange };

function attemptFindings(req: string, a: FlagAttempt, prefix: string): Finding[] {
  const findings: Finding[] = [];
  const { exchange } = a;
  if (exchange.status !== 501) {
    findings.push(finding(req, 'flag-ignored', `${prefix}status`, `without ENABLE_ADK_CANONICAL_STREAM=true the gateway answered ${a.label} with HTTP ${exchange.status}; the seed's default is off and the endpoint answers 501, whatever the body`, 501, exchange.status));
  }
  const text = Buffer.from(exchange.body).toString('utf8');
  let detail: unknown;
  try {
    detail = (JSON.parse(text) as { detail?: unknown } | null)?.detail;
  } catch {
    detail = undefined;
  }
  if (detail !== flagDisabledDetail) {
    findings.push(finding(req, 'flag-detail-wrong', `${prefix}body/detail`, `the answer to ${a.label} is not the seed's 501 {"detail": ...} with its exact text`, flagDisabledDetail, detail ?? text.slice(0, 200)));
  }
  return findings;
}

/** The first attempt is a valid, authenticated request; the others carry one thing wrong. */
export function checkFlagOff(probe: string, attempts: [FlagAttempt, ...FlagAttempt[]]): CheckOutcome[] {
  const req = 'GW-FLAG-001';
  const noAnswer = noStreamReason(attempts[0].exchange);
  if (noAnswer !== undefined) return [untested(req, probe, noAnswer)];
  const findings: Finding[] = [];
  for (const [i, a] of attempts.entries()) {
    const unanswered = noStreamReason(a.exchange);
    if (unanswered !== undefined) {
      findings.push(finding(req, 'no-response', `attempt[${i}]/status`, `the gateway gave no answer to ${a.label}: ${unanswered}`, 501, null));
      continue;
    }
    findings.push(...attemptFindings(req, a, i === 0 ? '' : `attempt[${i}]/`));
  }
  return [judge(req, probe, findings)];
}
