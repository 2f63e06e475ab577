/**
 * Proves the normaliser checks can fail: the harness certifies the reference (every BLK
 * requirement passes, none untested) and each mutant of harness/mutants/normalizer, through the
 * same target a team would give (--normalizer-module / --normalizer-cmd), against the real mock
 * and the real scenarios, and reports exactly the requirements the mutant names as failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../mock-adk/server/start.ts';
import { loadScenarios } from '../../scenarios/loader.ts';
import { runConformance } from '../engine.ts';
import type { RunResult } from '../model.ts';
import { normalizerRequirements } from '../requirements/normalizer.ts';
import { createNormalizerRunner, referenceNormalizerModule, type NormalizerTarget } from '../targets/normalizer/runner.ts';
import { normalizerMutants } from './normalizer/index.ts';

const seed = 20251227;
const { scenarios } = loadScenarios();
let mock: RunningMock;

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

function certify(target: NormalizerTarget): Promise<RunResult> {
  const runner = createNormalizerRunner(target);
  return runConformance({
    runners: [runner], scenarios, requirements: normalizerRequirements, mutantKills: {}, mockUrl: mock.url,
    gate: { level: 'must', untestedFails: true }, seed, scenarioTimeoutMs: 15_000,
    replayBase: 'npx adk-conformance run', targetDescription: runner.description, version: 'test',
  });
}

const failedIds = (r: RunResult) => r.requirements.filter((q) => q.status === 'failed').map((q) => q.id).sort();

describe(`normaliser mutants (fast-check seed ${seed})`, () => {
  it('the reference normaliser passes every BLK requirement, none untested', async () => {
    const result = await certify({ module: referenceNormalizerModule });
    expect(result.requirements.map((q) => [q.id, q.status, q.findings.map((f) => f.message)])).toEqual(normalizerRequirements.map((q) => [q.id, 'passed', []]));
    expect(result.scenarios.filter((s) => s.status !== 'passed').map((s) => s.scenario)).toEqual([]);
  });

  it('every BLK requirement is killed by at least one mutant', () => {
    const killed = new Set(normalizerMutants.flatMap((m) => m.kills));
    expect(normalizerRequirements.map((q) => q.id).filter((id) => !killed.has(id))).toEqual([]);
  });

  for (const mutant of normalizerMutants) {
    it(`mutant ${mutant.id} fails exactly ${mutant.kills.join(', ')}`, async () => {
      const target = mutant.target.normalizer;
      expect(target).toBeDefined();
      const result = await certify(target!);
      expect(failedIds(result)).toEqual([...mutant.kills].sort());
      for (const q of result.requirements.filter((r) => r.status === 'failed')) {
        for (const f of q.findings) expect(f.replay).toMatch(/--seed 20251227$/);
      }
    });
  }
});
