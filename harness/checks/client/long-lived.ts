/**
 * CLI-ISO-001 (issue 30 §2): a client object reused for every turn, as apps keep one, reports the
 * same records for a stream whatever it read before or reads beside it. WHATWG ties the parser's
 * buffers to the stream ("When a stream is parsed, a data buffer, an event type buffer, and a last
 * event ID buffer must be associated with it. They must be initialized to the empty string."); a
 * decoder or line buffer kept on the client object instead carries a stream that ended mid-line or
 * inside a UTF-8 sequence into the next one's first event. The records of a run are compared with
 * the same bytes read first by a fresh instance, in orders of up to 1,000 prior streams and 20 open
 * at once; fast-check shrinks a difference to the smallest order (harness/targets/isolation-orders.ts).
 */
import type { CheckOutcome } from '../../model.ts';
import { finding, judge, untested } from '../transformer/outcome.ts';
import type { ReportedRecord } from './index.ts';
import { describeRunInOrder, type Order } from '../run-order.ts';

export const clientIsolationId = 'CLI-ISO-001';

export type ClientIsolationCase = {
  /** The byte case read (the order's target, or one open beside it). */
  stream: string;
  /** Its records, read first by a fresh instance. */
  baseline: ReportedRecord[];
  /** Where it was read: its order in a new long-lived instance. */
  order: Order;
  records: ReportedRecord[];
};

export type ClientIsolationObservation = {
  /** "one session process" or "one client object". */
  instance: string;
  seed: number;
  tried: number;
  /** Streams read by the instances before their targets, all orders together. */
  runs?: number;
  counterexample?: ClientIsolationCase;
  shrinks?: number;
  passedExample?: ClientIsolationCase;
  unobserved?: string;
};

const show = (v: unknown): string => { const s = JSON.stringify(v) ?? String(v); return s.length > 200 ? `${s.slice(0, 199)}…` : s; };

/** The first record where two runs differ (by value, in order), or undefined when they agree. */
export function recordsDifference(a: readonly ReportedRecord[], b: readonly ReportedRecord[]): { index: number; a: unknown; b: unknown } | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i]?.value;
    const y = b[i]?.value;
    if (show(x) !== show(y) || JSON.stringify(x) !== JSON.stringify(y)) return { index: i, a: x ?? '(no record)', b: y ?? '(no record)' };
  }
  return undefined;
}

export function describeClientCase(c: ClientIsolationCase): string {
  return describeRunInOrder(c.stream, c.order, 'byte case');
}

export function checkClientIsolation(obs: ClientIsolationObservation, probe: string, replay: string): CheckOutcome[] {
  const id = clientIsolationId;
  if (obs.unobserved) return [untested(id, probe, obs.unobserved)];
  if (obs.tried === 0) return [untested(id, probe, 'no order was run (the probe ran out of time before its first)')];
  const c = obs.counterexample;
  if (!c) return [judge(id, probe, [])];
  const d = recordsDifference(c.baseline, c.records);
  const where = d ? `record[${d.index}]` : 'records';
  return [judge(id, probe, [finding(id, 'run-depends-on-history', where,
    `${describeClientCase(c)} (${obs.instance}) reports other records than the same bytes read first by a fresh instance, at ${where}: state of an earlier or concurrent stream (a decoder, a line buffer, an unfinished event kept on the client) leaks into this one (the smallest order fast-check found${obs.shrinks ? `, shrunk in ${obs.shrinks} step(s)` : ''}, seed ${obs.seed}; replay: ${replay})`,
    d ? d.a : '(the baseline records)', d ? d.b : '(other records)')])];
}
