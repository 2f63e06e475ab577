import { loadScenarios } from '../scenarios/loader.ts';
import { startMock } from '../mock-adk/server/start.ts';
import { runConformance } from '../harness/engine.ts';
import { requirements } from '../harness/requirements/index.ts';
import { createTransformerRunner, referenceTransformerModule } from '../harness/targets/transformer/runner.ts';
async function main() {
  const { scenarios } = loadScenarios();
  const mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false });
  const captureCache = new Map();
  for (const round of [0, 1]) for (const name of ['all', 'noProbes', 'probesOnly']) {
    const runner: any = createTransformerRunner({ module: referenceTransformerModule }, { captureCache, idleMs: 200, toleranceMs: 400, memoryProbe: false });
    const r = name === 'noProbes' ? { ...runner, probes: [] } : runner;
    const c0 = process.cpuUsage(); const t0 = performance.now();
    await runConformance({ runners: [r], scenarios: name === 'probesOnly' ? [] : scenarios, requirements: [...requirements.values()], mutantKills: {}, mockUrl: mock.url, gate: { level: 'must', untestedFails: false }, seed: 1, scenarioTimeoutMs: 20000, replayBase: 'x', targetDescription: 'x', version: 'test' });
    const c = process.cpuUsage(c0);
    if (round) console.log(name, ((c.user + c.system) / 1000).toFixed(0), 'ms cpu', (performance.now() - t0).toFixed(0), 'ms wall', runner.probes.map((p: any) => p.id).join(','));
  }
  await mock.close();
}
main();
