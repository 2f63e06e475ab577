/**
 * AUD-ORDER-001 (SHOULD): a trail keeps its audit events in the order they were recorded, not
 * sorted by timestamp. The seeds fix no order (AUD-TRAIL-003 accepts both); the kit recommends
 * record order because each agent (or a remote tool) stamps its events with its own clock, so a
 * sort can put an event before the one that caused it, and seed 000 §7 asks for the "Full decision
 * chain reconstructable from audit trail".
 *
 * Judged on the trails AUD-TRAIL-003 accepted, and exercised only where record order and timestamp
 * order differ: an event recorded later carries an earlier timestamp.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { outcomeOf } from '../normalizer/outcome.ts';
import type { ExpectedTrail } from './expected-trail.ts';
import { timestampOrdered, type TrailJudgement } from './trail.ts';

const requirement = 'AUD-ORDER-001';

export function checkTrailOrder(scenario: string, label: string, frames: unknown[], expected: Array<ExpectedTrail | undefined>, judged: TrailJudgement): CheckOutcome {
  const findings: Finding[] = [];
  let exercised = false;
  expected.forEach((want, k) => {
    const start = judged.starts[k];
    if (!want || start === undefined) return;
    const slice = want.recorded.slice(start);
    if (timestampOrdered(slice)) return;
    exercised = true;
    if (judged.orders[k] !== 'timestamp') return;
    const ids = (list: unknown[]) => list.map((e) => String((e as Record<string, unknown>).event_id ?? '?'));
    findings.push({
      requirement, code: 'trail-sorted-by-timestamp', path: `frame[${k}]/_audit_metadata`,
      message: `${label}: event ${k} of invocation ${want.invocationId} carries its audit events sorted by timestamp, not in the order they were recorded: an event recorded later with an earlier timestamp (another agent's clock) moved ahead of the events recorded before it`,
      expected: ids(slice), actual: ids((frames[k] as { _audit_metadata: unknown[] })._audit_metadata),
    });
  });
  if (!exercised) return { requirement, scenario, status: 'untested', findings: [], reason: `${label}: no accepted trail held an event recorded after one with a later timestamp` };
  return outcomeOf(requirement, scenario, findings);
}
