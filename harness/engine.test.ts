import { describe, expect, test } from 'vitest';
import type { Scenario } from '../schemas/types.ts';
import { admissionOfRun, namedProbes, runConformance, runsAlone, type EngineOptions } from './engine.ts';
import { aggregate } from './engine-aggregate.ts';
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

  test('a scenario or probe whose every check was untested observed nothing: errored with the reason, never passed', async () => {
    const blind = runner('gateway', async (s) => ({ outcomes: [{ requirement: 'GW-A-001', scenario: s.id, status: 'untested', findings: [], reason: 'connection refused' }], timeline: [] }), {
      probes: [{ id: 'p', requirements: ['GW-B-001'], run: async () => ({ outcomes: [{ requirement: 'GW-B-001', scenario: 'probe:p', status: 'untested', findings: [], reason: 'connection refused' }], timeline: [] }) }],
    });
    const result = await runConformance(options([blind]));
    expect(result.scenarios.map((s) => [s.scenario, s.status])).toEqual([['s1', 'errored'], ['s2', 'errored'], ['s3', 'errored'], ['probe:p', 'errored']]);
    expect(result.scenarios[0]?.error).toBe('nothing was observed: connection refused');
    expect(result.counts.scenarios.passed).toBe(0);
    // Nothing observed at all: no verdict, exit 3 (issue 28 §2).
    expect(result.verdict).toBe('could not evaluate');
  });

  test('a --grep on scenarios gates only the requirements they exercise; the rest are not applicable with the reason', async () => {
    const result = await runConformance(options([runner('gateway', async (s) => ({ outcomes: [outcome('GW-A-001', s.id, 'passed')], timeline: [] }))], { grep: ['s1'] }));
    expect(result.requirements.map((r) => [r.id, r.status])).toEqual([['GW-A-001', 'passed'], ['GW-B-001', 'not-applicable'], ['TR-A-001', 'not-applicable']]);
    expect(result.requirements[1]?.reason).toMatch(/^outside this run's selection \(--grep s1\)/);
    expect(result.selection).toMatchObject({ grep: ['s1'], gated: 1, outside: 1 });
    expect(result.verdict).toBe('fully compliant');
  });

  test('a --grep whose scenarios exercise no requirement of the parts under test cannot be evaluated', async () => {
    const none = runner('gateway', passAll, { applies: (s) => s.id !== 's1' });
    await expect(runConformance(options([none], { grep: ['s1'] }))).rejects.toThrow(/selects no scenario or probe that exercises a requirement/);
  });

  test('a collector holds no slot: it waits for a load the scenarios feed, beside them, with one run at a time', async () => {
    let fed = 0;
    let loaded: () => void = () => {};
    const load = new Promise<void>((resolve) => { loaded = resolve; });
    const feeding = runner('gateway', async (s) => { if (++fed === 3) loaded(); return passAll(s); }, {
      probes: [{ id: 'collector', requirements: ['GW-B-001'], collects: true, run: async (env) => { await load; return { outcomes: [outcome('GW-B-001', 'probe:collector', env.signal.aborted ? 'untested' : 'passed')], timeline: [] }; } }],
    });
    const result = await runConformance(options([feeding], { jobs: 1 }));
    // Held a slot, it would have kept the three scenarios out until its bound (2 s) ran out.
    expect(result.scenarios.map((s) => [s.scenario, s.status])).toEqual([['s1', 'passed'], ['s2', 'passed'], ['s3', 'passed'], ['probe:collector', 'passed']]);
    expect(result.scenarios.every((s) => s.durationMs < 1500)).toBe(true);
  });

  test('an auxiliary probe that reports nothing is left out of the run', async () => {
    const result = await runConformance(options([runner('gateway', passAll, { probes: [{ id: 'shrink', requirements: ['GW-A-001'], auxiliary: true, run: async () => ({ outcomes: [], timeline: [] }) }] })]));
    expect(result.scenarios.map((s) => s.scenario)).toEqual(['s1', 's2', 's3']);
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
    // An errored scenario is one script among several: s2 and s3 observed and passed the requirement (docs/harness.md).
    expect(result.requirements.find((r) => r.id === 'GW-A-001')?.status).toBe('passed');
    expect(result.scenarios.find((s) => s.scenario === 's2')?.status).toBe('passed');
  });

  test('a probe that errored keeps its requirements untested though scenarios passed them, and the verdict from compliant', async () => {
    // DEFECT=slow: the generated-turns probe outlived its bound while every scenario passed.
    const slowProbe = runner('gateway', passAll, {
      probes: [{ id: 'turns', requirements: ['GW-A-001', 'GW-B-001'], run: (env) => new Promise((resolve) => env.signal.addEventListener('abort', () => resolve({ outcomes: [], timeline: [] }))).then(() => new Promise<never>(() => {})) }],
    });
    const ends: Array<{ id: string; reason?: string }> = [];
    const result = await runConformance(options([slowProbe], { scenarioTimeoutMs: 200, onProgress: (p) => { if (p.kind === 'scenario-end') ends.push({ id: p.id, ...(p.reason !== undefined ? { reason: p.reason } : {}) }); } }));
    expect(result.scenarios.map((s) => [s.scenario, s.status])).toEqual([['s1', 'passed'], ['s2', 'passed'], ['s3', 'passed'], ['probe:turns', 'errored']]);
    expect(result.requirements.filter((r) => r.part === 'gateway').map((r) => [r.id, r.status, r.reason])).toEqual([
      ['GW-A-001', 'untested', 'passed elsewhere, but probe:turns errored: timed out: the scenario did not finish within 200 ms (raise it with --timeout-ms)'],
      ['GW-B-001', 'untested', 'passed elsewhere, but probe:turns errored: timed out: the scenario did not finish within 200 ms (raise it with --timeout-ms)'],
    ]);
    expect(result.verdict).toBe('non-compliant');
    expect(result.passed).toBe(false);
    // The console's progress line carries why it errored, not only report.json.
    expect(ends.find((e) => e.id === 'probe:turns')?.reason).toBe('timed out: the scenario did not finish within 200 ms (raise it with --timeout-ms)');
    expect(ends.find((e) => e.id === 's1')?.reason).toBeUndefined();
  });

  test('a requirement grep narrows the requirements; a scenario grep narrows the scenarios', async () => {
    const byReq = await runConformance(options([runner('gateway', passAll)], { grep: ['headers'] }));
    expect(byReq.requirements.map((r) => r.id)).toEqual(['GW-B-001']);
    const byScenario = await runConformance(options([runner('gateway', passAll)], { grep: ['slowish'] }));
    expect(byScenario.scenarios.map((s) => s.scenario)).toEqual(['s2']);
  });

  test('a --grep naming a probe (by id or probe:<id>) runs that probe alone; one naming scenarios runs the probes it names and no other; a requirement runs the probes that exercise it', async () => {
    const r = runner('gateway', passAll, {
      probes: [
        { id: 'p1', requirements: ['GW-A-001'], run: async () => ({ outcomes: [outcome('GW-A-001', 'probe:p1', 'passed')], timeline: [] }) },
        { id: 'p2', requirements: ['GW-B-001'], run: async () => ({ outcomes: [outcome('GW-B-001', 'probe:p2', 'passed')], timeline: [] }) },
      ],
    });
    for (const grep of ['p1', 'probe:P1']) {
      const result = await runConformance(options([r], { grep: [grep] }));
      expect(result.scenarios.map((s) => s.scenario)).toEqual(['probe:p1']);
      expect(result.requirements.map((x) => [x.id, x.status])).toEqual([['GW-A-001', 'passed'], ['GW-B-001', 'not-applicable'], ['TR-A-001', 'not-applicable']]);
    }
    // A failed scenario's replay line (`--grep s1`) replays that scenario, not every probe beside it.
    expect((await runConformance(options([r], { grep: ['s1'] }))).scenarios.map((s) => s.scenario)).toEqual(['s1']);
    expect((await runConformance(options([r], { grep: ['s1', 'probe:p2'] }))).scenarios.map((s) => s.scenario)).toEqual(['s1', 'probe:p2']);
    // A probe's replay line names its requirements: every scenario and the probes that exercise them.
    expect((await runConformance(options([r], { grep: ['GW-B-001'] }))).scenarios.map((s) => s.scenario)).toEqual(['s1', 's2', 's3', 'probe:p2']);
    // A bare word that is also a scenario's id, family or tag names the probe of that name too.
    const streaming = [runner('gateway', passAll, { probes: [{ id: 'streaming', requirements: [], run: async () => ({ outcomes: [], timeline: [] }) }] })];
    expect([...namedProbes(['streaming'], streaming)]).toEqual(['streaming']);
    expect([...namedProbes(['probe:Streaming', 'plain_text'], streaming)]).toEqual(['streaming']);
  });

  test('a requirement-level --grep neither starts nor runs a part that judges none of the selected requirements', async () => {
    const calls: string[] = [];
    const transformer = runner('transformer', async (s) => { calls.push(`transformer ${s.id}`); return { outcomes: [outcome('TR-A-001', s.id, 'passed')], timeline: [] }; }, {
      start: async () => { calls.push('transformer start'); }, stop: async () => { calls.push('transformer stop'); },
    });
    const result = await runConformance(options([runner('gateway', passAll), transformer], { grep: ['GW-B-001'] }));
    expect(calls).toEqual([]);
    expect(result.scenarios.map((s) => [s.part, s.scenario])).toEqual([['gateway', 's1'], ['gateway', 's2'], ['gateway', 's3']]);
    expect(result.requirements.find((r) => r.id === 'GW-B-001')?.status).toBe('passed');
    // A part that also judges another part's requirements (PartRunner.alsoJudges) runs for them.
    const judging = runner('adk-server', async (s) => ({ outcomes: [outcome('TR-A-001', s.id, 'passed')], timeline: [] }), { alsoJudges: ['transformer'] });
    expect((await runConformance(options([judging], { grep: ['TR-A-001'] }))).scenarios.map((s) => s.scenario)).toEqual(['s1', 's2', 's3']);
  });

  test('a scenario --grep gates what its runs judged: a requirement a passing run reported untested (nothing of that kind in it) is outside the selection; a failed or errored run\'s stay untested', async () => {
    const partly = runner('gateway', async (s) => ({ outcomes: [outcome('GW-A-001', s.id, 'passed'), { requirement: 'GW-B-001', scenario: s.id, status: 'untested', findings: [], reason: `${s.id}: nothing to judge` }], timeline: [] }));
    const replay = await runConformance(options([partly], { grep: ['s1'] }));
    expect(replay.requirements.map((r) => [r.id, r.status])).toEqual([['GW-A-001', 'passed'], ['GW-B-001', 'not-applicable'], ['TR-A-001', 'not-applicable']]);
    expect(replay.verdict).toBe('fully compliant');
    // The full run still says why nothing judged it.
    const full = await runConformance(options([partly]));
    expect(full.requirements.find((r) => r.id === 'GW-B-001')).toMatchObject({ status: 'untested', reason: expect.stringContaining('s1: nothing to judge') });
    // A failed run's untested requirements may be its defect's doing: they stay, untested.
    const failing = runner('gateway', async (s) => ({ outcomes: [outcome('GW-A-001', s.id, 'failed'), { requirement: 'GW-B-001', scenario: s.id, status: 'untested', findings: [], reason: 'no valid event to judge' }], timeline: [] }));
    expect((await runConformance(options([failing], { grep: ['s1'] }))).requirements.find((r) => r.id === 'GW-B-001')?.status).toBe('untested');
    // A run that observed nothing keeps its requirements in the selection, untested.
    const blind = runner('gateway', async (s) => ({ outcomes: [{ requirement: 'GW-A-001', scenario: s.id, status: 'untested', findings: [], reason: 'connection refused' }], timeline: [] }));
    const transformer = runner('transformer', async (s) => ({ outcomes: [outcome('TR-A-001', s.id, 'passed')], timeline: [] }));
    const errored = await runConformance(options([blind, transformer], { grep: ['s1'] }));
    expect(errored.requirements.find((r) => r.id === 'GW-A-001')?.status).toBe('untested');
    expect(errored.verdict).toBe('non-compliant');
  });

  test('a part none of whose selected scenarios could apply, with no probe to run, is never started; couldApply is asked before start, applies after', async () => {
    const calls: string[] = [];
    const gateway = runner('gateway', passAll, {
      applies: (s) => { calls.push(`applies ${s.id}`); return s.id !== 's1'; },
      couldApply: (s) => s.id !== 's1',
      start: async () => { calls.push('start'); }, stop: async () => { calls.push('stop'); },
    });
    const transformer = runner('transformer', async (s) => ({ outcomes: [outcome('TR-A-001', s.id, 'passed')], timeline: [] }));
    const replay = await runConformance(options([gateway, transformer], { grep: ['s1'] }));
    expect(calls).toEqual([]);
    expect(replay.scenarios.map((s) => [s.part, s.scenario])).toEqual([['transformer', 's1']]);
    // One it could apply to starts it, and applies decides after start.
    await runConformance(options([gateway, transformer], { grep: ['s3'] }));
    expect(calls).toEqual(['start', 'applies s3', 'stop']);
  });

  test('a requirement-level --grep runs no scenario of a part whose scenarios never report on a selected requirement (PartRunner.scenarioRequirements), only the probes that exercise one', async () => {
    const ran: string[] = [];
    const r = runner('gateway', async (s) => { ran.push(s.id); return { outcomes: [outcome('GW-A-001', s.id, 'passed')], timeline: [] }; }, {
      scenarioRequirements: ['GW-A-001'],
      probes: [{ id: 'memory', requirements: ['GW-B-001'], run: async () => ({ outcomes: [outcome('GW-B-001', 'probe:memory', 'passed')], timeline: [] }) }],
    });
    // The replay line of a failed memory probe: the probe alone.
    const probeOnly = await runConformance(options([r], { grep: ['GW-B-001'] }));
    expect(ran).toEqual([]);
    expect(probeOnly.scenarios.map((s) => s.scenario)).toEqual(['probe:memory']);
    expect(probeOnly.requirements.find((x) => x.id === 'GW-B-001')?.status).toBe('passed');
    // A requirement its scenarios report on runs them, as before.
    expect((await runConformance(options([r], { grep: ['GW-A-001'] }))).scenarios.map((s) => s.scenario)).toEqual(['s1', 's2', 's3']);
    expect(ran).toEqual(['s1', 's2', 's3']);
    // A run without --grep runs everything.
    expect((await runConformance(options([r]))).scenarios.map((s) => s.scenario)).toEqual(['s1', 's2', 's3', 'probe:memory']);
    // A declaration that leaves out what a scenario reports on is the kit's mistake, thrown with its fix.
    const wrong = runner('gateway', passAll, { scenarioRequirements: ['GW-A-001'] });
    await expect(runConformance(options([wrong]))).rejects.toThrow(/scenario s1 reported on GW-B-001, which its scenarioRequirements leave out; add GW-B-001/);
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

describe('admissionOfRun', () => {
  test('a probe holds the gate alone unless it says shared, background or timed; a timing-sensitive scenario is timed; the rest shared', () => {
    expect(admissionOfRun({ probe: {} })).toBe('alone');
    expect(admissionOfRun({ probe: { shared: true } })).toBe('shared');
    expect(admissionOfRun({ probe: { background: true } })).toBe('shared');
    expect(admissionOfRun({ probe: { collects: true } })).toBe('shared');
    expect(admissionOfRun({ probe: { timed: true } })).toBe('timed');
    expect(admissionOfRun({ scenario: scenario('held', ['hold-open']) })).toBe('timed');
    expect(admissionOfRun({ scenario: scenario('plain') })).toBe('shared');
    expect([runsAlone({ probe: { timed: true } }), runsAlone({ probe: { background: true } }), runsAlone({ scenario: scenario('plain') })]).toEqual([true, false, false]);
  });
});
