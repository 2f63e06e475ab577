/**
 * `adk-conformance report baseline REPORT_DIR > FILE`: an expected-failure baseline (docs/baseline.md)
 * from a report's report.json: every requirement at the gate's levels that failed, was flaky or was
 * untested, each with a reason that dates it and quotes the first finding. The baseline is written
 * to stdout (so it can be reviewed or redirected); a line to stderr says how many entries it has.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError, parseOptions } from '../args.ts';
import { readRunResult } from '../../harness/merge.ts';
import { baselineFromReport } from '../../harness/baseline.ts';
import type { CommandIo } from './validate.ts';

export const help = `usage: adk-conformance report baseline REPORT_DIR [--by-scenario] > baseline.json

Write an expected-failure baseline from a report (docs/baseline.md): one entry per requirement at
the report's gate levels that failed, was flaky or was untested, its reason "baselined on DATE:
<first finding>". Review the reasons, add issue links, commit the file, and gate CI with
'adk-conformance run --baseline baseline.json' (docs/ci.md "Adopting on existing code").

  REPORT_DIR     a report folder holding report.json (of a whole run, or of 'report merge'), or the file
  --by-scenario  narrow each entry to the scenarios it failed in (a failure elsewhere is then new)
  --date DATE    the date in the reasons (default today, UTC, YYYY-MM-DD)

exit: 0 written; 2 usage error, a report that cannot be read, a shard's report alone, or one that observed nothing`;

export async function reportBaseline(argv: string[], io: Pick<CommandIo, 'stdout' | 'stderr'>): Promise<number> {
  const { values, positionals } = parseOptions(argv, { 'by-scenario': { type: 'boolean' }, date: { type: 'string' } }, help);
  if (values.help) { io.stdout(`${help}\n`); return 0; }
  if (positionals.length !== 1) throw new UsageError(`report baseline takes one report folder, got ${positionals.length}.\n\n${help}`);
  const date = values.date ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new UsageError(`--date takes YYYY-MM-DD, got '${date}'.`);
  const given = positionals[0] as string;
  let file: string;
  try { file = (await stat(given)).isDirectory() ? join(given, 'report.json') : given; } catch {
    throw new UsageError(`${given} does not exist; pass a report folder (holding report.json) or a report.json file.`);
  }
  let run;
  try { run = await readRunResult(file); } catch (error) { throw new UsageError((error as Error).message); }
  const baseline = baselineFromReport(run, { date, byScenario: values['by-scenario'] === true, source: file });
  io.stdout(`${JSON.stringify(baseline, null, 2)}\n`);
  const n = baseline.knownFailures.length;
  io.stderr(`report baseline: ${n} known failure${n === 1 ? '' : 's'} from ${file} (verdict ${run.verdict}, gate ${run.gate.level})${n === 0 ? ': nothing fails, so every failure from now on is new' : ''}\n`);
  return 0;
}
