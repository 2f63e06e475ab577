/**
 * From findings to CheckOutcomes. A check that exercised a requirement and found nothing gives
 * `passed`; one that could not run gives `untested` with the reason, never `passed`. Long lists of
 * the same kind of finding are cut to the first few and counted.
 */
import type { CheckOutcome, Finding } from '../../model.ts';

const maxFindings = 8;

export function judge(requirement: string, scenario: string, findings: Finding[]): CheckOutcome {
  if (findings.length === 0) return { requirement, scenario, status: 'passed', findings: [] };
  const kept = findings.slice(0, maxFindings);
  if (findings.length > maxFindings) {
    const last = kept[kept.length - 1] as Finding;
    kept[kept.length - 1] = { ...last, message: `${last.message} (and ${findings.length - maxFindings} more findings)` };
  }
  return { requirement, scenario, status: 'failed', findings: kept };
}

export function untested(requirement: string, scenario: string, reason: string): CheckOutcome {
  return { requirement, scenario, status: 'untested', findings: [], reason };
}

/** A finding with its fields in the order reports print them. */
export function finding(requirement: string, code: string, path: string, message: string, expected?: unknown, actual?: unknown): Finding {
  return { requirement, code, path, message, ...(expected !== undefined ? { expected } : {}), ...(actual !== undefined ? { actual } : {}) };
}

/** Findings grouped by requirement, one outcome each, for the requirements a check exercised. */
export function judgeAll(scenario: string, exercised: Iterable<string>, findings: Finding[]): CheckOutcome[] {
  return [...new Set(exercised)].map((id) => judge(id, scenario, findings.filter((f) => f.requirement === id)));
}
