/**
 * The verdict of a run, computed from requirement results alone, and the gate that turns it into
 * an exit code. Untested requirements count as failures (a2a-tck#214: an unreachable target was
 * reported "100% MUST compatible" because NOT TESTED left the denominator). Not-applicable
 * requirements are excluded from the verdict but still counted and listed by every reporter.
 */
import type { GatePolicy, Level, RequirementResult, RequirementStatus, RunResult, ScenarioResult, Verdict } from './model.ts';

export const levels: readonly Level[] = ['MUST', 'SHOULD', 'MAY'];
export const requirementStatuses: readonly RequirementStatus[] = ['passed', 'failed', 'flaky', 'untested', 'not-applicable'];

/** Worst first: the order a verdict climbs. Nothing observed is below any observed verdict. */
export const verdicts: readonly Verdict[] = ['could not evaluate', 'non-compliant', 'MUST-compliant', 'SHOULD-compliant', 'fully compliant'];

/**
 * The exit code of every verdict-printing command (docs/harness.md "Exit codes"): 0 the gate is met,
 * 1 it is not, 2 the command line or configuration is wrong, 3 nothing was observed to judge (a
 * verdict over nothing would be a vacuous pass or a vacuous failure, and CI must tell it apart).
 */
export const exitCodes = { passed: 0, notCompliant: 1, usage: 2, couldNotEvaluate: 3 } as const;

export function exitCodeOf(result: Pick<RunResult, 'verdict' | 'passed'> & { baseline?: Pick<NonNullable<RunResult['baseline']>, 'passed'> }): number {
  if (result.verdict === 'could not evaluate') return exitCodes.couldNotEvaluate;
  // A baselined run gates on the ratchet (docs/baseline.md): no new failure, no stale entry; its verdict is unchanged.
  if (result.baseline) return result.baseline.passed ? exitCodes.passed : exitCodes.notCompliant;
  return result.passed ? exitCodes.passed : exitCodes.notCompliant;
}

export type RequirementCounts = RunResult['counts']['requirements'];

export function emptyRequirementCounts(): RequirementCounts {
  const row = (): Record<RequirementStatus, number> => ({ passed: 0, failed: 0, flaky: 0, untested: 0, 'not-applicable': 0 });
  return { MUST: row(), SHOULD: row(), MAY: row() };
}

/**
 * could not evaluate: no applicable MUST was observed (passed, failed or flaky), or, where no MUST
 * applies, no requirement was; non-compliant: an applicable MUST failed, is flaky or is untested;
 * MUST-compliant: every MUST passed but a SHOULD did not; SHOULD-compliant: every MUST and SHOULD
 * passed but a MAY did not; fully compliant: every applicable requirement passed.
 */
export function computeVerdict(requirements: readonly (Pick<RequirementResult, 'id' | 'level' | 'status'> & { scenarios?: readonly string[] })[]): { verdict: Verdict; counts: RequirementCounts } {
  const counts = emptyRequirementCounts();
  // Untested with scenarios: observed somewhere, but an errored run left it unproven (withoutMissingEvidence).
  const observed = { MUST: 0, SHOULD: 0, MAY: 0 };
  for (const r of requirements) {
    const row = counts[r.level];
    if (!row || !(r.status in row)) throw new TypeError(`computeVerdict: requirement ${r.id} has level '${r.level}' and status '${r.status}'; levels are ${levels.join('|')} and statuses ${requirementStatuses.join('|')}`);
    row[r.status] += 1;
    if (r.status === 'passed' || r.status === 'failed' || r.status === 'flaky' || (r.status === 'untested' && (r.scenarios?.length ?? 0) > 0)) observed[r.level] += 1;
  }
  const applicableAt = (level: Level) => counts[level].passed + counts[level].failed + counts[level].flaky + counts[level].untested;
  const observedAt = (level: Level) => observed[level];
  const applicable = levels.reduce((n, level) => n + applicableAt(level), 0);
  // A verdict over nothing would be the vacuous 100% a2a-tck#214 warns about: that is a
  // configuration problem (the target's parts match no requirement), not a compliant target.
  if (applicable === 0) throw new Error(`computeVerdict: no applicable requirement among ${requirements.length}; declare the target's parts so that some requirements apply`);
  // Every gate needs MUST-compliant at least, so nothing observed among the MUSTs is nothing observed at the gate.
  const gateLevels = applicableAt('MUST') > 0 ? (['MUST'] as const) : levels;
  if (gateLevels.every((level) => observedAt(level) === 0)) return { verdict: 'could not evaluate', counts };
  const short = (level: Level) => counts[level].failed + counts[level].flaky + counts[level].untested > 0;
  const verdict: Verdict = short('MUST') ? 'non-compliant' : short('SHOULD') ? 'MUST-compliant' : short('MAY') ? 'SHOULD-compliant' : 'fully compliant';
  return { verdict, counts };
}

const gateMinimum: Record<GatePolicy['level'], Verdict> = { must: 'MUST-compliant', should: 'SHOULD-compliant', may: 'fully compliant' };

/** Whether a verdict reaches the gate level: must -> MUST-compliant or better, and so on. */
export function meetsGate(verdict: Verdict, level: GatePolicy['level']): boolean {
  const minimum = gateMinimum[level];
  if (!minimum) throw new TypeError(`meetsGate: unknown gate level '${String(level)}'; use must, should or may`);
  if (!verdicts.includes(verdict)) throw new TypeError(`meetsGate: unknown verdict '${String(verdict)}'; verdicts are ${verdicts.join(', ')}`);
  return verdicts.indexOf(verdict) >= verdicts.indexOf(minimum);
}

/** The gate policy in one sentence, printed in every report. */
export function describeGate(gate: GatePolicy): string {
  return `Gate: the run passes (exit 0) when the verdict is ${gateMinimum[gate.level]} or better (gate level ${gate.level}). `
    + 'Untested and flaky requirements count as failures; not-applicable requirements are excluded from the verdict and listed; '
    + 'a run that observed no applicable MUST is "could not evaluate" (exit 3).';
}

/** Applicable requirements whose checks no mutant has shown able to fail. */
export function unprovenRequirements<R extends Pick<RequirementResult, 'status' | 'provenBy'>>(requirements: readonly R[]): R[] {
  return requirements.filter((r) => r.status !== 'not-applicable' && r.provenBy.length === 0);
}

/**
 * What errored probes left unobserved: requirement id -> why, one entry per reason with the probes
 * that gave it. A probe's generated cases are the cases nobody scripted; one that errored judged
 * none of them, and they might have failed what it could not observe, so a requirement it left
 * untested is untested whatever the scenarios passed (docs/harness.md "Nothing passes without an
 * observation"). An errored scenario is one script among several for its requirements (a
 * defective implementation that never answers a held-open stream errors there and is failed
 * elsewhere): it only lists its reason.
 */
export function unobservedRequirements(scenarios: readonly Pick<ScenarioResult, 'scenario' | 'status' | 'outcomes' | 'error'>[]): Map<string, Map<string, string[]>> {
  const missing = new Map<string, Map<string, string[]>>();
  for (const s of scenarios) {
    if (s.status !== 'errored' || !s.scenario.startsWith('probe:')) continue;
    for (const o of s.outcomes) {
      if (o.status !== 'untested') continue;
      const reason = o.reason ?? s.error ?? 'nothing was observed';
      const byReason = missing.get(o.requirement) ?? new Map<string, string[]>();
      byReason.set(reason, [...(byReason.get(reason) ?? []), s.scenario]);
      missing.set(o.requirement, byReason);
    }
  }
  return missing;
}

/** A requirement that passed elsewhere but that an errored run left unobserved is untested, saying which run and why. */
export function withoutMissingEvidence<R extends Pick<RequirementResult, 'id' | 'status' | 'reason'>>(r: R, missing: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>): R {
  const byReason = missing.get(r.id);
  if (r.status !== 'passed' || !byReason) return r;
  const reasons = [...byReason].map(([reason, ids]) => `${ids[0]}${ids.length > 1 ? ` and ${ids.length - 1} other run${ids.length > 2 ? 's' : ''}` : ''} errored: ${reason}`);
  return { ...r, status: 'untested', reason: `passed elsewhere, but ${reasons.join('; ')}` };
}

export function countScenarios(scenarios: readonly Pick<ScenarioResult, 'status'>[]): RunResult['counts']['scenarios'] {
  const counts = { total: scenarios.length, passed: 0, failed: 0, errored: 0 };
  for (const s of scenarios) {
    if (!(s.status in counts) || s.status === ('total' as string)) throw new TypeError(`countScenarios: status '${s.status}' is not passed, failed or errored`);
    counts[s.status] += 1;
  }
  return counts;
}

/**
 * The derived fields of a RunResult (verdict, passed, counts) from its requirements, scenarios and
 * mutant tally, so the runner and `report merge` can never disagree on how they are computed.
 */
export function tally(input: Pick<RunResult, 'gate' | 'requirements' | 'scenarios'> & { mutants: RunResult['counts']['mutants'] }): Pick<RunResult, 'verdict' | 'passed' | 'counts'> {
  const { verdict, counts } = computeVerdict(input.requirements);
  return {
    verdict,
    passed: meetsGate(verdict, input.gate.level),
    counts: { requirements: counts, scenarios: countScenarios(input.scenarios), mutants: input.mutants, unproven: unprovenRequirements(input.requirements).length },
  };
}

/**
 * The verdict in words that say what was observed (issue 28 §2): "fully compliant" over 31 MUSTs
 * with no SHOULD applicable must not read as if SHOULDs had been judged. Every reporter and the
 * console print this, never the bare verdict.
 */
export function describeVerdict(result: Pick<RunResult, 'verdict'> & { counts: { requirements: RequirementCounts } }): string {
  return `${result.verdict}: ${describeObserved(result.counts.requirements)}`;
}

/** What each level observed: `MUST 31 of 31 passed; no SHOULD or MAY requirement applies`. */
export function describeObserved(c: RequirementCounts): string {
  const judged: string[] = [];
  const absent: Level[] = [];
  for (const level of levels) {
    const row = c[level];
    const flaky = row.flaky ?? 0;
    const applicable = row.passed + row.failed + flaky + row.untested;
    if (applicable === 0) { absent.push(level); continue; }
    const others = ([['failed', row.failed], ['flaky', flaky], ['untested', row.untested]] as const).filter(([, n]) => n > 0).map(([s, n]) => `${n} ${s}`);
    judged.push(`${level} ${row.passed} of ${applicable} passed${others.length ? ` (${others.join(', ')})` : ''}`);
  }
  const none = absent.length === 0 ? [] : [`no ${absent.join(' or ')} requirement applies`];
  return [...judged, ...none].join('; ');
}
