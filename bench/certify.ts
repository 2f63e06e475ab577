/**
 * Certification wall time as a team's CI pays it (issue 14), each spawned as a user runs it:
 * - the example Python transformer on the corpus and the default 20 generated runs, at the default
 *   --jobs, against the same certification at --jobs 1 in the same run (what side-by-side scenarios
 *   buy); goal < 8 s;
 *   It is also set against its spawn floor: the same number of transformer processes (counted in
 *   the certification itself), each started with no input and waited for, as many at once as
 *   there are cores: what the runs cost however little the harness did around them;
 * The command runs in the form the harness detects (the example speaks the session form, so few
 * starts); bench/transformer-session.ts sets the forms against each other and bench/hanging.ts
 * times a hanging transformer's verdict.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pythonPath, runCertification as run, runsOf, verdictOf } from './lib/certify-run.ts';
import { repoRoot } from './lib/children.ts';
import { below, figure, type BenchResult } from './lib/figures.ts';

export type CertifyBenchOptions = { generated: number; timeoutMs: number; /** The certified target's flags (default the Python example); the smoke test narrows it. */ target?: string[] };
export const certifyBenchDefaults: CertifyBenchOptions = { generated: 20, timeoutMs: 300_000 };

/** Start `command` (through sh, as the harness does) `count` times, `lanes` at once, each with no input. */
async function spawnFloor(command: string, count: number, lanes: number): Promise<number> {
  const start = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next += 1;
      await new Promise<void>((resolve) => {
        const child = spawn('sh', ['-c', command], { cwd: repoRoot, env: { ...process.env, PATH: pythonPath() }, stdio: ['ignore', 'ignore', 'ignore'] });
        child.on('close', () => resolve());
        child.on('error', () => resolve());
      });
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return performance.now() - start;
}

export async function benchCertify(options: CertifyBenchOptions = certifyBenchDefaults): Promise<BenchResult> {
  const example = [...(options.target ?? ['--transformer-cmd', 'python3 examples/python-transformer/transformer.py']), '--generated', String(options.generated)];
  const side = await run(example, options.timeoutMs);
  // The same certification again, its command counting its own starts (one line each).
  const command = example[0] === '--transformer-cmd' ? example[1] as string : undefined;
  const floor = command === undefined ? undefined : await (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-bench-starts-'));
    const counter = join(dir, 'starts');
    const counted = await run(['--transformer-cmd', `echo >> ${counter}; exec ${command}`, ...example.slice(2)], options.timeoutMs);
    const starts = counted.code === null ? 0 : readFileSync(counter, 'utf8').length;
    rmSync(dir, { recursive: true, force: true });
    return { starts, wallMs: await spawnFloor(command, starts, availableParallelism()), counted: { wallMs: counted.wallMs, code: counted.code } };
  })();
  const serial = await run([...example, '--jobs', '1'], options.timeoutMs);
  const runs = runsOf(side);
  return {
    id: 'certify',
    title: 'certification wall time: the example Python transformer',
    figures: [
      figure({ name: `certify examples/python-transformer (${runs} scenario runs incl. ${options.generated} generated; verdict: ${verdictOf(side)})`, unit: 'ms', value: side.wallMs, baseline: { name: '--jobs 1, same run', value: serial.wallMs }, goal: below(side.wallMs, 8000, '< 8 s') }),
      ...(floor ? [figure({ name: `the same certification against its spawn floor: ${floor.starts} starts of the transformer command (counted in the run), each with no input, ${availableParallelism()} at once`, unit: 'ms', value: side.wallMs, baseline: { name: 'spawn floor, same run', value: floor.wallMs } })] : []),
    ],
    notes: ['each spawned as `node bin/adk-conformance.js run ...` from the repository root, CI=1, reports to a temp dir; --jobs at its default (2 x cores, at most 8) unless said'],
    details: { example: { wallMs: side.wallMs, code: side.code }, ...(floor ? { spawnFloor: floor } : {}), exampleJobs1: { wallMs: serial.wallMs, code: serial.code } },
  };
}
