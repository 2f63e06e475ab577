/**
 * `adk-conformance report merge DIR... [--out DIR] [--reporter LIST]`: merge the report.json of
 * sharded runs (`run --shard I/N`) into one report, recomputing counts and verdict. Exit 0 when
 * the merged verdict meets the gate, 1 when it does not, 2 on a usage error or inputs that cannot
 * be merged (unreadable, invalid, or disagreeing on seed or gate).
 */
import { stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { UsageError, nearest, parseOptions } from '../args.ts';
import { mergeRunResults, readRunResult, type ShardInput } from '../../harness/merge.ts';
import { parseReporterList, reporterNames, writeReports } from '../../harness/reporters/index.ts';
import { describeGate, describeObserved, exitCodeOf } from '../../harness/verdict.ts';
import type { CommandIo } from './validate.ts';
import { loadBaseline } from '../../harness/baseline.ts';
import { applyBaseline, describeBaselineConsole } from '../../harness/baseline-gate.ts';

const processIo: Pick<CommandIo, 'stdout' | 'stderr'> = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };

export const defaultMergeOut = 'reports/merged';

const help = `usage: adk-conformance report merge DIR... [--out DIR] [--reporter LIST] [--baseline FILE]
       adk-conformance report baseline REPORT_DIR > FILE   (write an expected-failure baseline; report baseline --help)

Merge the reports of sharded runs ('adk-conformance run --shard I/N') into one: scenario
results are united, requirement statuses combined (failed beats passed beats untested), and
counts and verdict recomputed. Every shard must share the seed and the gate level.

  DIR...           report folders holding report.json, or report.json files
  --out DIR        where to write the merged reports (default ${defaultMergeOut})
  --reporter LIST  ${reporterNames.join(',')} (repeatable or comma-separated; default all)
  --baseline FILE  gate the merged report on an expected-failure baseline (docs/baseline.md): exit 0 when
                   every failure is listed and no entry now passes; the verdict is unchanged

exit: 0 the merged verdict meets the gate; 1 it does not; 2 usage error or inputs that cannot be merged
      (with --baseline: 0 the baseline gate passes, 1 a new failure or a stale entry)`;

const subcommands = ['merge', 'baseline'] as const;

/** A folder means its report.json; a file is taken as is. */
async function reportFile(path: string): Promise<string> {
  try {
    return (await stat(path)).isDirectory() ? join(path, 'report.json') : path;
  } catch {
    throw new UsageError(`${path} does not exist; pass a report folder (holding report.json) or a report.json file.`);
  }
}

async function merge(argv: string[], io: Pick<CommandIo, 'stdout' | 'stderr'>): Promise<number> {
  const { values, positionals } = parseOptions(argv, { out: { type: 'string' }, reporter: { type: 'string', multiple: true }, baseline: { type: 'string' } }, help);
  if (values.help) { io.stdout(`${help}\n`); return 0; }
  if (positionals.length === 0) throw new UsageError(`no report given: pass the report folders of the shards.\n\n${help}`);
  let reporters;
  try {
    reporters = values.reporter ? parseReporterList(values.reporter) : reporterNames;
  } catch (error) {
    throw new UsageError(`--reporter: ${(error as Error).message}.`);
  }
  if (reporters.length === 0) throw new UsageError(`--reporter names no reporter; use some of ${reporterNames.join(', ')}.`);
  const baseline = values.baseline === undefined ? undefined : loadBaseline(values.baseline);
  const outDir = resolve(values.out ?? defaultMergeOut);
  const files = await Promise.all(positionals.map(reportFile));
  const clash = files.find((f) => resolve(f, '..') === outDir);
  if (clash) throw new UsageError(`--out ${values.out ?? defaultMergeOut} holds the input ${clash}; write the merged reports to another folder.`);

  let shards: ShardInput[];
  let merged: ReturnType<typeof mergeRunResults>;
  try {
    shards = await Promise.all(files.map(async (file) => ({ file, result: await readRunResult(file) })));
    merged = mergeRunResults(shards);
  } catch (error) {
    io.stderr(`adk-conformance report merge: ${(error as Error).message}\n`);
    return 2;
  }
  for (const warning of merged.warnings) io.stderr(`warning: ${warning}\n`);
  const result = baseline ? applyBaseline(merged.result, baseline) : merged.result;
  const written = await writeReports(result, { outDir, reporters });
  const rel = (p: string) => {
    const r = relative(process.cwd(), p);
    return r === '' ? '.' : r.startsWith('..') ? p : r;
  };
  const c = result.counts.requirements;
  io.stdout([
    `merged ${shards.length} report${shards.length === 1 ? '' : 's'}: ${result.counts.scenarios.total} scenarios; MUST ${c.MUST.passed} passed, ${c.MUST.failed} failed, ${c.MUST.flaky ?? 0} flaky, ${c.MUST.untested} untested`,
    describeGate(result.gate),
    ...describeBaselineConsole(result),
    `verdict: ${result.verdict} (${describeObserved(result.counts.requirements)}; ${result.verdict === 'could not evaluate' ? 'nothing observed: exit 3' : `${result.passed ? 'meets' : 'does not meet'} the ${result.gate.level} gate`}${result.baseline ? `; baseline: ${result.baseline.summary}, exit ${exitCodeOf(result)}` : ''})`,
    `reports: ${written.map(rel).join(', ')}`,
    '',
  ].join('\n'));
  return exitCodeOf(result);
}

export async function run(argv: string[], io: Pick<CommandIo, 'stdout' | 'stderr'> = processIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    io.stdout(`${help}\n`);
    return sub === undefined ? 2 : 0;
  }
  if (sub === 'merge') return merge(rest, io);
  if (sub === 'baseline') return (await import('./report-baseline.ts')).reportBaseline(rest, io);
  const near = nearest(sub, subcommands);
  throw new UsageError(`unknown report command '${sub}'${near ? ` (did you mean '${near}'?)` : ''}.\n\n${help}`);
}
