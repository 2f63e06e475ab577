/**
 * The one way runs and scenarios are counted, on the console and in every report (docs/harness.md
 * "Counting"): a **scenario** is one script, from the corpus or generated from the seed, counted
 * once; a **run** is one scenario played to one part, or one probe, so a scenario that applies to
 * two parts is two runs. Pass/fail counts are always of runs. A tap has no scenarios: each judged
 * live request is a run.
 */
import type { RunResult } from '../model.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

type Counted = Pick<RunResult, 'scenarios' | 'target' | 'counts' | 'live'>;

/** What the runs were: `70 runs of 40 scenarios in 2 parts, and 2 probe runs`. */
function makeup(run: Counted): string {
  if (run.live) return `live requests judged by ${plural(run.live.taps, 'tap')}; a tap has no scenarios`;
  const scenarioRuns = run.scenarios.filter((s) => !s.scenario.startsWith('probe:'));
  const distinct = new Set(scenarioRuns.map((s) => s.scenario)).size;
  const probes = run.scenarios.length - scenarioRuns.length;
  return `${plural(scenarioRuns.length, 'run')} of ${plural(distinct, 'scenario')} in ${plural(run.target.parts.length, 'part')}, and ${plural(probes, 'probe run')}`;
}

/** `72 runs: 70 passed, 1 failed, 1 errored (70 runs of 40 scenarios in 2 parts, and 2 probe runs)`. */
export function describeRuns(run: Counted): string {
  const c = run.counts.scenarios;
  return `${plural(c.total, 'run')}: ${c.passed} passed, ${c.failed} failed, ${c.errored} errored (${makeup(run)})`;
}

/** The reports' sentence: `Runs: 72 (70 passed, 1 failed, 1 errored): 70 runs of 40 scenarios in 2 parts, and 2 probe runs.` */
export function runsSentence(run: Counted): string {
  const c = run.counts.scenarios;
  return `Runs: ${c.total} (${c.passed} passed, ${c.failed} failed, ${c.errored} errored): ${makeup(run)}.`;
}

/** The run's header: `123 scenarios (103 from the corpus, and 20 of them fast-check generated runs)`. */
export function describeScenarioCount(total: number, generated: number): string {
  return generated > 0 ? `${plural(total, 'scenario')} (${total - generated} from the corpus, and ${generated} of them fast-check generated runs)` : plural(total, 'scenario');
}
