/**
 * AUD-KEY-001 (MUST): an audit event that names its `invocation_id` is filed under it, whatever its
 * `correlation_id` says. Seed 000 §2.2A's bridge "Buffers audit events by invocationId for SSE
 * injection" and the endpoint looks each trail up by the ADK event's invocationId (§2.2B), while
 * seed 002's `correlation_id` "must persist throughout an entire multi-agent thread": a session or
 * thread id that spans several invocations. A bridge filing under `correlation_id` first gives
 * each event no trail, or the thread's.
 *
 * Judged on the frames AUD-TRAIL-003 handed over (trail.ts `keyedByCorrelation`: their trail is
 * exactly what the model keyed by correlation_id first predicts), and exercised only where the two
 * models differ on a frame: a recorded event's invocation_id and correlation_id name different ids.
 */
import { isDeepStrictEqual } from 'node:util';
import type { CheckOutcome, Finding } from '../../model.ts';
import { outcomeOf } from '../normalizer/outcome.ts';
import { kitTrail, type ExpectedTrail } from './expected-trail.ts';
import type { TrailJudgement } from './trail.ts';

const requirement = 'AUD-KEY-001';

export function checkTrailKey(scenario: string, label: string, expected: Array<ExpectedTrail | undefined>, keyed: Array<ExpectedTrail | undefined>, judged: TrailJudgement): CheckOutcome {
  const differs = (k: number) => {
    const want = expected[k];
    const alt = keyed[k];
    return want !== undefined && alt !== undefined && !isDeepStrictEqual(want.recorded, alt.recorded);
  };
  const findings: Finding[] = judged.keyedByCorrelation.map((k) => {
    const want = expected[k]!;
    const kit = kitTrail(want);
    const other = want.recorded.find((e) => typeof e.correlation_id === 'string' && e.correlation_id !== want.invocationId)?.correlation_id;
    return {
      requirement, code: 'trail-keyed-by-correlation-id', path: `frame[${k}]/_audit_metadata`,
      message: `${label}: event ${k} of invocation ${want.invocationId} carries the trail a bridge filing audit events under correlation_id would give, not the ${kit.length} audit events whose invocation_id is ${want.invocationId}${other === undefined ? '' : ` (their correlation_id is ${String(other)}, the session's thread)`}; seed 000 §2.2A's bridge buffers by invocationId`,
      expected: kit.length, actual: keyed[k] ? kitTrail(keyed[k]!).length : 0,
    };
  });
  const exercised = expected.some((_, k) => differs(k) && judged.starts[k] !== undefined);
  if (findings.length === 0 && !exercised) {
    const any = expected.some((_, k) => differs(k));
    return { requirement, scenario, status: 'untested', findings: [], reason: any ? `${label}: the trails where invocation_id and correlation_id disagree were refused by AUD-TRAIL-003 for another reason` : `${label}: no audit event named an invocation_id different from its correlation_id` };
  }
  return outcomeOf(requirement, scenario, findings);
}
