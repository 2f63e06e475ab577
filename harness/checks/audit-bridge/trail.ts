/**
 * AUD-TRAIL-001: "SSE stream includes `_audit_metadata` for events with `invocationId`" (seed 000
 * §7), and what it includes is the audit trail recorded so far for that event's invocation
 * (§2.2B). Compared frame by frame with the harness's model (expected-trail.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import type { CheckOutcome, Finding } from '../../model.ts';
import { outcomeOf } from '../normalizer/outcome.ts';
import { invocationOf, type ExpectedTrail } from './expected-trail.ts';

const requirement = 'AUD-TRAIL-001';

function summary(trail: unknown): unknown {
  return Array.isArray(trail) ? trail.map((e) => (typeof e === 'object' && e !== null ? `${String((e as Record<string, unknown>).event_type)}:${String((e as Record<string, unknown>).event_id ?? (e as Record<string, unknown>).correlation_id ?? '')}` : e)) : trail;
}

/** `label` says which path produced the frames (the mock's enhanced route, the bridge in process). */
export function checkAuditTrail(scenario: string, label: string, frames: unknown[], expected: Array<ExpectedTrail | undefined>): CheckOutcome {
  const findings: Finding[] = [];
  expected.forEach((want, k) => {
    if (!want) return;
    const frame = frames[k] as Record<string, unknown>;
    if (!('_audit_metadata' in frame)) {
      findings.push({ requirement, code: 'audit-metadata-missing', path: `frame[${k}]/_audit_metadata`, message: `${label}: event ${k} (invocation ${want.invocationId}) carries no _audit_metadata`, expected: summary(want.trail), actual: 'absent' });
      return;
    }
    const actual = frame._audit_metadata;
    if (!isDeepStrictEqual(actual, want.trail)) {
      const owners = Array.isArray(actual) ? [...new Set(actual.map((e) => (typeof e === 'object' && e !== null ? invocationOf(e as Record<string, unknown>) : undefined) ?? '(none)'))] : [];
      findings.push({
        requirement, code: 'audit-trail-mismatch', path: `frame[${k}]/_audit_metadata`,
        message: `${label}: event ${k} of invocation ${want.invocationId} carries ${Array.isArray(actual) ? `${actual.length} audit events${owners.length ? ` (of invocation ${owners.join(', ')})` : ''}` : JSON.stringify(actual)}${Array.isArray(actual) && actual.length === want.trail.length ? `, as many as recorded for its invocation so far, but not the same${howTrailsDiffer(want.trail, actual)}` : `, not the ${want.trail.length} recorded for its invocation so far${Array.isArray(actual) ? howTrailsDiffer(want.trail, actual) : ''}`}`,
        expected: want.trail, actual,
      });
    }
  });
  if (!expected.some((e) => e !== undefined)) {
    return { requirement, scenario, status: 'untested', findings: [], reason: `${label}: the stream has no event with an invocationId` };
  }
  return outcomeOf(requirement, scenario, findings);
}

/**
 * What a team needs to fix when the count alone does not say it: the same entries in another
 * order, or the first entry that differs and the fields that differ in it.
 */
function howTrailsDiffer(want: readonly unknown[], got: readonly unknown[]): string {
  if (want.length === got.length) {
    const unused = [...got];
    const sameEntries = want.every((w) => { const i = unused.findIndex((g) => isDeepStrictEqual(g, w)); if (i < 0) return false; unused.splice(i, 1); return true; });
    if (sameEntries) return ': the same entries in another order (recorded order is kept)';
  }
  const k = want.findIndex((w, i) => !isDeepStrictEqual(w, got[i]));
  if (k < 0) return `: the recorded ones, then ${got.length - want.length} more`;
  const w = want[k];
  const g = got[k];
  if (g === undefined) return `: entry ${k} onwards is missing`;
  const fields = w !== null && typeof w === 'object' && g !== null && typeof g === 'object'
    ? [...new Set([...Object.keys(w), ...Object.keys(g)])].filter((f) => !isDeepStrictEqual((w as Record<string, unknown>)[f], (g as Record<string, unknown>)[f]))
    : [];
  return `: entry ${k} differs${fields.length ? ` in ${fields.slice(0, 5).join(', ')}` : ''}`;
}
