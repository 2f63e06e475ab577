/**
 * The client checks can fail, and fail for the right reason: the harness certifies the reference
 * client module and the defect-free hand-written reader (every CLI-* requirement passes, none
 * untested), then each mutant (harness/mutants/client) through the same runner a team's module
 * gets, with the real mock and corpus over real HTTP on 127.0.0.1: the requirements reported
 * failed are exactly the mutant's `kills` (a command mutant under the command contract, where the
 * request's requirements are not applicable). Clients that differ from the reference only where the
 * seeds and servers allow it (allowedClientVariants) are certified as the reference is. Sliced
 * over three test files (harness/mutants/client.mutants.test.ts, client-2 and client-3), `clientMutantSuite`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { runConformance } from '../../engine.ts';
import type { RunResult } from '../../model.ts';
import { requirements } from '../../requirements/index.ts';
import { clientRequirements } from '../../requirements/client.ts';
import { createClientRunner, referenceClientModule, type ClientTarget } from '../../targets/client/runner.ts';
import { clientMutantModule, clientMutants } from './index.ts';
import { allowedClientVariants } from './mutate.ts';
import { applyProfile, profileScenarios, type Profile } from '../../profile.ts';
import type { Scenario } from '../../../schemas/types.ts';
import { dealSlice } from '../slice.ts';
import { mutantIsolationHistory } from '../types.ts';

const { scenarios } = loadScenarios();
const clientIds = clientRequirements.map((r) => r.id);

let mock: RunningMock;

/**
 * `memory`: run the memory probe (CLI-MEM-001): for the reference, the defect-free reader and the
 * mutants it kills, not for the others (11,000 streams each). A module's streams are real HTTP
 * requests, a few ms each on a loaded machine, so here it measures 2,000 (the heap is read after
 * forced collections, exact); a certification measures 10,000. `fullHistory`: the isolation probe's
 * orders go up to 1,000 prior streams (CLI-ISO-001), for the reference and the mutants it kills; the
 * others get mutantIsolationHistory (about 1 s of CPU less each).
 */
function certify(target: ClientTarget, only: Scenario[] = scenarios, memory = false, fullHistory = false): Promise<RunResult> {
  return runConformance({
    runners: [createClientRunner(target, { memoryProbe: memory, ...('module' in target ? { memoryRuns: 2000 } : {}), ...(fullHistory ? {} : { isolationHistory: mutantIsolationHistory }) })],
    scenarios: only,
    requirements: [...requirements.values()],
    mutantKills: {},
    mockUrl: mock.url,
    gate: { level: 'must', untestedFails: true },
    seed: 1,
    // The memory probe's bound is the scenario bound plus clientMemoryExtraMs: on a loaded CI runner 2,000
    // HTTP streams have taken most of 77 s, and an overrun is untested (no kill), so it gets more room.
    scenarioTimeoutMs: memory ? 60_000 : 20_000,
    replayBase: 'npx adk-conformance run --client-module <mutant>',
    targetDescription: 'client mutant',
    version: 'test',
  });
}

/** Slice `slice` of `of` (harness/mutants/slice.ts): the coverage check in the first; each file starts its own mock. */
export function clientMutantSuite(slice: number, of: number): void {
  const dealt = dealSlice(slice, of).each;

  beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
  afterAll(async () => { await mock.close(); });

  describe(`client mutants (slice ${slice} of ${of})`, () => {
    it.each(dealt([['the reference client', referenceClientModule], ['the hand-written reader without a defect', clientMutantModule('client-hand-reader')]] as const))('%s passes every CLI-* requirement, none untested', async (_name, module) => {
      const result = await certify({ module }, scenarios, true, true);
      const mine = result.requirements.filter((r) => clientIds.includes(r.id));
      expect(mine.filter((r) => r.status !== 'passed').map((r) => ({ id: r.id, status: r.status, reason: r.reason, findings: r.findings.slice(0, 2) }))).toEqual([]);
      expect(mine.length).toBe(clientIds.length);
      expect(result.scenarios.filter((s) => s.status === 'errored').map((s) => `${s.scenario}: ${s.error}`)).toEqual([]);
    }, 180_000);

    // Without the memory probe CLI-MEM-001 is untested (never passed): these clients differ from the reference in what they read, not in what they keep.
    const notPassed = (result: RunResult) => result.requirements.filter((r) => clientIds.includes(r.id) && r.id !== 'CLI-MEM-001' && r.status !== 'passed').map((r) => ({ id: r.id, status: r.status, reason: r.reason, findings: r.findings.slice(0, 2) }));

    it.each(dealt(Object.keys(allowedClientVariants).filter((id) => id !== 'client-allowed-snake-case')))('%s (what the seeds allow) passes every CLI-* requirement, none untested', async (id) => {
      expect(notPassed(await certify({ module: clientMutantModule(id) }))).toEqual([]);
    }, 60_000);

    it.each(dealt([['the reference client', referenceClientModule], ['a snake_case client (seed 004\'s Python model: populate_by_name)', clientMutantModule('client-allowed-snake-case')]] as const))('%s passes every CLI-* requirement, none untested, under a profile naming only adk-python servers', async (_name, module) => {
      const profile: Profile = { parts: ['client'], capabilities: { dialects: ['adk-python@1.x-genC', 'adk-python@2.x'] } };
      const kept = profileScenarios(profile, scenarios).scenarios;
      expect(kept.every((s) => s.dialect.startsWith('adk-python'))).toBe(true);
      const result = applyProfile(profile, await certify({ module }, kept));
      expect(notPassed(result)).toEqual([]);
      expect(result.requirements.filter((r) => clientIds.includes(r.id)).length).toBe(clientIds.length);
    }, 60_000);

    it.each(dealt(clientMutants.map((m) => [m.id, m] as const)))('%s makes exactly its kills fail', async (_id, mutant) => {
      const result = await certify(mutant.target.client as ClientTarget, scenarios, mutant.kills.includes('CLI-MEM-001'), mutant.kills.includes('CLI-ISO-001'));
      const failed = result.requirements.filter((r) => r.status === 'failed').map((r) => r.id).sort();
      const unexpected = result.requirements.filter((r) => r.status === 'failed' && !mutant.kills.includes(r.id)).flatMap((r) => r.findings.slice(0, 2).map((f) => `${r.id} ${f.scenario} ${f.path}: ${f.message}`));
      expect({ failed, unexpected }).toEqual({ failed: [...mutant.kills].sort(), unexpected: [] });
      for (const r of result.requirements.filter((x) => x.status === 'failed')) {
        for (const f of r.findings) {
          expect(Object.keys(f)).toEqual(expect.arrayContaining(['requirement', 'code', 'path', 'message']));
          expect(f.replay).toMatch(/--seed 1$/);
        }
      }
    }, 240_000);

    if (slice === 1) {
      it('every CLI-* requirement is killed by at least one mutant', () => {
        const killed = new Set(clientMutants.flatMap((m) => m.kills));
        expect(clientIds.filter((id) => !killed.has(id))).toEqual([]);
      });
    }
  });
}
