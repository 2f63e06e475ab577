import { describe, expect, test } from 'vitest';
import type { Scenario } from '../schemas/types.ts';
import { runConformance, type EngineOptions } from './engine.ts';
import { isTimingDependent, reconcile } from './engine-confirm.ts';
import type { CheckOutcome, Requirement, ScenarioResult } from './model.ts';
import type { PartRunner } from './targets/types.ts';

const req = (id: string, tags: string[] = []): Requirement => ({ id, part: 'transformer', level: 'MUST', tags, title: `${id} holds`, quote: 'q', source: { doc: 'seed-001', section: 'x' } });
const scenario = (id: string, tags: string[] = []): Scenario => ({ id, tags, family: 'completion' } as unknown as Scenario);
const fail = (requirement: string, scenarioId: string, code = 'late-completion'): CheckOutcome => ({ requirement, scenario: scenarioId, status: 'failed', findings: [{ requirement, code, path: '', message: 'completed 14 s after the final answer' }] });
const pass = (requirement: string, scenarioId: string): CheckOutcome => ({ requirement, scenario: scenarioId, status: 'passed', findings: [] });
const timing = (s: Scenario) => s.tags.includes('idle');

describe('isTimingDependent', () => {
  test('a clock-reading finding code, a timing tag or a timing scenario makes a failure timing-dependent; a schema finding does not', () => {
    expect(isTimingDependent(fail('X', 's', 'hang'), req('X'), scenario('s'), timing)).toBe(true);
    expect(isTimingDependent(fail('X', 's', 'timed-out'), req('X'), scenario('s'), timing)).toBe(true);
    expect(isTimingDependent(fail('X', 's', 'schema-invalid'), req('X', ['missing-done']), scenario('s'), timing)).toBe(true);
    expect(isTimingDependent(fail('X', 's', 'schema-invalid'), req('X'), scenario('s', ['idle']), timing)).toBe(true);
    expect(isTimingDependent(fail('X', 's', 'schema-invalid'), req('X', ['schema']), scenario('s'), timing)).toBe(false);
    // "timestamp" is not a clock bound: only whole words of the code count.
    expect(isTimingDependent(fail('X', 's', 'timestamp-missing'), req('X'), scenario('s'), timing)).toBe(false);
  });
});

describe('reconcile', () => {
  const first: ScenarioResult = { scenario: 's', part: 'transformer', status: 'failed', durationMs: 1, timeline: [], replay: 'r', outcomes: [fail('T-1', 's'), pass('T-2', 's')] };
  test('a failure the repeat reproduces stands, with a note', () => {
    const r = reconcile(first, ['T-1'], { outcomes: [fail('T-1', 's'), pass('T-2', 's')], timeline: [] }, 5);
    expect(r.outcomes[0]?.status).toBe('failed');
    expect(r.status).toBe('failed');
    expect(r.timeline.at(-1)?.summary).toBe('T-1: failure confirmed when repeated alone');
  });
  test('a failure the repeat passes is flaky, its findings kept as evidence and the reason naming the first finding', () => {
    const r = reconcile(first, ['T-1'], { outcomes: [pass('T-1', 's'), pass('T-2', 's')], timeline: [] }, 5);
    expect(r.outcomes[0]).toMatchObject({ status: 'flaky', findings: first.outcomes[0]!.findings });
    expect(r.outcomes[0]?.reason).toMatch(/^failed in this scenario's first run \(late-completion: completed 14 s after the final answer\), then passed when the run was repeated alone/);
    expect(r.status).toBe('failed');
  });
  test('a repeat that cannot judge (timeout, error, untested) leaves the failure standing', () => {
    for (const repeat of ['timeout' as const, new Error('boom'), { outcomes: [], timeline: [] }]) {
      expect(reconcile(first, ['T-1'], repeat, 5).outcomes[0]?.status).toBe('failed');
    }
  });
});

describe('the engine repeats timing failures alone', () => {
  const requirements = [req('T-1', ['missing-done']), req('T-2', ['schema'])];
  const options = (run: PartRunner['runScenario']): EngineOptions => ({
    runners: [{ part: 'transformer', description: 't', applies: () => true, runScenario: run }],
    scenarios: [scenario('s1'), scenario('s2')], requirements, mutantKills: {}, mockUrl: 'http://127.0.0.1:1', gate: { level: 'must', untestedFails: true },
    seed: 1, scenarioTimeoutMs: 2_000, replayBase: 'run', targetDescription: 't', version: '0', jobs: 2,
  });

  test('a timing failure that passes alone is flaky: the requirement is flaky and the verdict non-compliant, never passed', async () => {
    let calls = 0;
    const result = await runConformance(options(async (s) => {
      calls += 1;
      // The first run of s1 misses the window (a busy machine); its repeat does not.
      return { outcomes: [calls === 1 && s.id === 's1' ? fail('T-1', s.id) : pass('T-1', s.id), pass('T-2', s.id)], timeline: [] };
    }));
    const t1 = result.requirements.find((r) => r.id === 'T-1');
    expect(t1?.status).toBe('flaky');
    expect(t1?.reason).toMatch(/^s1: failed in this scenario's first run/);
    expect(result.counts.requirements.MUST.flaky).toBe(1);
    expect(result.verdict).toBe('non-compliant');
    expect(calls).toBe(3);
  });

  test('a timing failure that reproduces alone fails; a non-timing failure is not repeated', async () => {
    let calls = 0;
    const result = await runConformance(options(async (s) => {
      calls += 1;
      return { outcomes: [s.id === 's1' ? fail('T-1', s.id) : pass('T-1', s.id), s.id === 's2' ? fail('T-2', s.id, 'schema-invalid') : pass('T-2', s.id)], timeline: [] };
    }));
    expect(result.requirements.map((r) => [r.id, r.status])).toEqual([['T-1', 'failed'], ['T-2', 'failed']]);
    expect(result.scenarios.find((s) => s.scenario === 's1')?.timeline.at(-1)?.summary).toBe('T-1: failure confirmed when repeated alone');
    // s1 twice (its timing failure confirmed), s2 once (a schema failure is not the clock's doing).
    expect(calls).toBe(3);
  });

  test('a requirement whose timing failure reproduced alone twice is not repeated again (the defect is shown), and the timeline says so', async () => {
    let calls = 0;
    const many = { ...options(async (s) => { calls += 1; return { outcomes: [fail('T-1', s.id), pass('T-2', s.id)], timeline: [] }; }), scenarios: ['s1', 's2', 's3', 's4'].map((id) => scenario(id)) };
    const result = await runConformance(many);
    expect(result.requirements.find((r) => r.id === 'T-1')?.status).toBe('failed');
    expect(calls).toBe(4 + 2);
    expect(result.scenarios.find((s) => s.scenario === 's4')?.timeline.at(-1)?.summary).toBe('T-1: not repeated, its timing failure already reproduced alone in s1 and s2');
  });

  test('an implementation the engine found unusable (fatal: hung, crashed) is not repeated', async () => {
    let calls = 0;
    const result = await runConformance({ ...options(async (s) => { calls += 1; return { outcomes: [fail('T-1', s.id, 'hang'), pass('T-2', s.id)], timeline: [], ...(s.id === 's1' ? { fatal: { signature: 'hang', reason: 'hung' } } : {}) }; }) });
    expect(result.requirements.find((r) => r.id === 'T-1')?.status).toBe('failed');
    // s1 (fatal) once, s2 once and its repeat.
    expect(calls).toBe(3);
  });

  test('confirmTiming: false reports the first run as it was', async () => {
    let calls = 0;
    const result = await runConformance({ ...options(async (s) => { calls += 1; return { outcomes: [calls === 1 ? fail('T-1', s.id) : pass('T-1', s.id), pass('T-2', s.id)], timeline: [] }; }), confirmTiming: false });
    expect(result.requirements.find((r) => r.id === 'T-1')?.status).toBe('failed');
    expect(calls).toBe(2);
  });
});

describe('the engine repeats a job that overran its bound alone', () => {
  const requirements = [req('T-1', ['schema']), req('T-2', ['schema'])];
  const options = (run: PartRunner['runScenario'], ids = ['s1', 's2']): EngineOptions => ({
    runners: [{ part: 'transformer', description: 't', applies: () => true, runScenario: run }],
    scenarios: ids.map((id) => scenario(id)), requirements, mutantKills: {}, mockUrl: 'http://127.0.0.1:1', gate: { level: 'must', untestedFails: true },
    seed: 1, scenarioTimeoutMs: 200, replayBase: 'run', targetDescription: 't', version: '0', jobs: 2,
  });
  /** A run that outlives any bound: it settles only once the engine gives up on it. */
  const overrun = (signal: AbortSignal) => new Promise<never>((_, reject) => signal.addEventListener('abort', () => setTimeout(() => reject(new Error('stopped')), 1_000)));
  const passes = (id: string) => ({ outcomes: [pass('T-1', id), pass('T-2', id)], timeline: [] });

  test('an overrun beside the other runs that finishes alone is judged by the repeat, with a note of the overrun', async () => {
    let calls = 0;
    const result = await runConformance(options(async (s, env) => {
      calls += 1;
      // The first run of s1 overruns (the machine was busy); its repeat alone does not.
      return calls === 1 && s.id === 's1' ? overrun(env.signal) : passes(s.id);
    }));
    const s1 = result.scenarios.find((s) => s.scenario === 's1');
    expect(s1?.status).toBe('passed');
    expect(s1?.timeline[0]?.summary).toBe('timed out: the scenario did not finish within 200 ms (raise it with --timeout-ms) beside the other runs; repeated alone: passed');
    expect(result.verdict).toBe('fully compliant');
    expect(calls).toBe(3);
  });

  test('a run the machine kept from being judged (ScenarioCheck.machine) is repeated alone too, and the repeat is its result', async () => {
    let calls = 0;
    const stalled = 'not judged: the harness could not feed the frames on time';
    const result = await runConformance(options(async (s) => {
      calls += 1;
      return calls === 1 && s.id === 's1'
        ? { outcomes: [{ requirement: 'T-1', scenario: s.id, status: 'untested' as const, findings: [], reason: stalled }], timeline: [], machine: stalled }
        : passes(s.id);
    }));
    const s1 = result.scenarios.find((s) => s.scenario === 's1');
    expect(s1?.status).toBe('passed');
    expect(s1?.timeline[0]?.summary).toContain(`${stalled} beside the other runs; repeated alone: passed`);
    expect(result.verdict).toBe('fully compliant');
    expect(calls).toBe(3);
  });

  test('in a narrowed run, what is in the selection is what the repeat exercised, not every requirement the overrun left untested', async () => {
    let calls = 0;
    const result = await runConformance({ ...options(async (s, env) => {
      calls += 1;
      return calls === 1 && s.id === 's1' ? overrun(env.signal) : { outcomes: [pass('T-1', s.id)], timeline: [] };
    }), grep: ['s1', 's2'] });
    expect(result.requirements.map((r) => [r.id, r.status])).toEqual([['T-1', 'passed'], ['T-2', 'not-applicable']]);
    expect(result.verdict).toBe('fully compliant');
  });

  test('once a repeat alone overruns too, the other overruns stand, unrepeated, and say why', async () => {
    let calls = 0;
    const result = await runConformance(options(async (s, env) => { calls += 1; return s.id === 's3' ? passes(s.id) : overrun(env.signal); }, ['s1', 's2', 's3']));
    expect(result.scenarios.map((s) => [s.scenario, s.status])).toEqual([['s1', 'errored'], ['s2', 'errored'], ['s3', 'passed']]);
    expect(result.scenarios.find((s) => s.scenario === 's1')?.timeline[0]?.summary).toMatch(/beside the other runs; repeated alone: errored \(timed out/);
    expect(result.scenarios.find((s) => s.scenario === 's2')?.timeline.at(-1)?.summary).toBe('not repeated alone: s1 overran its bound alone too, so an overrun is this implementation\'s');
    // s1, s2, s3, then s1 alone; s2 not again.
    expect(calls).toBe(4);
  });
});
