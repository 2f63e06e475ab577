/**
 * A certification spawned as a user runs it (`node bin/adk-conformance.js run ...` from the
 * repository root, CI=1, reports to a temp dir), timed from spawn to exit. `python3` is the
 * interpreter itself (scripts/python-first.ts, as in the tests): through pyenv's shim every one of
 * the hundreds of starts would cost the shim's ~350 ms, which is not the kit's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pythonFirst } from '../../scripts/python-first.ts';
import { repoRoot } from './children.ts';

let resolvedPath: string | undefined;
export const pythonPath = () => (resolvedPath ??= pythonFirst(process.env.PATH ?? ''));

export type ReportScenario = { scenario: string; part: string; status: string; durationMs: number; error?: string };
/** What a bench reads of the report.json (undefined when the run wrote none). */
export type CertReport = { durationMs: number; verdict: string; scenarios: ReportScenario[] };
export type Timed = { wallMs: number; code: number | null; stdout: string; report: CertReport | undefined };

function readReport(out: string): CertReport | undefined {
  try { return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as CertReport; } catch { return undefined; }
}

export function runCertification(args: readonly string[], timeoutMs: number): Promise<Timed> {
  const out = mkdtempSync(join(tmpdir(), 'adk-bench-certify-'));
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['bin/adk-conformance.js', 'run', ...args, '--out', out], { cwd: repoRoot, env: { ...process.env, PATH: pythonPath(), CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => { stdout = (stdout + t).slice(-65536); });
    child.stderr.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      const wallMs = performance.now() - start;
      clearTimeout(timer);
      const report = readReport(out);
      rmSync(out, { recursive: true, force: true });
      resolve({ wallMs, code, stdout, report });
    });
  });
}

/** The verdict word(s) a certification printed ("fully compliant", "non-compliant"), or why there is none. */
export const verdictOf = (t: Timed) => /^verdict: ([^(]+)/m.exec(t.stdout)?.[1]?.trim() ?? `none (exit ${t.code})`;

/** How many runs the certification made ("105"), from its `runs: n/N` line (`scenarios: n/N` before issue 31). */
export const runsOf = (t: Timed) => /^(?:runs|scenarios): \d+\/(\d+)/m.exec(t.stdout)?.[1] ?? '?';
