/**
 * Proves the proxy checks can fail: the reference proxy passes every PRX requirement through its
 * real command, and each mutant of harness/mutants/proxy fails exactly the requirements it names,
 * through the same runner `--proxy-cmd` uses (mutants in process: the same break on the same
 * reference proxy, without a process start each), on the real mock and the real scenarios.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../mock-adk/server/start.ts';
import { runConformance } from '../engine.ts';
import type { RunResult } from '../model.ts';
import { proxyRequirements } from '../requirements/proxy.ts';
import { createProxyRunner, referenceProxyCommand, type ProxyRunnerOptions } from '../targets/proxy/runner.ts';
import { inProcessProxyLauncher, proxyMutants } from './proxy/index.ts';

const { scenarios } = loadScenarios();
/** Plain runs, an error answer, a cut and the framing cases a reframing proxy changes. */
const smoke = new Set(['plain_text', 'plain_text_streaming', 'session_not_found', 'stream_cut_mid_line', 'framing_crlf', 'framing_comment_lines', 'missing_done_hold_open']);
let mock: RunningMock;

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

function certify(target: { command: string }, options: ProxyRunnerOptions, all: boolean): Promise<RunResult> {
  const runner = createProxyRunner(target, options);
  return runConformance({
    runners: [runner], scenarios: all ? scenarios : scenarios.filter((s) => smoke.has(s.id)), requirements: proxyRequirements, mutantKills: {}, mockUrl: mock.url,
    gate: { level: 'must', untestedFails: true }, seed: 1, scenarioTimeoutMs: 15_000,
    replayBase: `npx adk-conformance run --proxy-cmd '${target.command}'`, targetDescription: runner.description, version: 'test',
  });
}

describe('cookie-to-bearer proxy mutants', () => {
  it('the reference proxy, through its real command, passes every PRX requirement on the corpus, none untested', async () => {
    const result = await certify({ command: referenceProxyCommand }, {}, true);
    expect(result.requirements.map((q) => [q.id, q.status])).toEqual(proxyRequirements.map((q) => [q.id, 'passed']));
  });

  for (const mutant of proxyMutants) {
    it(`${mutant.id} makes exactly its kills fail`, async () => {
      const target = mutant.target.proxy;
      if (!target || !('command' in target)) throw new Error(`${mutant.id} has no command`);
      const result = await certify(target, { launcher: inProcessProxyLauncher(mutant.id.replace(/^proxy-/, '')) }, false);
      expect(result.requirements.filter((q) => q.status === 'failed').map((q) => q.id).sort()).toEqual([...mutant.kills].sort());
      expect(result.requirements.filter((q) => q.status === 'untested').map((q) => [q.id, q.reason])).toEqual([]);
    });
  }
});
