/**
 * CLI-MEM-001's probe: a client reused for every stream passes when healthy and fails when it keeps
 * about 1 KB per stream, as a module (ONE client object, heap after a forced collection) and as a
 * session-form command (RSS of its process), with the statistics of GW-MEM-002; a one-shot command
 * is not applicable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { checkClientRetention } from '../../checks/client/memory.ts';
import type { MemoryObservation } from '../../checks/memory-retention.ts';
import { longLivedMemorySettings } from '../memory-load.ts';
import { clientMutantCommand, clientMutantModule } from '../../mutants/client/index.ts';
import type { ScenarioCheck } from '../types.ts';
import { createClientRunner, referenceClientModule, type ClientTarget } from './runner.ts';
import { clientMemoryProbeId, memoryBody } from './memory.ts';

let mock: RunningMock;
const python = 'python3 examples/python-client/client.py';

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios: loadScenarios().scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

/** `memoryRuns`: a module's streams are real HTTP requests, a few ms each on a loaded machine: the heap tests measure 2,000 (exact after forced collections), a certification 10,000. */
async function probe(target: ClientTarget, memoryRuns?: number): Promise<{ check: ScenarioCheck; notApplicable: Record<string, string>; seconds: number }> {
  const runner = createClientRunner(target, memoryRuns === undefined ? {} : { memoryRuns });
  const env = { mockUrl: mock.url, seed: 1, scenarioTimeoutMs: 30_000 };
  await runner.start?.(env);
  try {
    const p = runner.probes?.find((x) => x.id === clientMemoryProbeId);
    if (!p) throw new Error('the client runner has no memory probe');
    const t0 = performance.now();
    const check = await p.run({ ...env, signal: new AbortController().signal });
    return { check, notApplicable: runner.notApplicable ?? {}, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await runner.stop?.();
  }
}

const mem = (c: ScenarioCheck) => c.outcomes.filter((o) => o.requirement === 'CLI-MEM-001');

describe('CLI-MEM-001 judged', () => {
  const base = { warmupRuns: 1000, runs: 10_000, failedRuns: 0, settings: longLivedMemorySettings, stoppedBy: 'runs' as const };
  const series = (perRun: number) => Array.from({ length: 11 }, (_, i) => ({ afterRuns: i * 1000, rssBytes: 30 * 1024 * 1024 + i * 1000 * perRun }));

  it('passes a flat heap, fails 1 KB per stream in the client\'s words, and leaves streams without an end record untested', () => {
    expect(checkClientRetention('p', 'one client object', { ...base, metric: 'heap', samples: series(10) })[0]?.status).toBe('passed');
    const [failed] = checkClientRetention('p', 'one client object', { ...base, metric: 'heap', samples: series(1024) });
    expect(failed?.findings[0]).toMatchObject({ requirement: 'CLI-MEM-001', code: 'retained-per-run', path: 'heap', actual: '1024 B/run', expected: '< 512 B/run' });
    expect(failed?.findings[0]?.message).toMatch(/^the client kept about 1024 bytes per finished run/);
    expect(checkClientRetention('p', 'x', { ...base, metric: 'heap', samples: series(0), failedRuns: 6000 })[0]).toMatchObject({ status: 'untested', reason: expect.stringMatching(/gave no end record .*CLI-OUT-001 judges such runs/) });
  });

  it('gives every stream its own ids and text', () => {
    expect(memoryBody(1).toString()).toContain('"id":"mem-1-0"');
    expect(memoryBody(2).toString()).not.toContain('mem-1-');
  });
});

describe('the client-memory probe', () => {
  it('passes the reference client module: ONE client object, streams after 1,000 warm-up, read after forced collections', async () => {
    const { check, seconds } = await probe({ module: referenceClientModule }, 2000);
    expect(mem(check).map((o) => [o.status, o.reason, o.findings[0]?.message])).toEqual([['passed', undefined, undefined]]);
    expect(check.timeline[0]?.summary).toMatch(/^2000 streams read by one client object after 1000 warm-up streams/);
    console.log(`reference module: ${seconds.toFixed(1)} s; ${check.timeline[0]?.summary}`);
  }, 120_000);

  it('fails the module mutant that keeps every record it reported', async () => {
    const { check, seconds } = await probe({ module: clientMutantModule('client-keeps-every-run') }, 2000);
    expect(mem(check)[0]?.findings[0]).toMatchObject({ requirement: 'CLI-MEM-001', code: 'retained-per-run', path: 'heap' });
    console.log(`keeps-every-run module: ${seconds.toFixed(1)} s; ${mem(check)[0]?.findings[0]?.actual}`);
  }, 120_000);

  it('passes the example Python client in the session form: RSS of its one process over 10,000 streams and more', async () => {
    const { check, seconds } = await probe({ command: python });
    expect(mem(check).map((o) => [o.status, o.reason, o.findings[0]?.message])).toEqual([['passed', undefined, undefined]]);
    expect(Number(/^(\d+) streams/.exec(check.timeline[0]?.summary ?? '')?.[1])).toBeGreaterThanOrEqual(10_000);
    console.log(`python session form: ${seconds.toFixed(1)} s; ${check.timeline[0]?.summary}`);
  }, 120_000);

  it('fails the Python mutant that keeps every record it wrote (session form)', async () => {
    const { check, seconds } = await probe({ command: clientMutantCommand('client-command-keeps-every-run') });
    expect(mem(check)[0]?.findings[0]).toMatchObject({ code: 'retained-per-run', path: 'rss' });
    console.log(`python mutant: ${seconds.toFixed(1)} s; ${mem(check)[0]?.findings[0]?.actual}`);
  }, 120_000);

  it('is not applicable to a one-shot command, with the reason', async () => {
    const { check, notApplicable } = await probe({ command: python, protocol: 'one-shot' });
    expect(notApplicable['CLI-MEM-001']).toMatch(/fresh process per stream/);
    expect(mem(check)).toMatchObject([{ status: 'untested', reason: notApplicable['CLI-MEM-001'] }]);
  }, 30_000);
});
