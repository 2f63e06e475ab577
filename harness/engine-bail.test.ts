/** --bail N (harness/engine.ts EngineOptions.bail): every part stops after N failed runs; what is not run is untested. */
import { describe, expect, test } from 'vitest';
import type { Scenario } from '../schemas/types.ts';
import { runConformance, type EngineOptions } from './engine.ts';
import type { CheckOutcome, Requirement } from './model.ts';
import type { PartRunner } from './targets/types.ts';

const req = (id: string, part: Requirement['part']): Requirement => ({ id, part, level: 'MUST', tags: [], title: `${id} holds`, quote: 'q', source: { doc: 'seed-004', section: 'HTTP Headers' } });
const scenario = (id: string): Scenario => ({ id, tags: [], family: 'streaming' } as unknown as Scenario);
const outcome = (requirement: string, scenario: string, failed: boolean): CheckOutcome => ({ requirement, scenario, status: failed ? 'failed' : 'passed', findings: failed ? [{ requirement, code: 'x', path: '', message: 'broken' }] : [] });

function options(bail: number | undefined, fails: (id: string) => boolean, seen: string[]): EngineOptions {
  const runner: PartRunner = { part: 'gateway', description: 'g', applies: () => true, runScenario: async (s) => { seen.push(s.id); return { outcomes: [outcome('GW-A-001', s.id, fails(s.id)), outcome('GW-B-001', s.id, false)], timeline: [] }; } };
  return {
    runners: [runner], scenarios: ['s1', 's2', 's3', 's4', 's5'].map(scenario), requirements: [req('GW-A-001', 'gateway'), req('GW-B-001', 'gateway')],
    mutantKills: {}, mockUrl: 'http://127.0.0.1:1', gate: { level: 'must', untestedFails: true }, seed: 7, scenarioTimeoutMs: 2_000,
    replayBase: 'npx adk-conformance run', targetDescription: 't', version: '0.0.0', jobs: 1, ...(bail !== undefined ? { bail } : {}),
  };
}

describe('--bail', () => {
  test('stops after the N-th failed run: the rest is not run, untested with the reason, and the verdict is non-compliant', async () => {
    const seen: string[] = [];
    const result = await runConformance(options(2, (id) => id === 's2' || id === 's3', seen));
    // The pool may have started s4 beside the commit of s3: it is cancelled, its result dropped.
    expect(seen).not.toContain('s5');
    expect(result.scenarios.map((s) => [s.scenario, s.status])).toEqual([['s1', 'passed'], ['s2', 'failed'], ['s3', 'failed'], ['s4', 'errored'], ['s5', 'errored']]);
    expect(result.scenarios[3]?.error).toBe('not run: --bail 2 stopped the run after 2 failed runs (gateway s2, gateway s3); run without --bail to judge the rest');
    expect(result.verdict).toBe('non-compliant');
    // --bail only ever stops on a failure, so a bailed run is never compliant; a requirement is judged on the runs made.
    expect(result.passed).toBe(false);
    expect(result.requirements.find((r) => r.id === 'GW-A-001')?.status).toBe('failed');
  });

  test('fewer failures than N: every run is made', async () => {
    const seen: string[] = [];
    await runConformance(options(3, (id) => id === 's2', seen));
    expect(seen).toEqual(['s1', 's2', 's3', 's4', 's5']);
  });
});
