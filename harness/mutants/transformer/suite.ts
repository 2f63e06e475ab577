/**
 * The transformer checks can fail, and fail for the right reason: the harness certifies the
 * reference transformer module (every ABE-* and PL-* requirement passes, none untested) and then
 * each mutant (harness/mutants/transformer), through the same runner a team's module gets, with the
 * real mock and the real scenario corpus; the requirements reported failed are exactly the
 * mutant's `kills`. Mutants run in-process as modules and share the mock's captured streams, with
 * a short idle window, to keep the file's wall time low (printed at the end). Sliced over two test
 * files (harness/mutants/transformer.mutants.test.ts and transformer-2), `transformerMutantSuite`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { runConformance } from '../../engine.ts';
import type { RunResult } from '../../model.ts';
import { requirements } from '../../requirements/index.ts';
import { createTransformerRunner, referenceTransformer11Module, referenceTransformerModule, type TransformerTarget } from '../../targets/transformer/runner.ts';
import type { Capture } from '../../targets/transformer/capture.ts';
import { allTransformerRequirementIds, transformerRequirementIds, transformerRequirementIdsFor } from '../../checks/transformer/index.ts';
import { transformerMutants } from './index.ts';
import { dealSlice } from '../slice.ts';
import { mutantIsolationHistory } from '../types.ts';

const { scenarios } = loadScenarios();
const captureCache = new Map<string, Capture>();
let mock: RunningMock;

/**
 * `memory`: run the 10,000-run memory probe (ABE-MEM-001): for the reference and the mutants it kills,
 * not for the others (it adds seconds to each). `fullHistory`: the isolation probe's orders go up to
 * 1,000 prior runs (ABE-ISO-001), for the same; the others get mutantIsolationHistory.
 */
function certify(target: TransformerTarget, memory = true, fullHistory = memory): Promise<RunResult> {
  return runConformance({
    runners: [createTransformerRunner(target, { captureCache, idleMs: 200, toleranceMs: 400, memoryProbe: memory, ...(fullHistory ? {} : { isolationHistory: mutantIsolationHistory }) })],
    scenarios,
    requirements: [...requirements.values()],
    mutantKills: {},
    mockUrl: mock.url,
    gate: { level: 'must', untestedFails: true },
    seed: 1,
    scenarioTimeoutMs: 20_000,
    replayBase: 'npx adk-conformance run --transformer-module <mutant>',
    targetDescription: 'transformer mutant',
    version: 'test',
  });
}

const failedIds = (result: RunResult): string[] => result.requirements.filter((r) => r.status === 'failed').map((r) => r.id).sort();

/** Slice `slice` of `of` (harness/mutants/slice.ts): the coverage check in the first; each file starts its own mock. */
export function transformerMutantSuite(slice: number, of: number): void {
  const deal = dealSlice(slice, of);
  const started = performance.now();

  beforeAll(async () => {
    mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false });
  });

  afterAll(async () => {
    await mock.close();
    console.log(`transformer mutation test, slice ${slice} of ${of}: in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });

  describe(`transformer mutants (slice ${slice} of ${of})`, () => {
    if (deal.take()) it('the reference transformer module passes every ABE-* and PL-* requirement, none untested', async () => {
      const result = await certify({ module: referenceTransformerModule });
      const mine = result.requirements.filter((r) => transformerRequirementIds.includes(r.id));
      expect(mine.map((r) => r.id).sort()).toEqual([...transformerRequirementIds].sort());
      // The long-lived probes' requirements too: one instance over many runs.
      expect(result.requirements.filter((r) => ['ABE-CORR-002', 'ABE-ISO-001', 'ABE-MEM-001'].includes(r.id)).map((r) => [r.id, r.status]).sort()).toEqual([['ABE-CORR-002', 'passed'], ['ABE-ISO-001', 'passed'], ['ABE-MEM-001', 'passed']]);
      const notPassed = mine.filter((r) => r.status !== 'passed').map((r) => ({ id: r.id, status: r.status, reason: r.reason, findings: r.findings.slice(0, 2) }));
      expect(notPassed).toEqual([]);
      expect(result.scenarios.filter((s) => s.status === 'errored').map((s) => `${s.scenario}: ${s.error}`)).toEqual([]);
      // The long-lived probes give one instance 10,000 runs and more (memory) and 1,000 prior runs (isolation): 27 s at load 16 on 2 cores, over 60 s at load 20.
    }, 120_000);

    if (deal.take()) it('the 1.1 reference module, its version detected from its events, passes every requirement of spec 1.1, none untested', async () => {
      const result = await certify({ module: referenceTransformer11Module });
      const ids = transformerRequirementIdsFor('1.1');
      expect(ids).toContain('ABE-SCHEMA-002');
      expect(ids).not.toContain('ABE-SCHEMA-001');
      const notPassed = result.requirements.filter((r) => ids.includes(r.id) && r.status !== 'passed').map((r) => ({ id: r.id, status: r.status, reason: r.reason, findings: r.findings.slice(0, 2) }));
      expect(notPassed).toEqual([]);
      // Nothing judged it against 1.0's schema (certify makes ABE-SCHEMA-001 not applicable: harness/targets/transformer/spec-choice.ts).
      expect(result.requirements.find((r) => r.id === 'ABE-SCHEMA-001')?.status).toBe('untested');
    }, 60_000);

    it.each(deal.each(transformerMutants.map((m) => [m.id, m] as const)))('%s makes exactly its kills fail', async (_id, mutant) => {
      const target = { ...(mutant.target.transformer as TransformerTarget), ...(mutant.target.spec ? { spec: mutant.target.spec } : {}) };
      const result = await certify(target, mutant.kills.includes('ABE-MEM-001'), mutant.kills.includes('ABE-MEM-001') || mutant.kills.includes('ABE-ISO-001'));
      const failed = failedIds(result);
      const unexpected = result.requirements.filter((r) => r.status === 'failed' && !mutant.kills.includes(r.id)).flatMap((r) => r.findings.slice(0, 2).map((f) => `${r.id} ${f.scenario} ${f.path}: ${f.message}`));
      expect({ failed, unexpected }).toEqual({ failed: [...mutant.kills].sort(), unexpected: [] });
      // Every finding carries its replay line.
      for (const r of result.requirements.filter((x) => x.status === 'failed')) for (const f of r.findings) expect(f.replay).toMatch(/--grep \S+ --seed 1$/);
    }, 30_000);

    if (slice === 1) {
      it('every ABE-* and PL-* requirement of every spec version is killed by at least one mutant', () => {
        const killed = new Set(transformerMutants.flatMap((m) => m.kills));
        expect(allTransformerRequirementIds.filter((id) => !killed.has(id))).toEqual([]);
      });
    }
  });
}
