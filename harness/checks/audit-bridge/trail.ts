/**
 * AUD-TRAIL-003: "SSE stream includes `_audit_metadata` for events with `invocationId`" (seed 000
 * §7), and what it includes is the audit trail recorded for that event's invocation (§2.2B), since
 * the invocation was last cleared at an event ADK or seed 000 §8 names final (expected-trail.ts),
 * in record order or sorted by timestamp (the seeds fix no order; AUD-ORDER-001 judges it).
 * Compared frame by frame with the harness's model; where each trail starts and in which order it
 * came are kept for AUD-CLEAR-001 (clearing.ts) and AUD-ORDER-001 (order.ts), which judge only
 * trails this check accepted. A trail the model keyed by `correlation_id` first explains is not
 * this check's finding but AUD-KEY-001's (key.ts): the frames are handed over in `keyedByCorrelation`.
 */
import { isDeepStrictEqual } from 'node:util';
import type { CheckOutcome, Finding } from '../../model.ts';
import { outcomeOf } from '../normalizer/outcome.ts';
import { invocationOf, kitTrail, type ExpectedTrail } from './expected-trail.ts';

const requirement = 'AUD-TRAIL-003';

/** Per frame: where the trail the event carries starts in its invocation's record, when AUD-TRAIL-003 accepted it. */
export type TrailStarts = Array<number | undefined>;

/** The order an accepted trail came in: the order of the records, or sorted by the events' timestamps. */
export type TrailOrder = 'record' | 'timestamp';

export type TrailJudgement = {
  outcome: CheckOutcome;
  starts: TrailStarts;
  /** Per frame, for the trails accepted (where `starts` is defined). */
  orders: Array<TrailOrder | undefined>;
  /** Frames whose trail only the model keyed by correlation_id first explains (AUD-KEY-001's findings). */
  keyedByCorrelation: number[];
};

/** The event's timestamp in ms, when it has one Date.parse reads. */
export function timeOf(entry: unknown): number | undefined {
  const t = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).timestamp : undefined;
  const ms = typeof t === 'string' ? Date.parse(t) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

/** Every entry timed, in non-decreasing time: a trail sorted by timestamp (ties in any order). */
export function timestampOrdered(trail: readonly unknown[]): boolean {
  const times = trail.map(timeOf);
  return times.every((t, i) => t !== undefined && (i === 0 || t >= times[i - 1]!));
}

/** The same entries, each as many times, in any order. */
function sameEntries(want: readonly unknown[], got: readonly unknown[]): boolean {
  if (want.length !== got.length) return false;
  const unused = [...got];
  return want.every((w) => { const i = unused.findIndex((g) => isDeepStrictEqual(g, w)); if (i < 0) return false; unused.splice(i, 1); return true; });
}

function summary(trail: unknown): unknown {
  return Array.isArray(trail) ? trail.map((e) => (typeof e === 'object' && e !== null ? `${String((e as Record<string, unknown>).event_type)}:${String((e as Record<string, unknown>).event_id ?? (e as Record<string, unknown>).correlation_id ?? '')}` : e)) : trail;
}

/**
 * The start of `actual` in `want.recorded` when it is a trail the seed or ADK allows: the events
 * recorded since a clear point no earlier than `floor` (a bridge cannot un-clear), in record order
 * or sorted by timestamp.
 */
function acceptedMatch(want: ExpectedTrail, actual: unknown, floor: number): { start: number; order: TrailOrder } | undefined {
  if (!Array.isArray(actual)) return undefined;
  const start = want.recorded.length - actual.length;
  if (start < floor) return undefined;
  if (start !== 0 && !want.clears.some((c) => c.at === start)) return undefined;
  const slice = want.recorded.slice(start);
  if (isDeepStrictEqual(actual, slice)) return { start, order: 'record' };
  return timestampOrdered(actual) && sameEntries(slice, actual) ? { start, order: 'timestamp' } : undefined;
}

/**
 * `label` says which path produced the frames (the mock's enhanced route, the bridge under test);
 * `keyed`, the same model keyed by correlation_id first (expected-trail.ts `byCorrelation`).
 */
export function checkAuditTrail(scenario: string, label: string, frames: unknown[], expected: Array<ExpectedTrail | undefined>, keyed?: Array<ExpectedTrail | undefined>): TrailJudgement {
  const findings: Finding[] = [];
  const floors = new Map<string, number>();
  const keyedFloors = new Map<string, number>();
  const orders: Array<TrailOrder | undefined> = [];
  const keyedByCorrelation: number[] = [];
  const starts: TrailStarts = expected.map((want, k) => {
    if (!want) return undefined;
    const frame = frames[k] as Record<string, unknown>;
    const kit = kitTrail(want);
    if (!('_audit_metadata' in frame)) {
      findings.push({ requirement, code: 'audit-metadata-missing', path: `frame[${k}]/_audit_metadata`, message: `${label}: event ${k} (invocation ${want.invocationId}) carries no _audit_metadata`, expected: summary(kit), actual: 'absent' });
      return undefined;
    }
    const actual = frame._audit_metadata;
    const match = acceptedMatch(want, actual, floors.get(want.invocationId) ?? 0);
    if (match !== undefined) { floors.set(want.invocationId, match.start); orders[k] = match.order; return match.start; }
    const alt = keyed?.[k];
    const byKey = alt && acceptedMatch(alt, actual, keyedFloors.get(alt.invocationId) ?? 0);
    if (byKey) { keyedFloors.set(alt.invocationId, byKey.start); keyedByCorrelation.push(k); return undefined; }
    const owners = Array.isArray(actual) ? [...new Set(actual.map((e) => (typeof e === 'object' && e !== null ? invocationOf(e as Record<string, unknown>) : undefined) ?? '(none)'))] : [];
    const cleared = want.clears.length > 0 ? ` (or, cleared after event ${want.clears.map((c) => `${c.frame}${c.final ? '' : ' (`partial: false`, seed 000 §8)'}`).join(' or ')}, the events recorded since)` : '';
    findings.push({
      requirement, code: 'audit-trail-mismatch', path: `frame[${k}]/_audit_metadata`,
      message: `${label}: event ${k} of invocation ${want.invocationId} carries ${Array.isArray(actual) ? `${actual.length} audit events${owners.length ? ` (of invocation ${owners.join(', ')})` : ''}` : JSON.stringify(actual)}, not the ${kit.length} recorded for its invocation so far (in record order or by timestamp)${cleared}${Array.isArray(actual) ? howTrailsDiffer(kit, actual) : ''}`,
      expected: kit, actual,
    });
    return undefined;
  });
  if (!expected.some((e) => e !== undefined)) {
    return { outcome: { requirement, scenario, status: 'untested', findings: [], reason: `${label}: the stream has no event with an invocationId` }, starts, orders, keyedByCorrelation };
  }
  return { outcome: outcomeOf(requirement, scenario, findings), starts, orders, keyedByCorrelation };
}

/**
 * What a team needs to fix when the count alone does not say it: the same entries in another
 * order, or the first entry that differs and the fields that differ in it.
 */
function howTrailsDiffer(want: readonly unknown[], got: readonly unknown[]): string {
  if (sameEntries(want, got)) return ': the same entries in another order, neither record order nor sorted by timestamp';
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
