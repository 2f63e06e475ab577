/**
 * Fail fast, fail clearly (docs/harness.md "Fail fast"): an implementation that hangs on its first
 * scenarios is recognised after three of them, the rest are reported as not run with that reason,
 * and the verdict says non-compliant; a SIGTERM to the harness (a cancelled CI job) ends every
 * process it started before it exits.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-support.ts';

const hanging = `python3 ${join(import.meta.dirname, 'fixtures', 'hanging-transformer.py')}`;
const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

async function until(what: () => boolean, boundMs: number): Promise<boolean> {
  const end = Date.now() + boundMs;
  while (Date.now() < end) { if (what()) return true; await new Promise((r) => setTimeout(r, 50)); }
  return what();
}

describe('fail fast', () => {
  it('stops a transformer that hangs on its first three scenarios and reports every other scenario as not run, with the reason', async () => {
    const out = temp('adk-failfast-');
    const r = await runCli(['run', '--transformer-cmd', hanging, '--generated', '0', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^verdict: non-compliant/m);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      scenarios: Array<{ scenario: string; status: string; durationMs: number; error?: string }>;
      requirements: Array<{ id: string; status: string }>;
    };
    const ran = report.scenarios.filter((s) => !(s.error ?? '').startsWith('not run:'));
    expect(ran.map((s) => s.scenario)).toEqual(report.scenarios.slice(0, 3).map((s) => s.scenario));
    const skipped = report.scenarios.slice(3);
    expect(skipped.length).toBeGreaterThan(50);
    for (const s of skipped) {
      expect(s.status).toBe('errored');
      expect(s.durationMs).toBe(0);
      expect(s.error).toMatch(/^not run: the transformer hangs: it did not finish after its input ended on the first 3 scenarios in a row \(/);
    }
    // Nothing passes over no output: the hang fails ABE-TERM-001 and leaves the rest untested.
    expect(report.requirements.filter((q) => q.status === 'passed')).toEqual([]);
    expect(report.requirements.find((q) => q.id === 'ABE-TERM-001')?.status).toBe('failed');
  }, 120_000);

  it('ends every process it started when it is sent SIGTERM', async () => {
    const pids = temp('adk-pids-');
    const harness = spawn(process.execPath, ['bin/adk-conformance.js', 'run', '--transformer-cmd', hanging, '--generated', '0', '--out', temp('adk-sigterm-')], {
      env: { ...process.env, CI: '1', HANG_PID_DIR: pids }, stdio: 'ignore',
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => harness.on('close', (code, signal) => resolve({ code, signal })));
    try {
      expect(await until(() => readdirSync(pids).length > 0, 60_000)).toBe(true);
      const started = readdirSync(pids).map(Number);
      expect(started.every(alive)).toBe(true);
      harness.kill('SIGTERM');
      expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
      expect(await until(() => started.every((pid) => !alive(pid)), 5000)).toBe(true);
    } finally {
      harness.kill('SIGKILL');
    }
  }, 90_000);
});
