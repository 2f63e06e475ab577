/**
 * Timing findings are confirmed alone before they are reported (issue 28 §3). A check that reads
 * the wall clock (an idle window, a bound, a latency) can fail because the machine was busy, not
 * because the implementation is wrong: a TypeScript transformer started through `npx tsx` on a
 * loaded CI runner failed 46 of 87 scenarios that it passed on a quiet machine. So the engine runs
 * such a failing job once more, holding the gate alone, and:
 * - the failure reproduces: it is reported as it was, with a timeline note that it was confirmed;
 * - the repeat passes the requirement: the outcome becomes `flaky` (its own status, counted against
 *   the verdict like untested, never silently passed), the first run's findings kept as evidence;
 * - the repeat could not judge it (errored, untested): the failure stands, and the note says so,
 *   because nothing refuted it.
 * Only timing-dependent outcomes are repeated: a schema violation does not depend on the clock.
 *
 * A job that overran its bound (the scenario's, which holds all of its runs and checks) observed nothing,
 * and on a loaded machine that can be the machine: the endless-output hostile transformer's two
 * scenarios, 16 MB of output each parsed and checked beside a third job, overran 8.3 s under four busy
 * processes on two cores and the verdict was "could not evaluate" where a quiet machine said
 * non-compliant. So it is repeated alone once, and the repeat is its result, with a note of the overrun;
 * once a repeat alone overruns too, the overruns are the implementation's and the rest are not repeated.
 */
import type { Scenario } from '../schemas/types.ts';
import type { CheckOutcome, Finding, Requirement, ScenarioResult } from './model.ts';
import type { ScenarioCheck } from './targets/types.ts';

/** Requirement tags whose checks read the wall clock (harness/requirements/*.ts). */
export const timingTags: readonly string[] = ['timeout', 'latency', 'missing-done', 'hold-open', 'idle', 'timing'];

/** Finding codes that name a wall-clock bound: `timed-out`, `hang`, `late-...`, `idle-...`. */
const timingCode = /(^|-)(time|timed|timeout|hang|hung|late|slow|idle|deadline|overrun)(-|$)/;

/** Whether a failed outcome may be the machine's doing rather than the implementation's. */
export function isTimingDependent(outcome: Pick<CheckOutcome, 'findings'>, requirement: Pick<Requirement, 'tags'> | undefined, scenario: Scenario | undefined, timingScenario: (s: Scenario) => boolean): boolean {
  if (scenario && timingScenario(scenario)) return true;
  if (requirement?.tags.some((t) => timingTags.includes(t))) return true;
  return outcome.findings.some((f: Finding) => f.timing === true || timingCode.test(f.code));
}

/** The requirement ids of a result whose failure should be confirmed alone. */
export function toConfirm(result: Pick<ScenarioResult, 'outcomes'>, byId: ReadonlyMap<string, Requirement>, scenario: Scenario | undefined, timingScenario: (s: Scenario) => boolean): string[] {
  return [...new Set(result.outcomes.filter((o) => o.status === 'failed' && isTimingDependent(o, byId.get(o.requirement), scenario, timingScenario)).map((o) => o.requirement))];
}

/**
 * The first result, its timing failures judged by the repeat (`ids`: those repeated). The scenario's
 * status follows its outcomes: failed while any outcome failed, else passed when something passed.
 */
export function reconcile(first: ScenarioResult, ids: readonly string[], repeat: ScenarioCheck | 'timeout' | Error, t: number): ScenarioResult {
  const again = new Map<string, CheckOutcome['status']>();
  if (repeat !== 'timeout' && !(repeat instanceof Error)) {
    for (const id of ids) {
      const statuses = repeat.outcomes.filter((o) => o.requirement === id).map((o) => o.status);
      // One failing case among a probe's several outcomes is a reproduction.
      again.set(id, statuses.includes('failed') ? 'failed' : statuses.includes('passed') ? 'passed' : 'untested');
    }
  }
  const why = repeat === 'timeout' ? 'the repeat did not finish in time' : repeat instanceof Error ? `the repeat failed: ${repeat.message}` : '';
  const notes: string[] = [];
  const outcomes = first.outcomes.map((o): CheckOutcome => {
    if (o.status !== 'failed' || !ids.includes(o.requirement)) return o;
    const verdict = again.get(o.requirement);
    if (verdict === 'failed') { notes.push(`${o.requirement}: failure confirmed when repeated alone`); return o; }
    if (verdict === 'passed') {
      notes.push(`${o.requirement}: failed, then passed when repeated alone: flaky`);
      return { ...o, status: 'flaky', reason: `failed in this scenario's first run (${o.findings[0]?.code ?? 'no finding'}${o.findings[0] ? `: ${o.findings[0].message}` : ''}), then passed when the run was repeated alone; a timing failure that does not reproduce is reported flaky, never passed` };
    }
    notes.push(`${o.requirement}: the repeat alone could not judge it (${why || 'untested'}), so the failure stands`);
    return o;
  });
  // A scenario with a flaky outcome did not pass cleanly: it stays listed as failed, its outcome says flaky.
  const status: ScenarioResult['status'] = outcomes.some((o) => o.status === 'failed' || o.status === 'flaky') ? 'failed' : first.status;
  return { ...first, status, outcomes, timeline: [...first.timeline, ...notes.map((summary) => ({ t, kind: 'note' as const, summary }))] };
}

/** What the console hears of a repeat alone: the requirements it confirmed and those that proved flaky; `overran`: an overrun's status alone. */
export type ConfirmProgress = { kind: 'confirm'; part: string; id: string; confirmed: string[]; flaky: string[]; overran?: ScenarioResult['status'] };

/** A job's run and its result, as the engine makes and reports them. */
type Repeated = { result: ScenarioCheck | 'timeout' | Error; durationMs: number };

/** What the pass needs of the engine: a part's committed results and how to run a job once more alone. */
export type ConfirmPass<J extends { id: string }> = {
  part: string;
  results: readonly ScenarioResult[];
  jobOf: (result: ScenarioResult) => J | undefined;
  /** Jobs that overran their bound beside the others. */
  overran: ReadonlySet<J>;
  /** Jobs that showed the implementation unusable (hung, crashed, flooded): not a load artefact worth a second wait. */
  fatal: ReadonlySet<J>;
  /** The requirements of a failed first result whose failure reads the clock (toConfirm). */
  timingFailures: (first: ScenarioResult, job: J) => string[];
  repeatAlone: (job: J) => Promise<Repeated>;
  /** A job's run as the report lists it; undefined when it exercised nothing the run selected. */
  resultOf: (job: J, repeated: Repeated) => ScenarioResult | undefined;
  cancelled: () => boolean;
  onProgress?: (p: ConfirmProgress) => void;
};

/**
 * The part's results after their repeats alone, in order: each overrun repeated once (until a repeat alone
 * overruns too), each timing failure confirmed or found flaky (until a requirement's has reproduced
 * `confirmBudget` times).
 */
export async function confirmAlone<J extends { id: string }>(pass: ConfirmPass<J>, confirmBudget: number): Promise<ScenarioResult[]> {
  const results = [...pass.results];
  /** Repeats that reproduced, per requirement: two show the defect is the implementation's. */
  const reproduced = new Map<string, string[]>();
  /** Set once a repeat alone overran too: the overruns are then the implementation's, and the rest stand unrepeated. */
  let overranAlone: string | undefined;
  for (const [index, first] of results.entries()) {
    const job = pass.jobOf(first);
    if (job && pass.overran.has(job)) {
      // An overrun beside the other runs may be the machine's load, like a timing failure: repeated alone, once.
      if (overranAlone !== undefined || pass.cancelled()) {
        results[index] = { ...first, timeline: [...first.timeline, { t: first.durationMs, kind: 'note', summary: `not repeated alone: ${overranAlone ?? 'the run was cancelled'}` }] };
        continue;
      }
      const repeat = await pass.repeatAlone(job);
      const again = pass.resultOf(job, repeat);
      if (repeat.result === 'timeout') overranAlone = `${job.id} overran its bound alone too, so an overrun is this implementation's`;
      if (again !== undefined) results[index] = overrunRepeated(first, again);
      pass.onProgress?.({ kind: 'confirm', part: pass.part, id: job.id, confirmed: [], flaky: [], overran: again?.status ?? 'errored' });
      continue;
    }
    const all = job && !pass.fatal.has(job) ? pass.timingFailures(first, job) : [];
    const ids = all.filter((id) => (reproduced.get(id)?.length ?? 0) < confirmBudget);
    const known = all.filter((id) => !ids.includes(id));
    if (known.length > 0) results[index] = { ...first, timeline: [...first.timeline, ...known.map((id) => ({ t: first.durationMs, kind: 'note' as const, summary: `${id}: not repeated, its timing failure already reproduced alone in ${(reproduced.get(id) ?? []).join(' and ')}` }))] };
    if (!job || ids.length === 0 || pass.cancelled()) continue;
    const repeat = await pass.repeatAlone(job);
    const repeated = reconcile(results[index] ?? first, ids, repeat.result, repeat.durationMs);
    results[index] = repeated;
    const flaky = repeated.outcomes.filter((o) => o.status === 'flaky').map((o) => o.requirement);
    for (const id of ids.filter((x) => !flaky.includes(x))) reproduced.set(id, [...(reproduced.get(id) ?? []), job.id]);
    pass.onProgress?.({ kind: 'confirm', part: pass.part, id: job.id, confirmed: ids.filter((id) => !flaky.includes(id)), flaky });
  }
  return results;
}

/** The repeat alone of a job that overran its bound beside the others: its result, noted as such. */
export function overrunRepeated(first: ScenarioResult, repeat: ScenarioResult): ScenarioResult {
  const summary = `${first.error ?? 'overran its bound'} beside the other runs; repeated alone: ${repeat.status}${repeat.error ? ` (${repeat.error})` : ''}`;
  return { ...repeat, timeline: [{ t: 0, kind: 'note', summary }, ...repeat.timeline] };
}
