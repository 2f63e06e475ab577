/**
 * From findings to one CheckOutcome per requirement. A long list of findings about the same
 * turn says nothing the first few do not, and would swamp a report: the rest are counted.
 */
import type { CheckOutcome, Finding } from '../../model.ts';

const maxFindings = 8;

export function outcomeOf(requirement: string, scenario: string, findings: Finding[]): CheckOutcome {
  if (findings.length === 0) return { requirement, scenario, status: 'passed', findings: [] };
  const kept = findings.slice(0, maxFindings);
  if (findings.length > maxFindings) {
    const last = kept[kept.length - 1]!;
    kept[kept.length - 1] = { ...last, message: `${last.message} (and ${findings.length - maxFindings} more findings like these)` };
  }
  return { requirement, scenario, status: 'failed', findings: kept };
}

export function untestedOutcome(requirement: string, scenario: string, reason: string): CheckOutcome {
  return { requirement, scenario, status: 'untested', findings: [], reason };
}

/** Merge the outcomes of many cases (generated turns) into one per requirement: failed wins, then passed. */
export function mergeOutcomes(scenario: string, outcomes: CheckOutcome[]): CheckOutcome[] {
  const byRequirement = new Map<string, CheckOutcome[]>();
  for (const o of outcomes) byRequirement.set(o.requirement, [...(byRequirement.get(o.requirement) ?? []), o]);
  return [...byRequirement].map(([requirement, list]) => {
    const failed = list.filter((o) => o.status === 'failed');
    if (failed.length > 0) return outcomeOf(requirement, scenario, failed.flatMap((o) => o.findings));
    if (list.some((o) => o.status === 'passed')) return { requirement, scenario, status: 'passed' as const, findings: [] };
    return untestedOutcome(requirement, scenario, [...new Set(list.map((o) => o.reason).filter(Boolean))].join('; '));
  });
}
