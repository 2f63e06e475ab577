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

/** The repeat alone of a job that overran its bound beside the others: its result, noted as such. */
export function overrunRepeated(first: ScenarioResult, repeat: ScenarioResult): ScenarioResult {
  const summary = `${first.error ?? 'overran its bound'} beside the other runs; repeated alone: ${repeat.status}${repeat.error ? ` (${repeat.error})` : ''}`;
  return { ...repeat, timeline: [{ t: 0, kind: 'note', summary }, ...repeat.timeline] };
}
