/**
 * A client module that declares `recordForm = 'parsed'` (issue 31 §3): the example wrapping a
 * library that yields parsed events is certified through the runner, CLI-DATA-003/004 not
 * applicable with the reason, every other requirement its runs exercise passed.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { runConformance } from '../../engine.ts';
import { clientRequirements } from '../../requirements/client.ts';
import { applyRunnerScope } from '../runner-scope.ts';
import { createClientRunner } from './runner.ts';

const { scenarios } = loadScenarios();
let mock: RunningMock;
beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

describe('parsed-value client module', () => {
  it('examples/adapters/parsed-client.ts: the corpus runs it is given pass; CLI-DATA-003/004 are not applicable, with why', async () => {
    // Without the memory probe (11,000 streams): nothing here reads CLI-MEM-001. The grep names the
    // other probes, since a --grep runs the probes it names and no other.
    const runner = createClientRunner({ module: resolve('examples/adapters/parsed-client.ts') }, { memoryProbe: false });
    const ids = new Set(['plain_text', 'framing_crlf', 'framing_multiline_data', 'error_frame_adk_go', 'error_frame_python_legacy_invalid_json', 'session_not_found']);
    const result = applyRunnerScope(await runConformance({
      runners: [runner], scenarios: scenarios.filter((s) => ids.has(s.id)), requirements: clientRequirements, mutantKills: {}, mockUrl: mock.url,
      gate: { level: 'must', untestedFails: true }, seed: 1, scenarioTimeoutMs: 15_000, grep: [...ids, 'probe:client-byte-cases', 'probe:client-long-lived'],
      replayBase: 'npx adk-conformance run --client-module examples/adapters/parsed-client.ts', targetDescription: runner.description, version: 'test',
    }), [runner]);
    const status = Object.fromEntries(result.requirements.map((q) => [q.id, q.status]));
    expect(result.requirements.filter((q) => q.status === 'failed').map((q) => q.id)).toEqual([]);
    expect(status['CLI-SPLIT-001']).toBe('passed');
    expect(status['CLI-END-002']).toBe('passed');
    expect(status['CLI-DATA-003']).toBe('not-applicable');
    expect(runner.notApplicable?.['CLI-DATA-003']).toMatch(/parsed values/);
    expect(runner.notApplicable?.['CLI-DATA-004']).toMatch(/parsed values/);
  });
});
