/**
 * AUD-TRAIL-002: "SSE stream includes `_audit_metadata` for events with `invocationId`" (seed 000
 * §7), and what it includes is the audit trail recorded for that event's invocation (§2.2B), since
 * the invocation was last cleared at an event ADK or seed 000 §8 names final (expected-trail.ts).
 * Compared frame by frame with the harness's model; where each trail starts is kept for
 * AUD-CLEAR-001 (clearing.ts), which judges only trails this check accepted.
 */
import { isDeepStrictEqual } from 'node:util';
import type { CheckOutcome, Finding } from '../../model.ts';
import { outcomeOf } from '../normalizer/outcome.ts';
import { invocationOf, kitTrail, type ExpectedTrail } from './expected-trail.ts';

const requirement = 'AUD-TRAIL-002';

/** Per frame: where the trail the event carries starts in its invocation's record, when AUD-TRAIL-002 accepted it. */
export type TrailStarts = Array<number | undefined>;

function summary(trail: unknown): unknown {
  return Array.isArray(trail) ? trail.map((e) => (typeof e === 'object' && e !== null ? `${String((e as Record<string, unknown>).event_type)}:${String((e as Record<string, unknown>).event_id ?? (e as Record<string, unknown>).correlation_id ?? '')}` : e)) : trail;
}

/**
 * The start of `actual` in `want.recorded` when it is a trail the seed or ADK allows: the events
 * recorded since a clear point no earlier than `floor` (a bridge cannot un-clear), in record order.
 */
function acceptedStart(want: ExpectedTrail, actual: unknown, floor: number): number | undefined {
  if (!Array.isArray(actual)) return undefined;
  const start = want.recorded.length - actual.length;
  if (start < floor) return undefined;
  if (start !== 0 && !want.clears.some((c) => c.at === start)) return undefined;
  return isDeepStrictEqual(actual, want.recorded.slice(start)) ? start : undefined;
}

/** `label` says which path produced the frames (the mock's enhanced route, the bridge under test). */
export function checkAuditTrail(scenario: string, label: string, frames: unknown[], expected: Array<ExpectedTrail | undefined>): { outcome: CheckOutcome; starts: TrailStarts } {
  const findings: Finding[] = [];
  const floors = new Map<string, number>();
  const starts: TrailStarts = expected.map((want, k) => {
    if (!want) return undefined;
    const frame = frames[k] as Record<string, unknown>;
    const kit = kitTrail(want);
    if (!('_audit_metadata' in frame)) {
      findings.push({ requirement, code: 'audit-metadata-missing', path: `frame[${k}]/_audit_metadata`, message: `${label}: event ${k} (invocation ${want.invocationId}) carries no _audit_metadata`, expected: summary(kit), actual: 'absent' });
      return undefined;
    }
    const actual = frame._audit_metadata;
    const start = acceptedStart(want, actual, floors.get(want.invocationId) ?? 0);
    if (start !== undefined) { floors.set(want.invocationId, start); return start; }
    const owners = Array.isArray(actual) ? [...new Set(actual.map((e) => (typeof e === 'object' && e !== null ? invocationOf(e as Record<string, unknown>) : undefined) ?? '(none)'))] : [];
    const cleared = want.clears.length > 0 ? ` (or, cleared after event ${want.clears.map((c) => `${c.frame}${c.final ? '' : ' (`partial: false`, seed 000 §8)'}`).join(' or ')}, the events recorded since)` : '';
    findings.push({
      requirement, code: 'audit-trail-mismatch', path: `frame[${k}]/_audit_metadata`,
      message: `${label}: event ${k} of invocation ${want.invocationId} carries ${Array.isArray(actual) ? `${actual.length} audit events${owners.length ? ` (of invocation ${owners.join(', ')})` : ''}` : JSON.stringify(actual)}, not the ${kit.length} recorded for its invocation so far${cleared}${Array.isArray(actual) ? howTrailsDiffer(kit, actual) : ''}`,
      expected: kit, actual,
    });
    return undefined;
  });
  if (!expected.some((e) => e !== undefined)) {
    return { outcome: { requirement, scenario, status: 'untested', findings: [], reason: `${label}: the stream has no event with an invocationId` }, starts };
  }
  return { outcome: outcomeOf(requirement, scenario, findings), starts };
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
