import { describe, expect, test } from 'vitest';
import type { Scenario } from '../schemas/types.ts';
import { aggregate, runConformance, type EngineOptions } from './engine.ts';
import type { CheckOutcome, Requirement } from './model.ts';
import type { PartRunner } from './targets/types.ts';

const req = (id: string, part: Requirement['part'], level: Requirement['level'] = 'MUST', tags: string[] = []): Requirement => ({
  id, part, level, tags, title: `${id} holds`, quote: 'q', source: { doc: 'seed-004', section: 'HTTP Headers' },
});
const scenario = (id: string, tags: string[] = []): Scenario => ({ id, tags, family: 'streaming' } as unknown as Scenario);
const outcome = (requirement: string, scenario: string, status: CheckOutcome['status']): CheckOutcome => ({
  requirement, scenario, status, findings: status === 'failed' ? [{ requirement, code: 'x', path: '', message: 'broken' }] : [],
});

const requirements = [req('GW-A-001', 'gateway'), req('GW-B-001', 'gateway', 'SHOULD', ['headers']), req('TR-A-001', 'transformer')];

function runner(part: PartRunner['part'], run: PartRunner['runScenario'], extra: Partial<PartRunner> = {}): PartRunner {
  return { part, description: part, applies: () => true, runScenario: run, ...extra };
}

function options(runners: PartRunner[], extra: Partial<EngineOptions> = {}): EngineOptions {
  return {
    runners, scenarios: [scenario('s1'), scenario('s2', ['slowish']), scenario('s3')], requirements,
    mutantKills: { 'm-a': ['GW-A-001'] }, mockUrl: 'http://127.0.0.1:1', gate: { level: 'must', untestedFails: true },
    seed: 7, scenarioTimeoutMs: 2_000, replayBase: 'npx adk-conformance run', targetDescription: 't', version: '0.0.0', ...extra,
  };
}

const passAll = async (s: Scenario) => ({ outcomes: [outcome('GW-A-001', s.id, 'passed'), outcome('GW-B-001', s.id, 'passed')], timeline: [] });

describe('runConformance', () => {
  test('a part that passes every requirement is fully compliant for that part; other parts are not applicable', async () => {
    const result = await runConformance(options([runner('gateway', passAll)]));
    expect(result.requirements.map((r) => [r.id, r.status])).toEqual([['GW-A-001', 'passed'], ['GW-B-001', 'passed'], ['TR-A-001', 'not-applicable']]);
    expect(result.verdict).toBe('fully compliant');
    expect(result.passed).toBe(true);
    expect(result.requirements.find((r) => r.id === 'GW-A-001')?.provenBy).toEqual(['m-a']);
    expect(result.counts.unproven).toBe(1);
  });

  test('one failed outcome fails the requirement and the findings carry the scenario and a replay line', async () => {
    const result = await runConformance(options([runner('gateway', async (s) => ({ outcomes: [outcome('GW-A-001', s.id, s.id === 's2' ? 'failed' : 'passed')], timeline: [] }))]));
    const a = result.requirements.find((r) => r.id === 'GW-A-001')!;
    expect(a.status).toBe('failed');
    expect(a.findings[0]).toMatchObject({ scenario: 's2', replay: 'npx adk-conformance run --grep s2 --seed 7' });
    expect(result.verdict).toBe('non-compliant');
    expect(result.passed).toBe(false);
  });

  test('a requirement nothing exercised is untested and fails the verdict', async () => {
    const result = await runConformance(options([runner('gateway', async (s) => ({ outcomes: [outcome('GW-A-001', s.id, 'passed')], timeline: [] }))]));
    expect(result.requirements.find((r) => r.id === 'GW-B-001')).toMatchObject({ status: 'untested', reason: 'no scenario or probe exercised it' });
    expect(result.verdict).toBe('MUST-compliant');
  });

  test('a scenario that outlives its bound is errored and its requirements untested, and the run goes on', async () => {
    const hang = runner('gateway', (s, env) => (s.id === 's2' ? new Promise((resolve) => env.signal.addEventListener('abort', () => resolve({ outcomes: [], timeline: [] }))) .then(() => new Promise<never>(() => {})) : passAll(s)));
    const result = await runConformance(options([hang], { scenarioTimeoutMs: 200 }));
    const s2 = result.scenarios.find((s) => s.scenario === 's2')!;
    expect(s2.status).toBe('errored');
    expect(s2.error).toMatch(/did not finish within 200 ms/);
    expect(result.scenarios.find((s) => s.scenario === 's3')?.status).toBe('passed');
  });

  test('a runner that throws is a harness error for that scenario, never a crash', async () => {
    const result = await runConformance(options([runner('gateway', async (s) => { if (s.id === 's1') throw new Error('boom'); return passAll(s); })]));
    expect(result.scenarios.find((s) => s.scenario === 's1')).toMatchObject({ status: 'errored', error: 'harness error: boom' });
    expect(result.requirements.find((r) => r.id === 'GW-A-001')?.status).toBe('passed');
  });

  test('a requirement grep narrows the requirements; a scenario grep narrows the scenarios', async () => {
    const byReq = await runConformance(options([runner('gateway', passAll)], { grep: ['headers'] }));
    expect(byReq.requirements.map((r) => r.id)).toEqual(['GW-B-001']);
    const byScenario = await runConformance(options([runner('gateway', passAll)], { grep: ['slowish'] }));
    expect(byScenario.scenarios.map((s) => s.scenario)).toEqual(['s2']);
  });

  test('shards split the scenarios without overlap and cover them all', async () => {
    const ids = await Promise.all([1, 2].map(async (index) => (await runConformance(options([runner('gateway', passAll)], { shard: { index, total: 2 } }))).scenarios.map((s) => s.scenario)));
    expect(ids[0]).toEqual(['s1', 's3']);
    expect(ids[1]).toEqual(['s2']);
  });

  test('probes run beside scenarios and a runner can declare requirements it cannot reach', async () => {
    const r = runner('gateway', async (s) => ({ outcomes: [outcome('GW-A-001', s.id, 'passed')], timeline: [] }), {
      probes: [{ id: 'p1', requirements: ['GW-B-001'], run: async () => ({ outcomes: [outcome('GW-B-001', 'probe:p1', 'passed')], timeline: [] }) }],
    });
    expect((await runConformance(options([r]))).requirements.find((x) => x.id === 'GW-B-001')?.status).toBe('passed');
    const u = runner('gateway', passAll, { unreachable: { 'GW-B-001': 'needs --gateway-cmd' } });
    const result = await runConformance(options([u]));
    // A pass elsewhere does not hide that a mode could not reach it: untested + passed = passed.
    expect(result.requirements.find((x) => x.id === 'GW-B-001')?.status).toBe('passed');
  });

  test('start and stop run once around a part, even when a scenario fails', async () => {
    const calls: string[] = [];
    await runConformance(options([runner('gateway', async () => { throw new Error('x'); }, { start: async () => { calls.push('start'); }, stop: async () => { calls.push('stop'); } })]));
    expect(calls).toEqual(['start', 'stop']);
  });
});

describe('aggregate', () => {
  test('failed beats passed beats untested', () => {
    const rs = aggregate([req('GW-A-001', 'gateway')], new Set(['gateway']), [outcome('GW-A-001', 'a', 'passed'), outcome('GW-A-001', 'b', 'failed'), outcome('GW-A-001', 'c', 'untested')], {});
    expect(rs[0]?.status).toBe('failed');
    expect(rs[0]?.scenarios).toEqual(['a', 'b']);
  });
});
