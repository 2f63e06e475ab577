/**
 * Proves the proof-layer stream checks can fail: the reference store passes every PLS
 * requirement, and each mutant of harness/mutants/proof-stream fails exactly the requirements it
 * names, through the same runner `--proof-stream-module` uses.
 */
import { describe, expect, it } from 'vitest';
import { runConformance } from '../engine.ts';
import { proofStreamRequirements } from '../requirements/proof-stream.ts';
import { createProofStreamRunner, referenceProofStreamModule } from '../targets/proof-stream/runner.ts';
import { proofStreamMutants } from './proof-stream/index.ts';

async function certify(module: string) {
  const runner = createProofStreamRunner({ module });
  return runConformance({
    runners: [runner], scenarios: [], requirements: proofStreamRequirements, mutantKills: {}, mockUrl: 'http://127.0.0.1:9',
    gate: { level: 'must', untestedFails: true }, seed: 1, scenarioTimeoutMs: 10_000,
    replayBase: 'npx adk-conformance run', targetDescription: runner.description, version: 'test',
  });
}

describe('proof-layer stream mutants', () => {
  it('the reference store passes every PLS requirement, none untested', async () => {
    const result = await certify(referenceProofStreamModule);
    expect(result.requirements.map((q) => [q.id, q.status])).toEqual(proofStreamRequirements.map((q) => [q.id, 'passed']));
  });

  for (const mutant of proofStreamMutants) {
    it(`${mutant.id} makes exactly its kills fail`, async () => {
      const module = mutant.target.proofStream?.module;
      if (!module) throw new Error(`${mutant.id} has no module`);
      const result = await certify(module);
      expect(result.requirements.filter((q) => q.status === 'failed').map((q) => q.id).sort()).toEqual([...mutant.kills].sort());
      expect(result.requirements.filter((q) => q.status === 'untested')).toEqual([]);
    });
  }

  it('a module that does not export createProofLayerStream leaves every PLS requirement untested, with the reason', async () => {
    const result = await certify(new URL('../targets/types.ts', import.meta.url).pathname);
    expect(result.requirements.map((q) => q.status)).toEqual(proofStreamRequirements.map(() => 'untested'));
    expect(result.requirements[0]?.reason).toMatch(/exports no createProofLayerStream function/);
  });
});
