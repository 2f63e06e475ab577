/**
 * The client's long-lived instances (issue 30 §1-§2): CLI-ISO-001's check over hand-made
 * observations, the probe over real module instances (a shared decoder is caught with a shrunk,
 * replayable order; the reference passes), and the long-lived module mode, where ONE client object
 * serves every scenario and byte case of a certification through one base URL (router.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { runConformance } from '../../engine.ts';
import { requirements } from '../../requirements/index.ts';
import { clientRequirements } from '../../requirements/client.ts';
import { checkClientIsolation, recordsDifference, type ClientIsolationCase } from '../../checks/client/long-lived.ts';
import { clientMutantModule } from '../../mutants/client/index.ts';
import { createClientRunner, referenceClientModule, type ClientTarget } from './runner.ts';
import { clientLongLivedProbeId } from './long-lived.ts';

const rec = (line: number, value: unknown) => ({ line, value });

describe('CLI-ISO-001 check', () => {
  const base: ClientIsolationCase = { stream: 'event-field', baseline: [rec(1, { data: '{"n":1}' }), rec(2, { end: 'eof', completed: true })], order: { target: 'event-field', prior: 0, history: ['cut-mid-utf8'], concurrent: 1 }, records: [] };

  it('names the first record that differs, the shrunk order and the replay line', () => {
    const c = { ...base, records: [rec(1, { data: '{"t":"\uFFFDevent: note\n{"n":1}' }), rec(2, { end: 'eof', completed: true })] };
    const [o] = checkClientIsolation({ instance: 'one client object', seed: 7, tried: 3, counterexample: c }, 'probe:x', 'npx adk-conformance run --seed 7');
    expect(o?.status).toBe('failed');
    expect(o?.findings[0]).toMatchObject({ requirement: 'CLI-ISO-001', code: 'run-depends-on-history', path: 'record[0]', expected: { data: '{"n":1}' } });
    expect(o?.findings[0]?.message).toMatch(/byte case event-field after a drawn history of 1 run\(s\) \(cut-mid-utf8\) in a new long-lived instance \(one client object\).*seed 7; replay: npx adk-conformance run --seed 7/);
  });

  it('passes when nothing differs, and is untested (never passed) when nothing could be compared', () => {
    expect(checkClientIsolation({ instance: 'i', seed: 1, tried: 6 }, 'p', 'r')[0]?.status).toBe('passed');
    expect(checkClientIsolation({ instance: 'i', seed: 1, tried: 0 }, 'p', 'r')[0]?.status).toBe('untested');
    expect(checkClientIsolation({ instance: 'i', seed: 1, tried: 0, unobserved: 'the baseline timed out' }, 'p', 'r')[0]).toMatchObject({ status: 'untested', reason: 'the baseline timed out' });
  });

  it('compares records by value and length', () => {
    expect(recordsDifference(base.baseline, base.baseline)).toBeUndefined();
    expect(recordsDifference(base.baseline, base.baseline.slice(0, 1))).toEqual({ index: 1, a: { end: 'eof', completed: true }, b: '(no record)' });
  });
});

describe('the long-lived probe and the long-lived module mode', () => {
  const { scenarios } = loadScenarios();
  const clientIds = clientRequirements.map((r) => r.id);
  let mock: RunningMock;
  beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
  afterAll(async () => { await mock.close(); });

  const certify = (target: ClientTarget, grep?: string[]) => runConformance({
    runners: [createClientRunner(target, { memoryRuns: 2000 })], scenarios, requirements: [...requirements.values()], mutantKills: {}, mockUrl: mock.url,
    gate: { level: 'must', untestedFails: true }, seed: 3, scenarioTimeoutMs: 20_000, replayBase: 'npx adk-conformance run', targetDescription: 'client', version: 'test',
    ...(grep ? { grep } : {}),
  });

  it('catches a client object whose reader is shared by its runs, with the smallest order fast-check found and its seed', async () => {
    const result = await certify({ module: clientMutantModule('client-decoder-shared-across-runs') }, [`probe:${clientLongLivedProbeId}`]);
    const iso = result.requirements.find((r) => r.id === 'CLI-ISO-001');
    expect(iso?.status).toBe('failed');
    expect(iso?.findings[0]?.message).toMatch(/in a new long-lived instance.* \(one client object\) reports other records .*seed 3; replay: .*--grep probe:client-long-lived --seed 3/);
    console.log(iso?.findings[0]?.message);
  }, 60_000);

  it('certifies the reference client with ONE client object for every run: every CLI-* requirement passed, none untested', async () => {
    const result = await certify({ module: referenceClientModule, instance: 'long-lived' });
    const mine = result.requirements.filter((r) => clientIds.includes(r.id));
    expect(mine.filter((r) => r.status !== 'passed').map((r) => ({ id: r.id, status: r.status, reason: r.reason, findings: r.findings.slice(0, 2) }))).toEqual([]);
    expect(mine.length).toBe(clientIds.length);
    expect(result.scenarios.filter((s) => s.status === 'errored').map((s) => `${s.scenario}: ${s.error}`)).toEqual([]);
  }, 90_000);

  it('in the long-lived module mode, the shared-reader client fails where its runs meet (its first runs spoil the later ones)', async () => {
    const result = await certify({ module: clientMutantModule('client-decoder-shared-across-runs'), instance: 'long-lived' });
    expect(result.requirements.filter((r) => r.status === 'failed').map((r) => r.id)).toContain('CLI-ISO-001');
    expect(result.requirements.filter((r) => r.status === 'failed').length).toBeGreaterThan(1);
  }, 90_000);
});
