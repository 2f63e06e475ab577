/**
 * `npm run bench` (`tsx bench/main.ts`): every benchmark, each figure next to its baseline from
 * the same run and the ratio, as a table on the terminal and as JSON (with the machine and its
 * load average) under reports/bench/. docs/performance.md says what each one measures.
 *
 *   npx tsx bench/main.ts [--quick] [--only mock,concurrency,...] [--out DIR]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { benchConcurrency, concurrencyDefaults, type ConcurrencyOptions } from './concurrency.ts';
import { benchGateway, gatewayBenchDefaults } from './gateway.ts';
import { benchHarness, harnessBenchDefaults } from './harness.ts';
import { benchCertify, certifyBenchDefaults } from './certify.ts';
import { repoRoot } from './lib/children.ts';
import type { BenchResult } from './lib/figures.ts';
import { describeMachine, loadAverage, type Machine } from './lib/machine.ts';
import { markdownTable, terminalTable } from './lib/table.ts';
import { benchMemory, memoryBenchDefaults } from './memory.ts';
import { benchMock, mockBenchDefaults } from './mock-throughput.ts';
import { benchNormalizer, normalizerBenchDefaults } from './normalizer.ts';
import { benchTap, tapBenchDefaults, tapBenchQuick } from './tap.ts';
import { benchTransformer, transformerBenchDefaults } from './transformer.ts';
import { benchTransformerSession, transformerSessionBenchDefaults } from './transformer-session.ts';
import { benchHanging, hangingBenchDefaults } from './hanging.ts';

/** `partOf`: a benchmark that another one already runs in full: it runs only when named. */
type Bench = { id: string; run: (quick: boolean) => Promise<BenchResult>; partOf?: string };

/** Open files the 4,000-stream step needs: a socket per stream in this process (the servers have their own limit). */
const filesNeeded = (steps: readonly number[]) => Math.max(...steps) + 1024;

export function concurrencyOptions(quick: boolean): ConcurrencyOptions {
  return quick ? { steps: [250, 500], ttfbAt: [100] } : concurrencyDefaults;
}

export const benches: readonly Bench[] = [
  { id: 'mock', run: (quick) => benchMock(quick ? { concurrency: 16, rounds: 2, durationMs: 500 } : mockBenchDefaults) },
  // The short-run case of `mock` alone (issue 30 §3: server CPU per short run against a bare server).
  { id: 'mock-short', run: (quick) => benchMock({ ...(quick ? { concurrency: 16, rounds: 2, durationMs: 500 } : mockBenchDefaults), only: 'short' }), partOf: 'mock' },
  { id: 'concurrency', run: (quick) => benchConcurrency(concurrencyOptions(quick)) },
  { id: 'gateway', run: (quick) => benchGateway(quick ? { concurrency: 16, rounds: 1, durationMs: 700, latencyConcurrency: 4, latencyDurationMs: 1000 } : gatewayBenchDefaults) },
  { id: 'transformer', run: (quick) => benchTransformer(quick ? { rounds: 2, roundMs: 300, cliEvents: 5000 } : transformerBenchDefaults) },
  { id: 'normalizer', run: (quick) => benchNormalizer(quick ? { rounds: 2, roundMs: 300, cliEvents: 40_000 } : normalizerBenchDefaults) },
  { id: 'memory', run: (quick) => benchMemory(quick ? { invocations: 1000, warmupInvocations: 100, concurrency: 16, streamLengths: [10_000, 50_000], auditInvocations: 1000 } : memoryBenchDefaults) },
  { id: 'tap', run: (quick) => benchTap(quick ? tapBenchQuick : tapBenchDefaults) },
  { id: 'harness', run: () => benchHarness(harnessBenchDefaults) },
  { id: 'certify', run: (quick) => benchCertify(quick ? { ...certifyBenchDefaults, generated: 5 } : certifyBenchDefaults) },
  { id: 'transformer-session', run: (quick) => benchTransformerSession(quick ? { ...transformerSessionBenchDefaults, extra: ['--generated', '5'] } : transformerSessionBenchDefaults) },
  { id: 'hanging', run: () => benchHanging(hangingBenchDefaults) },
];

export type BenchReport = { startedAt: string; finishedAt: string; durationMs: number; mode: 'default' | 'quick'; machine: Machine & { loadAverageAtEnd: [number, number, number] }; results: BenchResult[] };

export async function runBenches(ids: readonly string[], quick: boolean, log: (line: string) => void = () => {}): Promise<BenchReport> {
  const machine = describeMachine();
  const startedAt = new Date();
  const start = performance.now();
  const results: BenchResult[] = [];
  for (const bench of benches.filter((b) => ids.includes(b.id))) {
    const t0 = performance.now();
    log(`running ${bench.id}...`);
    try {
      results.push(await bench.run(quick));
    } catch (error) {
      // One benchmark that cannot run must not hide the others' figures.
      results.push({ id: bench.id, title: bench.id, figures: [], notes: [], details: { error: (error as Error).stack ?? String(error) }, skipped: (error as Error).message.split('\n')[0] ?? 'failed' });
    }
    log(`  ${bench.id} took ${((performance.now() - t0) / 1000).toFixed(1)} s (load average ${loadAverage().join(' ')})`);
  }
  return { startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), durationMs: Math.round(performance.now() - start), mode: quick ? 'quick' : 'default', machine: { ...machine, loadAverageAtEnd: loadAverage() }, results };
}

/** Re-run this process under a shell that raised `ulimit -n`, when the soft limit is too low and the hard one allows it. */
function raiseOpenFiles(needed: number, argv: string[]): number | undefined {
  if (process.env['ADK_BENCH_ULIMIT_RAISED'] === '1') return undefined;
  const probe = spawnSync('sh', ['-c', 'ulimit -n; ulimit -Hn'], { encoding: 'utf8' });
  const [soft = '', hard = ''] = probe.stdout.trim().split('\n');
  const have = soft === 'unlimited' ? Infinity : Number(soft);
  if (!(have < needed)) return undefined;
  const max = hard === 'unlimited' ? Infinity : Number(hard);
  if (!(max >= needed)) {
    process.stderr.write(`bench: ulimit -n is ${soft} (hard ${hard}); the 4,000-stream step needs about ${needed}. Raise it (ulimit -n ${needed}) or run --quick; continuing, expect that step to fail.\n`);
    return undefined;
  }
  const result = spawnSync('sh', ['-c', `ulimit -n ${needed} && exec "$0" "$@"`, process.execPath, ...process.execArgv, ...argv], { stdio: 'inherit', env: { ...process.env, ADK_BENCH_ULIMIT_RAISED: '1' } });
  return result.status ?? 1;
}

const usage = `usage: npx tsx bench/main.ts [--quick] [--only ${benches.map((b) => b.id).join(',')}] [--out DIR] [ID ...]

Runs every benchmark (default: all but mock-short, which mock runs in full; ID ...: the same as
--only) and prints each figure next to its same-run baseline and the ratio. On 2 cores the others
take about 4 minutes (--quick, smaller sizes: about 1.5) and transformer-session and hanging about 2
more (2026-11-27, loaded). Writes DIR/bench-<time>.json, DIR/latest.json and DIR/latest.md (default DIR: reports/bench).`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { quick: { type: 'boolean' }, only: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n\n${usage}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) { process.stdout.write(`${usage}\n`); return 0; }
  const known = benches.map((b) => b.id);
  // `npm run bench -- hanging` reads as `--only hanging`.
  const named = [...(values.only?.split(',') ?? []), ...positionals.flatMap((p) => p.split(','))].map((s) => s.trim()).filter(Boolean);
  const ids = values.only !== undefined || positionals.length > 0 ? named : benches.filter((b) => b.partOf === undefined).map((b) => b.id);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length > 0 || ids.length === 0) { process.stderr.write(`bench: unknown benchmark ${unknown.join(', ') || '(none given)'}; choose from ${known.join(', ')}\n`); return 2; }
  const quick = values.quick === true;
  if (ids.includes('concurrency')) {
    const code = raiseOpenFiles(filesNeeded(concurrencyOptions(quick).steps), process.argv.slice(1));
    if (code !== undefined) return code;
  }
  const outDir = values.out ?? join(repoRoot, 'reports', 'bench');
  const report = await runBenches(ids, quick, (line) => process.stderr.write(`${line}\n`));
  mkdirSync(outDir, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const json = JSON.stringify(report, null, 2);
  writeFileSync(join(outDir, `bench-${stamp}.json`), json);
  writeFileSync(join(outDir, 'latest.json'), json);
  const m = report.machine;
  const machineLine = `machine: ${m.cores} cores (${m.cpuModel}), ${m.totalMemoryMB} MB, node ${m.node}, ${m.platform}; load average at start ${m.loadAverageAtStart.join(' ')}, at end ${m.loadAverageAtEnd.join(' ')}; ulimit -n ${m.openFilesLimit}`;
  writeFileSync(join(outDir, 'latest.md'), `${machineLine}\n\n${markdownTable(report.results)}\n`);
  process.stdout.write(`\n${terminalTable(report.results)}\n\n${machineLine}\nmode: ${report.mode}, ${(report.durationMs / 1000).toFixed(1)} s; JSON: ${join(outDir, `bench-${stamp}.json`)}\n`);
  const missed = report.results.flatMap((r) => r.figures.filter((f) => f.goal && !f.goal.met).map((f) => `${r.id}: ${f.name}`));
  if (missed.length > 0) process.stdout.write(`goals missed: ${missed.length} (see docs/performance.md)\n`);
  return report.results.some((r) => r.skipped !== undefined) ? 1 : 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main(process.argv.slice(2));
