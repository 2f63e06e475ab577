/**
 * What a long-lived transformer must show (issue 30 §2), judged over runs of one instance: a
 * singleton in an app serves every turn of every session.
 *
 * - ABE-CORR-002, seed 002 §4.2 "The `correlation_id` must persist throughout an entire
 *   multi-agent thread.": the turns of one session (runs given the same session id) carry one
 *   correlation_id, and no turn of another session, run beside them, carries it. A transformer that takes each
 *   turn's invocationId keeps ABE-CORR-001 (one value per run) and breaks this.
 * - ABE-ISO-001: a run gives the same briefings whether it runs first, after 1,000 other runs or
 *   with 19 others open beside it in the same instance, compared as ABE-DET-001 compares a repeat
 *   (event ids, timestamps and correlation ids free); the order that shows a difference is shrunk
 *   to the smallest one (fast-check, harness/targets/isolation-orders.ts).
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { finding, judge, untested } from './outcome.ts';
import { runDifference } from './determinism.ts';
import type { TransformerRun } from './observation.ts';
import { describeRunInOrder, type Order } from '../run-order.ts';

export type Turn = { label: string; scenario: string; sessionId: string; run: TransformerRun };

export type TurnsObservation = {
  /** Sessions (threads), each two or more turns in order; the threads' turns ran interleaved. */
  threads: Turn[][];
};

export type IsolationCase = {
  /** The run that differs (the order's target, or one open beside it). */
  scenario: string;
  /** The run alone, first in a fresh instance. */
  baseline: TransformerRun;
  /** Where the run ran: its order in a new long-lived instance. */
  order: Order;
  run: TransformerRun;
};

export type IsolationObservation = {
  /** How the instance was had: "one session process" or "one module instance". */
  instance: string;
  seed: number;
  /** Orders tried (fast-check runs, shrinking included). */
  tried: number;
  /** Runs given to the instances before their targets, all orders together. */
  runs?: number;
  /** The smallest case that differs, if any, and how far fast-check shrank it. */
  counterexample?: IsolationCase;
  shrinks?: number;
  /** A case that ran and matched (the last one), for the report. */
  passedExample?: IsolationCase;
  /** Why nothing could be compared (a run timed out or emitted nothing). */
  unobserved?: string;
};

const corrOf = (run: TransformerRun): unknown => run.events[0]?.value.correlation_id;

/** Why a run did not end as runs end (undefined: it did): it overran its bound, could not start, threw, or its process was ended. */
export function cutShort(r: TransformerRun): string | undefined {
  if (r.exit.timedOut) return 'overran its bound';
  if (r.exit.spawnError !== undefined) return `could not start (${r.exit.spawnError})`;
  if (r.exit.threw !== undefined) return `threw (${r.exit.threw.slice(0, 200)})`;
  if (r.exit.signal !== null && r.exit.signal !== undefined) return `was ended by ${r.exit.signal}`;
  return undefined;
}

export function checkSessionCorrelation(obs: TurnsObservation, probe: string): CheckOutcome[] {
  const id = 'ABE-CORR-002';
  const all = obs.threads.flat();
  const silent = all.find((t) => t.run.events.length === 0);
  if (silent) {
    const exit = silent.run.exit;
    const why = cutShort(silent.run) ?? (exit.exitCode ? `exited with code ${exit.exitCode}` : undefined);
    return [untested(id, probe, `the ${silent.label} (${silent.scenario}) emitted no briefing${why ? ` (it ${why})` : ''}, so its correlation_id could not be read${exit.stderr.trim() ? `; stderr: ${exit.stderr.trim().split('\n').slice(-2).join(' | ').slice(-300)}` : ''}`)];
  }
  // A run with several correlation_ids is ABE-CORR-001's finding; across turns there is then no one value to compare.
  const split = all.find((t) => new Set(t.run.events.map((e) => e.value.correlation_id)).size > 1);
  if (split) return [untested(id, probe, `the ${split.label} (${split.scenario}) carries several correlation_ids within the run (ABE-CORR-001), so no one value per turn could be compared`)];
  const findings: Finding[] = [];
  const owner = new Map<unknown, Turn>();
  for (const thread of obs.threads) {
    const first = thread[0] as Turn;
    const want = corrOf(first.run);
    for (const t of thread.slice(1)) {
      const got = corrOf(t.run);
      if (got !== want) {
        findings.push(finding(id, 'correlation-changed-across-turns', `${t.label}.event[0].correlation_id`,
          `the ${t.label} of session ${t.sessionId} (${t.scenario}) carries another correlation_id than its ${first.label} (${first.scenario}): seed 002 §4.2 asks one correlation_id for the whole thread (a transformer that correlates by invocationId changes it every turn; one that means to says so in its profile, capabilities {"session-correlation": false})`,
          want, got));
      }
    }
    // Nothing of one session leaks into another: no turn of this thread carries another thread's value.
    for (const t of thread) {
      const got = corrOf(t.run);
      const other = owner.get(got);
      if (other && other.sessionId !== t.sessionId) {
        findings.push(finding(id, 'correlation-shared-across-sessions', `${t.label}.event[0].correlation_id`,
          `the ${t.label} of session ${t.sessionId} (${t.scenario}) carries the correlation_id of session ${other.sessionId} (its ${other.label}, ${other.scenario}), whose turns ran beside it in the same instance: one session's thread leaks into another's`,
          `a correlation_id other than ${JSON.stringify(got)}`, got));
      }
      if (!owner.has(got)) owner.set(got, t);
    }
  }
  return [judge(id, probe, findings)];
}

export function describeCase(c: IsolationCase): string {
  return describeRunInOrder(c.scenario, c.order);
}

export function checkIsolation(obs: IsolationObservation, probe: string, replay: string): CheckOutcome[] {
  const id = 'ABE-ISO-001';
  if (obs.unobserved) return [untested(id, probe, obs.unobserved)];
  if (obs.tried === 0) return [untested(id, probe, 'no order was run (the probe ran out of time before its first)')];
  const c = obs.counterexample;
  if (!c) return [judge(id, probe, [])];
  const d = runDifference(c.baseline, c.run);
  const where = d ? d.path : 'output';
  return [judge(id, probe, [finding(id, 'run-depends-on-history', where,
    `${describeCase(c)} (${obs.instance}) gives other briefings than the same frames first in a fresh instance, at ${where}: state of earlier or concurrent runs leaks into this one (the smallest order fast-check found${obs.shrinks ? `, shrunk in ${obs.shrinks} step(s)` : ''}, seed ${obs.seed}; replay: ${replay})`,
    d ? d.a : '(the baseline briefings)', d ? d.b : '(other briefings)')])];
}
