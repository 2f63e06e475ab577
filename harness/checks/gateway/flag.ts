/**
 * GW-FLAG-001: seed 004 § Feature Flag Requirement, "**Default:** `false` (safe rollout)",
 * "**When Disabled:** Returns `501 Not Implemented`", and § Feature Flag Disabled, the body:
 * `{"detail": "ADK canonical streaming not enabled. Set ENABLE_ADK_CANONICAL_STREAM=true to use this endpoint."}`.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { finding, judge, noStreamReason, untested, type Exchange } from './types.ts';

export const flagDisabledDetail = 'ADK canonical streaming not enabled. Set ENABLE_ADK_CANONICAL_STREAM=true to use this endpoint.';

/** A valid, authenticated POST /run_sse to a gateway started without ENABLE_ADK_CANONICAL_STREAM=true. */
export function checkFlagOff(probe: string, exchange: Exchange): CheckOutcome[] {
  const req = 'GW-FLAG-001';
  const noAnswer = noStreamReason(exchange);
  if (noAnswer !== undefined) return [untested(req, probe, noAnswer)];
  const findings: Finding[] = [];
  if (exchange.status !== 501) {
    findings.push(finding(req, 'flag-ignored', 'status', `without ENABLE_ADK_CANONICAL_STREAM=true the gateway answered HTTP ${exchange.status}; the seed's default is off and the endpoint answers 501`, 501, exchange.status));
  }
  const text = Buffer.from(exchange.body).toString('utf8');
  let detail: unknown;
  try {
    detail = (JSON.parse(text) as { detail?: unknown } | null)?.detail;
  } catch {
    detail = undefined;
  }
  if (detail !== flagDisabledDetail) {
    findings.push(finding(req, 'flag-detail-wrong', 'body/detail', 'the 501 body is not the seed\'s {"detail": ...} with its exact text', flagDisabledDetail, detail ?? text.slice(0, 200)));
  }
  return [judge(req, probe, findings)];
}
