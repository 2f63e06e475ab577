/**
 * What a certification's outcomes make of each requirement (the engine's last step): its status
 * over every run, and which requirements a narrowed run's runs exercised.
 */
import type { CheckOutcome, Requirement, RequirementResult, ScenarioResult } from './model.ts';

/**
 * The requirements a run exercised, for a narrowed run's selection. A scenario run that passed and
 * reported a requirement untested had nothing of that kind to judge (AUD-KEY-001 on a scenario whose invocation
 * and correlation ids never differ, ABE-PARENT-001 where no specialist answers), so the replay of one
 * passing scenario does not gate what only other scenarios exercise (19 of the corpus's 105 replay
 * lines were "non-compliant" for it). A failed or errored run's untested requirements may be its
 * defect's doing (no event valid against the schema, nothing observed): they stay in the selection,
 * untested with its reason.
 */
export function exercisedBy(result: ScenarioResult): string[] {
  // A probe exists to exercise its requirements: one it left untested stays (ABE-CORR-002 behind a
  // transformer whose correlation id changes every turn, ABE-CORR-001 failing in a scenario beside it).
  const probe = result.scenario.startsWith('probe:');
  return result.outcomes.filter((o) => probe || result.status !== 'passed' || o.status !== 'untested').map((o) => o.requirement);
}

/**
 * A requirement failed if any outcome failed; passed if at least one outcome passed and none
 * failed; untested otherwise (never exercised counts against the verdict). Requirements of parts
 * not under test are not applicable.
 */
export function aggregate(requirements: Requirement[], parts: Set<string>, outcomes: CheckOutcome[], mutantKills: Record<string, string[]>): RequirementResult[] {
  return requirements.map((r) => {
    const provenBy = Object.entries(mutantKills).filter(([, kills]) => kills.includes(r.id)).map(([m]) => m).sort();
    if (!parts.has(r.part)) return { ...r, status: 'not-applicable', scenarios: [], findings: [], provenBy, reason: `the ${r.part} is not under test in this run` };
    const mine = outcomes.filter((o) => o.requirement === r.id);
    const scenarios = [...new Set(mine.filter((o) => o.status !== 'untested').map((o) => o.scenario))];
    const findings = mine.flatMap((o) => o.findings);
    // Flaky outranks passed: a failure that did not reproduce is unexplained, not disproved.
    const status = mine.some((o) => o.status === 'failed') ? 'failed' : mine.some((o) => o.status === 'flaky') ? 'flaky' : mine.some((o) => o.status === 'passed') ? 'passed' : 'untested';
    const reasons = [...new Set(mine.filter((o) => o.status === status && (status === 'untested' || status === 'flaky')).map((o) => `${status === 'flaky' ? `${o.scenario}: ` : ''}${o.reason ?? ''}`).filter(Boolean))];
    return { ...r, status, scenarios, findings, provenBy, ...(status === 'untested' ? { reason: reasons.join('; ') || 'no scenario or probe exercised it' } : status === 'flaky' ? { reason: reasons.join('; ') } : {}) };
  });
}
