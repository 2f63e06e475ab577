/**
 * docs/ci.md's pipelines, run locally: every shell step of the GitHub Actions workflow and of the
 * GitLab CI file, as written there (the YAML is parsed from the doc), in a fresh project whose
 * `npx adk-conformance` is this kit. `npm ci` is the only step left out (the kit is installed).
 * The reference transformer passes every step; a mutant fails its shard and the merge gate. The
 * ratchet: the mutant with the baseline `report baseline` writes from its report passes every step,
 * and the reference with that baseline fails the gate on the stale entries.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..');
const doc = readFileSync(join(repo, 'docs', 'ci.md'), 'utf8');
const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => load(m[1] ?? '') as Record<string, unknown>);

type GhStep = { run?: string; uses?: string };
type GhJob = { steps: GhStep[]; strategy?: { matrix?: { shard?: number[] } }; needs?: string };
type GlJob = { script?: string[]; parallel?: number; stage?: string };

const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

const emptyBaseline = { knownFailures: [] };

function project(target: Record<string, unknown>, baseline: unknown = emptyBaseline): string {
  const dir = mkdtempSync(join(tmpdir(), 'adk-ci-recipe-'));
  writeFileSync(join(dir, 'conformance-baseline.json'), JSON.stringify(baseline));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ci-recipe-project', version: '1.0.0', private: true }));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(join(repo, 'bin', 'adk-conformance.js'), join(dir, 'node_modules', '.bin', 'adk-conformance'));
  // The transformer's memory probe (11,000 runs in a process of its own) is left out: these tests are about the
  // pipelines' steps (shards, merge, gate, baseline), and ABE-MEM-001 is judged in its own tests
  // (harness/targets/transformer/memory.test.ts, the mutant suites). Without it this file took 26.3 s of CPU, with it 36.5 s.
  writeFileSync(join(dir, 'adk-conformance.config.json'), JSON.stringify({ target, level: 'must', generated: 0, scenarios: { skip: ['probe:transformer-memory'] } }));
  return dir;
}

const sh = (command: string, cwd: string, extra: Record<string, string> = {}) => {
  const r = spawnSync('bash', ['-euo', 'pipefail', '-c', command], { cwd, env: { ...env, ...extra, CI: 'true' }, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
};

const reference = { transformerModule: join(repo, 'harness/targets/transformer/reference.ts') };
const mutant = { transformerModule: join(repo, 'harness/mutants/transformer/modules/transformer-announces-call-previews.ts') };

type StepResult = { job: string; command: string; code: number | null; out: string };

function runGithub(target: Record<string, unknown>, inDir?: string): Array<StepResult> {
  const workflow = blocks.find((b) => 'jobs' in b && 'on' in b) as { jobs: Record<string, GhJob> };
  const dir = inDir ?? project(target);
  const results: Array<StepResult> = [];
  for (const [name, job] of Object.entries(workflow.jobs)) {
    for (const shard of job.strategy?.matrix?.shard ?? [undefined]) {
      for (const step of job.steps) {
        if (step.run === undefined || step.run.trim() === 'npm ci') continue;
        const command = step.run.replace(/\$\{\{\s*matrix\.shard\s*\}\}/g, String(shard));
        expect(command, `unexpanded expression in ${command}`).not.toContain('${{');
        results.push({ job: name, command, ...sh(command, dir) });
      }
    }
  }
  expect(existsSync(join(dir, 'reports', 'merged', 'report.html'))).toBe(true);
  expect(existsSync(join(dir, 'reports', 'merged', 'junit.xml'))).toBe(true);
  return Object.assign(results, { dir });
}

function runGitlab(target: Record<string, unknown>, baseline?: unknown): Array<StepResult> {
  const file = blocks.find((b) => 'stages' in b) as Record<string, unknown> & { stages: string[] };
  const dir = project(target, baseline);
  const results: Array<StepResult> = [];
  for (const stage of file.stages) {
    for (const [name, job] of Object.entries(file).filter(([, j]) => (j as GlJob)?.stage === stage) as Array<[string, GlJob]>) {
      const total = job.parallel ?? 1;
      for (let index = 1; index <= total; index++) {
        for (const command of job.script ?? []) {
          results.push({ job: name, command, ...sh(command, dir, job.parallel ? { CI_NODE_INDEX: String(index), CI_NODE_TOTAL: String(total) } : {}) });
        }
      }
    }
  }
  expect(existsSync(join(dir, 'reports', 'merged', 'junit.xml'))).toBe(true);
  return results;
}

describe('docs/ci.md recipes, run locally', () => {
  it('has a GitHub Actions workflow and a GitLab CI file', () => {
    expect(blocks.filter((b) => 'jobs' in b).length).toBe(1);
    expect(blocks.filter((b) => 'stages' in b).length).toBe(1);
  });

  it('GitHub Actions: the reference passes every shard and the merge gate', () => {
    const results = runGithub(reference);
    expect(results.map((r) => r.job)).toEqual(['certify', 'certify', 'gate']);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0]);
  }, 120_000);

  it('GitHub Actions: a broken transformer fails the merge gate; with the baseline written from its report, every step passes', () => {
    const results = runGithub(mutant) as StepResult[] & { dir: string };
    expect(results.at(-1)?.code).toBe(1);
    expect(results.slice(0, 2).some((r) => r.code === 1)).toBe(true);
    // Adoption: the baseline from the merged report, committed; the same code then passes every step, still non-compliant.
    const written = sh('npx adk-conformance report baseline reports/merged > conformance-baseline.json', results.dir);
    expect(written.code, written.out).toBe(0);
    const adopted = runGithub(mutant, results.dir);
    expect(adopted.map((r) => r.code), adopted.map((r) => r.out).join('\n')).toEqual([0, 0, 0]);
    expect(adopted.at(-1)?.out).toMatch(/^verdict: non-compliant \(.*baseline: \d+ known failures? baselined, 0 new, 0 stale entries.*exit 0\)/m);
  }, 240_000);

  it('GitLab CI: the reference passes both parallel shards and the gate', () => {
    const results = runGitlab(reference);
    expect(results.map((r) => [r.job, r.code])).toEqual([['certify', 0], ['certify', 0], ['gate', 0]]);
  }, 120_000);

  it('GitLab CI: the ratchet: a fixed failure left in the baseline fails the gate, naming the stale entry', () => {
    const baseline = { knownFailures: [{ requirement: 'ABE-CALL-001', reason: 'calls announced from partial previews', issue: 'https://example.com/issues/1' }] };
    const results = runGitlab(reference, baseline);
    // A shard cannot tell a stale entry: only the merged gate fails.
    expect(results.map((r) => [r.job, r.code])).toEqual([['certify', 0], ['certify', 0], ['gate', 1]]);
    expect(results.at(-1)?.out).toMatch(/STALE baseline entry ABE-CALL-001 \(conformance-baseline\.json \/knownFailures\/0\): ABE-CALL-001 now passes: remove its entry from conformance-baseline\.json/);
  }, 120_000);
});
