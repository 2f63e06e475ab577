/**
 * A transformer that hangs (test/fixtures/hanging-transformer.py: reads its whole input, writes
 * nothing, never ends), certified as a user runs it: wall time to the verdict, which must be
 * "non-compliant" with the reason "hangs" (fail fast stops the certification after the first
 * hung scenarios). Goal (issue 30): < 10 s.
 *
 * Its baseline, from the same run's report.json: the time the scenario runs that were judged took,
 * one after another (the hang bound each of them waited out); the rest of the wall time is the
 * harness around them: start-up, the start-up probe (which a hanging command also never answers),
 * the report.
 */
import { join } from 'node:path';
import { runCertification, runsOf, verdictOf } from './lib/certify-run.ts';
import { repoRoot } from './lib/children.ts';
import { below, figure, type BenchResult } from './lib/figures.ts';

export type HangingBenchOptions = { timeoutMs: number; /** Extra flags (the smoke test narrows the scenarios). */ extra?: string[] };
export const hangingBenchDefaults: HangingBenchOptions = { timeoutMs: 180_000 };

export const hangingCommand = `python3 ${join(repoRoot, 'test', 'fixtures', 'hanging-transformer.py')}`;

export async function benchHanging(options: HangingBenchOptions = hangingBenchDefaults): Promise<BenchResult> {
  const hanging = await runCertification(['--transformer-cmd', hangingCommand, '--generated', '0', ...(options.extra ?? [])], options.timeoutMs);
  const verdict = verdictOf(hanging);
  const hangs = /hangs/.test(hanging.stdout);
  const judged = (hanging.report?.scenarios ?? []).filter((s) => !(s.error ?? '').startsWith('not run:'));
  const judgedMs = judged.reduce((sum, s) => sum + s.durationMs, 0);
  const ok = hangs && verdict === 'non-compliant';
  return {
    id: 'hanging',
    title: 'a hanging transformer: time to its verdict',
    figures: [
      figure({
        name: `a transformer that hangs: wall time to the verdict (${verdict}${hangs ? ', reason "hangs"' : ', reason NOT "hangs"'}; ${judged.length} of ${runsOf(hanging)} runs judged, the rest not run)`,
        unit: 'ms',
        value: hanging.wallMs,
        baseline: { name: `the ${judged.length} judged runs one after another (report.json durations)`, value: judgedMs },
        goal: below(ok ? hanging.wallMs : null, 10_000, '< 10 s, non-compliant, "hangs"'),
      }),
      figure({ name: 'certification time in report.json (engine, from start to verdict)', unit: 'ms', value: hanging.report?.durationMs ?? Number.NaN, baseline: { name: 'wall time', value: hanging.wallMs } }),
    ],
    notes: ['`node bin/adk-conformance.js run --transformer-cmd "python3 test/fixtures/hanging-transformer.py" --generated 0`, CI=1, reports to a temp dir'],
    details: { wallMs: hanging.wallMs, code: hanging.code, verdict, engineMs: hanging.report?.durationMs, judged: judged.map((s) => ({ scenario: s.scenario, durationMs: s.durationMs, status: s.status })) },
  };
}
