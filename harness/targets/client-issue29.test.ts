/**
 * The defects of issue 29 §1 (client), each shown where it lives and failed with its own finding
 * code: the byte probe alone (no scenario), the mutant that has the defect, the code it must get.
 * harness/mutants/client.mutants.test.ts proves each mutant fails exactly its requirement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../mock-adk/server/start.ts';
import { loadScenarios } from '../../scenarios/loader.ts';
import type { RunResult } from '../model.ts';
import { clientMutantModule } from '../mutants/client/index.ts';
import { createClientRunner, type ClientTarget } from './client.ts';
import { applyRunnerScope } from './runner-scope.ts';
import { certifyWith } from './test-support.ts';

const { scenarios } = loadScenarios();
let mock: RunningMock;

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

function certify(target: ClientTarget, only = scenarios.filter((s) => s.id === 'plain_text'), runner = createClientRunner(target)): Promise<RunResult> {
  return certifyWith(runner, only, mock.url);
}

const codes = (result: RunResult, id: string): string[] => result.requirements.find((r) => r.id === id)?.findings.map((f) => `${f.code} ${f.message.split(':')[0]}`) ?? [];

describe('issue 29 §1: client defects the kit now shows', () => {
  it.each([
    ['client-reads-past-error-frame', 'CLI-END-002', ['dispatched-after-terminal byte case events-after-error-frame', 'end-reason byte case events-after-error-frame']],
    ['client-drops-http-error-text', 'CLI-HTTP-001', ['end-error-text byte case http-404-session', 'end-error-text byte case http-422-validation', 'end-error-text byte case http-500-failed-run']],
    ['client-strips-every-bom', 'CLI-BOM-002', ['event-count byte case two-boms']],
    ['client-comment-resets-event', 'CLI-COMMENT-001', ['event-count byte case comment-inside-event']],
    ['client-ends-at-any-agents-answer', 'CLI-END-001', ['ended-before-root-answer byte case sub-agent-answer-then-root']],
  ])('%s fails %s where the defect lives', async (mutant, id, expected) => {
    expect(codes(await certify({ module: clientMutantModule(mutant) }), id)).toEqual(expected);
  }, 60_000);

  it('client-reposts-run: a second POST while the first stream is open (held open) fails CLI-REQ-004, and says so', async () => {
    const result = await certify({ module: clientMutantModule('client-reposts-run') }, scenarios.filter((s) => s.id === 'missing_done_hold_open'));
    const f = result.requirements.find((r) => r.id === 'CLI-REQ-004')?.findings ?? [];
    expect(f.map((x) => x.code)).toEqual(['run-reposted']);
    expect(f[0]?.message).toContain('the first while its stream was still open');
  }, 60_000);

  it('client-sends-state-key: an unknown key fails CLI-REQ-003 on a server that drops it', async () => {
    const result = await certify({ module: clientMutantModule('client-sends-state-key') });
    expect(result.requirements.find((r) => r.id === 'CLI-REQ-003')?.findings.map((f) => [f.code, f.path])).toEqual([['unknown-key', 'request.body/state']]);
  }, 60_000);

  it('under the command contract the non-200 answers and the run count are not applicable, with the reason', async () => {
    const target = { command: 'python3 examples/python-client/client.py' };
    const runner = createClientRunner(target);
    const result = applyRunnerScope(await certify(target, [], runner), [runner]);
    for (const id of ['CLI-HTTP-001', 'CLI-REQ-004']) {
      const r = result.requirements.find((x) => x.id === id);
      expect(r?.status).toBe('not-applicable');
      expect(r?.reason).toMatch(/outside the client command contract/);
    }
  }, 60_000);
});
