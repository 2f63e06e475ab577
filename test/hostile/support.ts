/**
 * Running one hostile case: the real CLI (`node bin/adk-conformance.js run ...`) as a child process
 * against a misbehaving implementation from test/hostile/impls/, and what the battery asserts about
 * it: the exit status, the verdict line, the reasons in report.json, the wall time, and the processes
 * left behind (found in /proc by a marker unique to the case, which every hostile command line
 * carries as an ignored argument).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const impl = (file: string): string => `test/hostile/impls/${file}`;

/**
 * CLI start and report writing on a loaded two-core machine: the part of the bound no flag sets. 15 s
 * until a clean-clone CI on a slow machine (2026-11-30) took 27.8 s for the never-exiting normaliser,
 * 12 s of it its runs' bounds.
 */
export const cliAllowanceMs = 20_000;

export type HostileRun = {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** The test had to kill the CLI: it outlived twice its bound (a hang). */
  killedByTest: boolean;
  /** Every finding message, untested reason and scenario error of report.json. */
  reasons: string[];
  /** Processes whose command line holds the case's marker, still alive after the CLI exited. */
  survivors: string[];
};

export function newMarker(name: string): string {
  return `hostile-${name}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Live processes (zombies excluded: they are gone, only not yet reaped) whose command line holds `marker`. */
export function processesWith(marker: string): Array<{ pid: number; cmdline: string }> {
  const found: Array<{ pid: number; cmdline: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (!cmdline.includes(marker)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      found.push({ pid: Number(entry), cmdline });
    } catch { /* it ended while we looked */ }
  }
  return found;
}

/** Stop what a failed case left behind (only processes carrying this case's marker, by pid). */
export function killLeftovers(marker: string): void {
  for (const p of processesWith(marker)) {
    try { process.kill(p.pid, 'SIGKILL'); } catch { /* already gone */ }
  }
}

type ReportShape = {
  requirements?: Array<{ reason?: string; findings?: Array<{ message?: string }> }>;
  scenarios?: Array<{ error?: string; outcomes?: Array<{ reason?: string; findings?: Array<{ message?: string }> }> }>;
};

function reasonsOf(reportPath: string): string[] {
  if (!existsSync(reportPath)) return [];
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as ReportShape;
  const out: string[] = [];
  for (const r of report.requirements ?? []) {
    if (r.reason) out.push(r.reason);
    for (const f of r.findings ?? []) if (f.message) out.push(f.message);
  }
  for (const s of report.scenarios ?? []) {
    if (s.error) out.push(s.error);
    for (const o of s.outcomes ?? []) {
      if (o.reason) out.push(o.reason);
      for (const f of o.findings ?? []) if (f.message) out.push(f.message);
    }
  }
  return [...new Set(out)];
}

/** At most `n` CLI runs at once: the battery shares two cores with the other tests. */
export function createLimiter(n: number): <T>(work: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try { return await work(); } finally { active--; waiting.shift()?.(); }
  };
}

/**
 * `adk-conformance run <args> --out <tmp> --reporter json`, as a user runs it. The CLI is killed
 * (and the run reported as killed) if it outlives `killAfterMs`, so a hang fails the case instead
 * of the whole test file.
 */
export function runCli(args: string[], marker: string, killAfterMs: number): Promise<HostileRun> {
  const out = mkdtempSync(join(tmpdir(), 'adk-hostile-'));
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/adk-conformance.js', 'run', ...args, '--out', out, '--reporter', 'json'], {
      cwd: repoRoot, env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killedByTest = false;
    const guard = setTimeout(() => { killedByTest = true; child.kill('SIGKILL'); }, killAfterMs);
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString('utf8'); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString('utf8'); });
    child.on('close', (code) => {
      clearTimeout(guard);
      const wallMs = Math.round(performance.now() - started);
      const reasons = reasonsOf(join(out, 'report.json'));
      rmSync(out, { recursive: true, force: true });
      resolve({ code, stdout, stderr, wallMs, killedByTest, reasons, survivors: processesWith(marker).map((p) => `${p.pid} ${p.cmdline}`) });
    });
  });
}

/** A Node stack frame or V8's fatal-error banner: what a crashed harness prints. */
export const crashPattern = /^\s+at .+:\d+:\d+\)?$|FATAL ERROR|Unhandled|uncaught/im;
