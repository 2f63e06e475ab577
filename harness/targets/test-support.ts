/**
 * The engine run the client target tests share: one runner over some scenarios on a running mock,
 * every requirement, the must gate. Not shipped (package.json excludes test-support.ts).
 */
import type { Scenario } from '../../schemas/types.ts';
import { runConformance } from '../engine.ts';
import type { RunResult } from '../model.ts';
import { requirements } from '../requirements/index.ts';
import type { PartRunner } from './types.ts';

export function certifyWith(runner: PartRunner, scenarios: Scenario[], mockUrl: string, targetDescription = 'client'): Promise<RunResult> {
  return runConformance({
    runners: [runner],
    scenarios,
    requirements: [...requirements.values()],
    mutantKills: {},
    mockUrl,
    gate: { level: 'must', untestedFails: true },
    seed: 1,
    scenarioTimeoutMs: 20_000,
    replayBase: 'npx adk-conformance run',
    targetDescription,
    version: 'test',
  });
}
