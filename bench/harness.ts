/**
 * The harness: wall time of `npm start` (the whole reference certification, spawned as a user
 * runs it), against the floor every `npm start` pays (npm, tsx and the CLI printing its help);
 * and per scenario, from the durations in the report.json it writes. Goal (issue 30): `npm start`
 * under 8 s on this 2-core machine (issue 7 asked 20 s, issue 14 5 s).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { repoRoot } from './lib/children.ts';
import { below, figure, type BenchResult, type Figure } from './lib/figures.ts';
import { median } from './lib/stats.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { admissionOfRun } from '../harness/engine.ts';
import type { Admission } from '../harness/engine-gate.ts';
import { createRunners } from '../harness/targets/index.ts';

/**
 * The ids (`probe:<id>` for probes) of the reference certification's runs that keep the shared load
 * away, by how they hold the engine's gate: `alone` ones one after another (however many cores,
 * `npm start` lasts at least as long as they do), `timed` ones beside each other only.
 */
export function gateRunIds(): Record<Exclude<Admission, 'shared'>, Set<string>> {
  const ids = { timed: new Set<string>(), alone: new Set<string>() };
  const add = (admission: Admission, id: string) => { if (admission !== 'shared') ids[admission].add(id); };
  for (const s of loadScenarios().scenarios) add(admissionOfRun({ scenario: s }), s.id);
  for (const r of createRunners({ reference: true, mockPort: 0 })) for (const p of r.probes ?? []) add(admissionOfRun({ probe: p }), `probe:${p.id}`);
  return ids;
}

/** A command to spawn; `{out}` in an argument is replaced by the report folder. */
export type Command = { file: string; args: string[] };

export type HarnessBenchOptions = {
  slowest: number;
  timeoutMs: number;
  /** Default `npm start -- --out {out}`; tests pass a stand-in that writes a report.json. */
  start?: Command;
  /** Default `npm start -- --help`: what every npm start pays before any work. */
  floor?: Command;
};

export const harnessBenchDefaults: HarnessBenchOptions = { slowest: 5, timeoutMs: 180_000 };

const npmStart: Command = { file: 'npm', args: ['start', '--', '--out', '{out}'] };
const npmFloor: Command = { file: 'npm', args: ['start', '--', '--help'] };

type Spawned = { wallMs: number; code: number | null; stdout: string; stderr: string };

function spawnTimed(command: Command, out: string, timeoutMs: number): Promise<Spawned> {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn(command.file, command.args.map((a) => a.replaceAll('{out}', out)), { cwd: repoRoot, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => { stdout = (stdout + t).slice(-16384); });
    child.stderr.setEncoding('utf8').on('data', (t: string) => { stderr = (stderr + t).slice(-16384); });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => { clearTimeout(timer); resolve({ wallMs: performance.now() - start, code: null, stdout, stderr: `${stderr}\n${error.message}` }); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ wallMs: performance.now() - start, code, stdout, stderr }); });
  });
}

type ScenarioResult = { scenario: string; part: string; status: string; durationMs: number };
type Report = { durationMs: number; passed: boolean; verdict: string; scenarios: ScenarioResult[] };

export async function benchHarness(options: HarnessBenchOptions = harnessBenchDefaults): Promise<BenchResult> {
  const out = mkdtempSync(join(tmpdir(), 'adk-bench-start-'));
  try {
    const floor = await spawnTimed(options.floor ?? npmFloor, out, options.timeoutMs);
    const run = await spawnTimed(options.start ?? npmStart, out, options.timeoutMs);
    let report: Report;
    try {
      report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    } catch (error) {
      return {
        id: 'harness', title: 'npm start (reference certification)', figures: [], notes: [], details: { floor, run: { ...run, stdout: run.stdout.slice(-2000) } },
        skipped: `npm start wrote no readable report.json (exit ${run.code}, ${Math.round(run.wallMs)} ms): ${(error as Error).message}; last output: ${(run.stderr || run.stdout).trim().split('\n').slice(-3).join(' | ')}`,
      };
    }
    const durations = report.scenarios.map((s) => s.durationMs);
    const typical = median(durations);
    const total = durations.reduce((a, b) => a + b, 0);
    const figures: Figure[] = [
      figure({ name: `npm start wall time (${report.scenarios.length} scenarios, verdict: ${report.verdict}, exit ${run.code})`, unit: 'ms', value: run.wallMs, baseline: { name: 'npm start -- --help (startup floor)', value: floor.wallMs }, goal: below(run.wallMs, 8_000, '< 8 s (issue 30)') }),
      figure({ name: 'certification time in report.json (engine, from start to verdict)', unit: 'ms', value: report.durationMs, baseline: { name: 'sum of scenario durations', value: total } }),
    ];
    const gateIds = gateRunIds();
    for (const [admission, label] of [['alone', 'runs that hold the gate alone, one after another (probes that measure the implementation against its own clock)'], ['timed', 'timed runs, beside each other only (timing-sensitive scenarios and the byte-case probe)']] as const) {
      const runs = report.scenarios.filter((s) => gateIds[admission].has(s.scenario));
      figures.push(figure({ name: `${label}: ${runs.length} runs, the sum of their durations`, unit: 'ms', value: runs.reduce((a, s) => a + s.durationMs, 0), baseline: { name: 'engine time', value: report.durationMs } }));
    }
    const byPart = new Map<string, number>();
    for (const s of report.scenarios) byPart.set(s.part, (byPart.get(s.part) ?? 0) + s.durationMs);
    for (const [part, ms] of byPart) figures.push(figure({ name: `scenario time, part ${part} (${report.scenarios.filter((s) => s.part === part).length} scenarios)`, unit: 'ms', value: ms, baseline: { name: 'all parts', value: total } }));
    for (const s of [...report.scenarios].sort((a, b) => b.durationMs - a.durationMs).slice(0, options.slowest)) {
      figures.push(figure({ name: `slow scenario ${s.scenario} (${s.part}, ${s.status})`, unit: 'ms', value: s.durationMs, baseline: { name: 'median scenario', value: typical } }));
    }
    return {
      id: 'harness',
      title: 'npm start (reference certification) and its scenarios',
      figures,
      notes: [
        'npm start -- --out <temp dir> spawned from the repository root (reports/latest/ is left alone); the floor is npm start -- --help',
        `per scenario: durationMs from report.json; ${report.scenarios.length} scenarios, sum ${Math.round(total)} ms against ${report.durationMs} ms of engine time (parts run side by side)`,
      ],
      details: { floorMs: floor.wallMs, wallMs: run.wallMs, exitCode: run.code, engineMs: report.durationMs, verdict: report.verdict, scenarios: report.scenarios.map((s) => ({ scenario: s.scenario, part: s.part, status: s.status, durationMs: s.durationMs })) },
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
