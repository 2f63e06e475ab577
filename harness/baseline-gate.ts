/**
 * The ratchet gate of a baselined run (docs/baseline.md). The verdict stays what was observed (a
 * run with known failures is still non-compliant); what a baseline changes is the gate: the run
 * passes when every failure at the gate's levels is listed and no listed entry now passes.
 *
 * An entry is `confirmed` when its requirement still fails (in a listed scenario, for a narrowed
 * entry), `stale` when it now passes (the fix landed: remove the entry, so the gain is kept), and
 * `unexercised` when this run did not observe it (untested, not applicable, outside --grep or
 * the target's parts, or its scenarios did not run): neither confirmed nor stale, it neither fails
 * the run nor is it evidence of anything, and every report says so. An untested requirement is
 * covered by its entry for the same reason: the baseline cannot be checked there.
 */
import type { BaselineEntryResult, BaselineNewFailure, BaselineReport, RequirementResult, RunResult } from './model.ts';
import { failingScenarios, gateLevels, runLevel, type LoadedBaseline } from './baseline.ts';

const counting = (s: RequirementResult['status']): s is 'failed' | 'flaky' | 'untested' => s === 'failed' || s === 'flaky' || s === 'untested';

/** The run with its `baseline` report; the verdict and `passed` are left as observed. */
export function applyBaseline(run: RunResult, baseline: LoadedBaseline): RunResult {
  const byId = new Map(run.requirements.map((r) => [r.id, r]));
  const entries = baseline.entries.map((entry) => judgeEntry(entry, byId.get(entry.requirement), run, baseline.file));
  const levels = gateLevels(run.gate.level);
  const newFailures: BaselineNewFailure[] = [];
  for (const r of run.requirements) {
    if (!levels.includes(r.level) || !counting(r.status)) continue;
    const entry = baseline.entries.find((e) => e.requirement === r.id);
    if (!entry) {
      newFailures.push({ requirement: r.id, level: r.level, status: r.status, scenarios: [], detail: `${r.id} ${r.status === 'untested' ? `is untested (${r.reason ?? 'no reason recorded'})` : r.status === 'flaky' ? 'is flaky' : 'failed'} and no baseline entry lists it` });
      continue;
    }
    if (r.status === 'untested' || entry.scenarios === undefined) continue;
    const outside = failingScenarios(run, r.id).filter((s) => !entry.scenarios?.includes(s));
    if (outside.length > 0) {
      const where = outside.map((s) => (s === runLevel ? 'a run-level check (outside any scenario)' : s)).join(', ');
      newFailures.push({ requirement: r.id, level: r.level, status: r.status, scenarios: outside, detail: `${r.id} ${r.status} in ${where}, which its entry does not list (it lists ${entry.scenarios.join(', ')})` });
    }
  }
  const stale = entries.filter((e) => e.status === 'stale').length;
  const observed = run.verdict !== 'could not evaluate';
  const report: BaselineReport = {
    file: baseline.file,
    passed: observed && newFailures.length === 0 && stale === 0,
    summary: '',
    entries,
    newFailures,
  };
  report.summary = summarize(report, run);
  return { ...run, baseline: report };
}

function judgeEntry(entry: LoadedBaseline['entries'][number], r: RequirementResult | undefined, run: RunResult, file: string): BaselineEntryResult {
  const base = { requirement: entry.requirement, ...(entry.scenarios ? { scenarios: entry.scenarios } : {}), reason: entry.reason, ...(entry.issue ? { issue: entry.issue } : {}) };
  if (!r) return { ...base, status: 'unexercised', detail: `${entry.requirement} is not among this run's requirements: neither confirmed nor stale` };
  if (r.status === 'untested') return { ...base, status: 'unexercised', detail: `${r.id} is untested in this run (${r.reason ?? 'no reason recorded'}): neither confirmed nor stale` };
  if (r.status === 'not-applicable') return { ...base, status: 'unexercised', detail: `${r.id} is not applicable in this run (${r.reason ?? 'no reason recorded'}): neither confirmed nor stale` };
  if (entry.scenarios === undefined) {
    return r.status === 'passed'
      ? { ...base, status: 'stale', detail: `${r.id} now passes: remove its entry from ${file} so the fix is kept` }
      : { ...base, status: 'confirmed', detail: `${r.id} still ${r.status === 'flaky' ? 'fails (flaky)' : 'fails'}` };
  }
  const failing = new Set(failingScenarios(run, r.id));
  const ran = new Set(run.scenarios.filter((s) => s.outcomes.some((o) => o.requirement === r.id && o.status !== 'untested')).map((s) => s.scenario));
  const confirmed = entry.scenarios.filter((s) => failing.has(s));
  const passing = entry.scenarios.filter((s) => ran.has(s) && !failing.has(s));
  const unrun = entry.scenarios.filter((s) => !ran.has(s));
  const tail = unrun.length > 0 ? `; not exercised in ${unrun.join(', ')}` : '';
  if (passing.length > 0) {
    const all = passing.length === entry.scenarios.length;
    return { ...base, status: 'stale', staleScenarios: passing, detail: `${r.id} now passes in ${passing.join(', ')}: ${all ? `remove the entry from ${file}` : `remove ${passing.length === 1 ? 'that scenario' : 'those scenarios'} from the entry in ${file}`} so the fix is kept${tail}` };
  }
  if (confirmed.length > 0) return { ...base, status: 'confirmed', detail: `${r.id} still fails in ${confirmed.join(', ')}${tail}` };
  return { ...base, status: 'unexercised', detail: `none of the entry's scenarios exercised ${r.id} in this run (${entry.scenarios.join(', ')}): neither confirmed nor stale` };
}

function summarize(b: BaselineReport, run: RunResult): string {
  const n = (status: BaselineEntryResult['status']) => b.entries.filter((e) => e.status === status).length;
  const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
  const parts = [
    `${plural(n('confirmed'), 'known failure')} baselined`,
    `${b.newFailures.length} new`,
    `${plural(n('stale'), 'stale entry').replace('entrys', 'entries')}`,
    ...(n('unexercised') > 0 ? [`${plural(n('unexercised'), 'entry').replace('entrys', 'entries')} not exercised`] : []),
  ];
  const gate = run.verdict === 'could not evaluate' ? 'nothing was observed, so the baseline cannot be checked' : b.passed ? 'the baseline gate passes' : 'the baseline gate fails';
  return `${parts.join(', ')}: ${gate}`;
}

/** The entry that covers a requirement's failure in this run, if one does (for reporters: "known failure, baselined"). */
export function baselinedEntry(run: Pick<RunResult, 'baseline'>, id: string): BaselineEntryResult | undefined {
  const b = run.baseline;
  if (!b || b.newFailures.some((f) => f.requirement === id)) return undefined;
  return b.entries.find((e) => e.requirement === id && e.status !== 'stale');
}

/** "known failure, baselined: <reason> (<issue>)" */
export function baselinedText(entry: Pick<BaselineEntryResult, 'reason' | 'issue'>): string {
  return `known failure, baselined: ${entry.reason}${entry.issue ? ` (${entry.issue})` : ''}`;
}

/**
 * The sentence every report and the console print under the verdict: the gate the exit code
 * followed, and that the verdict is not changed by it.
 */
export function baselineSentence(run: Pick<RunResult, 'baseline' | 'verdict'>): string | undefined {
  const b = run.baseline;
  if (!b) return undefined;
  const honest = run.verdict === 'fully compliant' ? '' : ` A baseline changes only the exit code: the verdict stays ${run.verdict}.`;
  return `Baseline ${b.file}: ${b.summary} (exit ${run.verdict === 'could not evaluate' ? 3 : b.passed ? 0 : 1}).${honest}`;
}

/** Shards: a shard cannot tell a stale entry (another shard may fail it), so it stops only on a failure no entry covers. */
export function uncoveredFailures(run: RunResult): string[] {
  const failed = run.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
  if (!run.baseline) return failed;
  return failed.filter((id) => run.baseline?.newFailures.some((f) => f.requirement === id));
}

/** Console lines before the verdict: each new failure and each stale or unexercised entry, with its fix. */
export function describeBaselineConsole(run: Pick<RunResult, 'baseline'>): string[] {
  const b = run.baseline;
  if (!b) return [];
  return [
    ...b.newFailures.map((f) => `NEW ${f.detail}: fix it, or list it in ${b.file} with a reason`),
    ...b.entries.flatMap((e, i) => (e.status === 'stale' ? [`STALE baseline entry ${e.requirement} (${b.file} /knownFailures/${i}): ${e.detail}`] : [])),
    ...b.entries.flatMap((e, i) => (e.status === 'unexercised' ? [`NOT EXERCISED baseline entry ${e.requirement} (${b.file} /knownFailures/${i}): ${e.detail}`] : [])),
  ];
}
