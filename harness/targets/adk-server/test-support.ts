/** A certification of one adk-server module over its probes alone: what its target test and its mutant suite both run. */
import { runConformance } from '../../engine.ts';
import { requirements } from '../../requirements/index.ts';
import { adkServerJudged, createAdkServerRunner } from './runner.ts';

export const judged = adkServerJudged.map((id) => requirements.get(id)!);

export async function certifyAdkServer(module: string) {
  const runner = createAdkServerRunner({ module });
  return runConformance({
    runners: [runner], scenarios: [], requirements: judged, mutantKills: {}, mockUrl: 'http://127.0.0.1:9',
    gate: { level: 'must', untestedFails: true }, seed: 1, scenarioTimeoutMs: 30_000,
    replayBase: 'npx adk-conformance run', targetDescription: runner.description, version: 'test',
  });
}
