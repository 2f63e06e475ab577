/**
 * Generated runs certified by the harness can fail, and fail small: a transformer mutant that
 * announces delegations as EXECUTING fails generated runs, and the `generated` probe shrinks the
 * first one to the smallest run that still fails ABE-LIFE-007, reported with the seed and the replay
 * line; the reference module passes the same runs. Then the same through the CLI's --generated flag.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../mock-adk/server/start.ts';
import type { Scenario } from '../../schemas/types.ts';
import { runConformance } from '../engine.ts';
import { generatedBatch } from '../generated.ts';
import type { Finding, RunResult } from '../model.ts';
import { requirements } from '../requirements/index.ts';
import { withGeneratedRuns } from './generated.ts';
import { createTransformerRunner, referenceTransformerModule } from './transformer/runner.ts';

const seed = 11;
const count = 10;
const batch = generatedBatch(count, seed);
const mutant = fileURLToPath(new URL('../mutants/transformer/modules/transformer-delegation-as-executing.ts', import.meta.url));
const replayBase = 'npx adk-conformance run --transformer-module mutant.ts';
let mock: RunningMock;

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios: batch.scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

function certify(module: string): Promise<RunResult> {
  return runConformance({
    runners: [withGeneratedRuns(createTransformerRunner({ module }, { idleMs: 200, toleranceMs: 400 }), { batch, replayBase, shrink: true })],
    scenarios: batch.scenarios,
    requirements: [...requirements.values()],
    mutantKills: {},
    mockUrl: mock.url,
    gate: { level: 'must', untestedFails: true },
    seed,
    scenarioTimeoutMs: 20_000,
    grep: ['generated'],
    replayBase,
    targetDescription: 'transformer module',
    version: 'test',
  });
}

const stepsOf = (s: Scenario): unknown[] => (s.upstream.kind === 'run' ? s.upstream.steps : []);

describe(`generated runs through the harness (fast-check seed ${seed}, ${count} runs)`, () => {
  it('the reference transformer passes every generated run, and the shrink probe, with nothing to shrink, is not listed', async () => {
    const result = await certify(referenceTransformerModule);
    const generated = result.scenarios.filter((s) => s.scenario.startsWith('generated_'));
    expect(generated).toHaveLength(count);
    expect(generated.filter((s) => s.status !== 'passed').map((s) => s.scenario)).toEqual([]);
    // The shrink probe reports only a failure: with none it observed nothing and is left out of the run.
    expect(result.scenarios.find((s) => s.scenario === 'probe:generated')).toBeUndefined();
  }, 60_000);

  it('a mutant fails generated runs and the first failure shrinks to a small run, reported with seed and replay', async () => {
    const result = await certify(mutant);
    const failedRuns = result.scenarios.filter((s) => s.scenario.startsWith('generated_') && s.status === 'failed');
    expect(failedRuns.length).toBeGreaterThan(0);
    const probe = result.scenarios.find((s) => s.scenario === 'probe:generated');
    expect(probe?.status).toBe('failed');
    const summary = probe?.outcomes.flatMap((o) => o.findings).find((f) => f.code === 'generated-run-fails') as Finding;
    expect(summary.requirement).toBe('ABE-LIFE-007');
    expect(summary.message).toMatch(/^generated run \d+ of 10 \(seed 11\) fails ABE-LIFE-007; shrunk in \d+ step\(s\) over \d+ run\(s\) to: /);
    expect(summary.replay).toBe(`${replayBase} --generated 10 --seed 11 --grep generated`);
    const first = Number(/^generated run (\d+)/.exec(summary.message)?.[1]);
    expect(failedRuns.map((s) => s.scenario)).toContain(`generated_${first}`);
    const { counterexample } = summary.actual as { counterexample: Scenario };
    // One specialist call, its result, the answer: nothing smaller announces a delegation.
    expect(stepsOf(counterexample).length).toBeLessThanOrEqual(3);
    expect(stepsOf(counterexample).length).toBeLessThanOrEqual(stepsOf(batch.scenarios[first] as Scenario).length);
    expect(counterexample.faults ?? []).toEqual([]);
    const details = probe?.outcomes.flatMap((o) => o.findings).filter((f) => f.code === 'delegation-missing') ?? [];
    expect(details.length).toBeGreaterThan(0);
    expect(probe?.timeline.map((e) => e.summary).join('\n')).toMatch(/counterexample: \{"id":"gen_[0-9a-f]{8}"/);
    // The requirement result carries the shrunk report too.
    expect(result.requirements.find((r) => r.id === 'ABE-LIFE-007')?.findings.some((f) => f.code === 'generated-run-fails')).toBe(true);
  }, 90_000);
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/adk-conformance.js', 'run', ...args], { cwd: fileURLToPath(new URL('../../', import.meta.url)), env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString('utf8'); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString('utf8'); });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('adk-conformance run --generated', () => {
  const out = mkdtempSync(join(tmpdir(), 'adk-generated-cli-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it(`certifies a module on ${6} generated runs, prints the shrunk run and the replay line, and exits 1`, async () => {
    // ABE-LIFE-007 is a SHOULD (issue 28: seed 002's lifecycle diagram states no rule), so the gate is should.
    const { code, stdout, stderr } = await cli(['--transformer-module', mutant, '--generated', '6', '--seed', String(seed), '--grep', 'generated', '--level', 'should', '--out', out, '--reporter', 'json']);
    expect(code, stderr).toBe(1);
    expect(stdout).toMatch(/6 of them fast-check generated runs\); seed 11/);
    expect(stdout).toMatch(/fails ABE-LIFE-007; shrunk in \d+ step\(s\)/);
    expect(stdout).toMatch(/replay: npx adk-conformance run --transformer-module \S+transformer-delegation-as-executing\.ts .*--generated 6 --seed 11 --grep generated/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
    expect(report.scenarios.some((s) => s.scenario === 'probe:generated' && s.status === 'failed')).toBe(true);
  }, 90_000);

  it('refuses a count that is not a non-negative integer, and a generated grep when none are drawn (exit 2)', async () => {
    const bad = await cli(['--generated', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--generated must be an integer from 0 to 10000, got 'many'/);
    const none = await cli(['--transformer-module', mutant, '--generated', '0', '--grep', 'generated', '--out', out]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--grep generated matches no requirement id or tag/);
  }, 60_000);
});
