/**
 * What every reporter says about a baselined run (docs/baseline.md), the same way in each: failures
 * an entry covers are shown apart from new ones, each with "known failure, baselined: reason (issue)",
 * and the entries the run found stale or could not exercise are listed with their fix. The verdict
 * is never reworded: a baselined run is still non-compliant, only its exit code follows the baseline.
 */
import type { BaselineEntryResult, RequirementResult, RunResult } from '../model.ts';
import { baselinedEntry } from '../baseline-gate.ts';

export { baselinedEntry, baselinedText, baselineSentence } from '../baseline-gate.ts';

export type SplitFailures = { fresh: RequirementResult[]; known: Array<{ r: RequirementResult; entry: BaselineEntryResult }> };

/** Failures (or flaky ones) split into those no entry covers and the baselined ones. */
export function splitBaselined(run: Pick<RunResult, 'baseline'>, failed: readonly RequirementResult[]): SplitFailures {
  const fresh: RequirementResult[] = [];
  const known: SplitFailures['known'] = [];
  for (const r of failed) {
    const entry = baselinedEntry(run, r.id);
    if (entry) known.push({ r, entry }); else fresh.push(r);
  }
  return { fresh, known };
}

/** One line per entry for the reports' baseline section: status, requirement, what the run made of it, reason, issue. */
export function baselineRows(run: Pick<RunResult, 'baseline'>): Array<{ index: number; status: string; requirement: string; detail: string; reason: string; issue?: string }> {
  const b = run.baseline;
  if (!b) return [];
  const label: Record<BaselineEntryResult['status'], string> = { confirmed: 'known failure (still fails)', stale: 'STALE: now passes, remove it', unexercised: 'not exercised (neither confirmed nor stale)' };
  return b.entries.map((e, index) => ({ index, status: label[e.status], requirement: e.requirement, detail: e.detail, reason: e.reason, ...(e.issue ? { issue: e.issue } : {}) }));
}

/** The title suffix: "(3 known failures baselined)" when some were, so a tab title never reads as a clean run. */
export function baselineTitle(run: Pick<RunResult, 'baseline'>): string {
  const n = run.baseline?.entries.filter((e) => e.status === 'confirmed').length ?? 0;
  return n > 0 ? ` (${n} known failure${n === 1 ? '' : 's'} baselined)` : '';
}
