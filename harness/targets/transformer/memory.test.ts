/**
 * ABE-MEM-001's probe: a healthy long-lived transformer passes and one that keeps about 1 KB per
 * run fails, as a module (heap after a forced collection) and as a session-form command (RSS of
 * its process), with the same statistics as GW-MEM-002; a one-shot command is not applicable.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { checkRetention } from '../../checks/transformer/memory.ts';
import type { MemoryObservation } from '../../checks/memory-retention.ts';
import type { ScenarioCheck } from '../types.ts';
import { createTransformerRunner, referenceTransformerModule, type TransformerTarget } from './runner.ts';
import { memoryProbeId, transformerMemorySettings } from './memory.ts';

let mock: RunningMock;
const dir = mkdtempSync(join(tmpdir(), 'adk-transformer-memory-'));
const python = 'python3 examples/python-transformer/transformer.py';

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios: loadScenarios().scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

async function probe(target: TransformerTarget): Promise<{ check: ScenarioCheck; notApplicable: Record<string, string>; seconds: number }> {
  const runner = createTransformerRunner(target, { idleMs: 300 });
  const env = { mockUrl: mock.url, seed: 1, scenarioTimeoutMs: 40_000 };
  await runner.start?.(env);
  try {
    const p = runner.probes?.find((x) => x.id === memoryProbeId);
    if (!p) throw new Error('the transformer runner has no memory probe');
    const t0 = performance.now();
    const check = await p.run({ ...env, signal: new AbortController().signal });
    return { check, notApplicable: runner.notApplicable ?? {}, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await runner.stop?.();
  }
}

const mem = (c: ScenarioCheck) => c.outcomes.filter((o) => o.requirement === 'ABE-MEM-001');

describe('ABE-MEM-001 judged', () => {
  const base = { warmupRuns: 1000, runs: 10_000, failedRuns: 0, settings: transformerMemorySettings, stoppedBy: 'runs' as const };
  const series = (perRun: number, every: number, n: number) => Array.from({ length: n }, (_, i) => ({ afterRuns: i * every, rssBytes: 30 * 1024 * 1024 + i * every * perRun + (i % 2) * 16 * 1024 }));

  it('passes a flat heap and fails 1 KB per run, with the estimate', () => {
    const heap = (perRun: number): MemoryObservation => ({ ...base, metric: 'heap', samples: series(perRun, 1000, 11) });
    expect(checkRetention('p', 'one module instance', heap(20))[0]?.status).toBe('passed');
    expect(checkRetention('p', 'one module instance', heap(1024))[0]?.findings[0]).toMatchObject({ requirement: 'ABE-MEM-001', code: 'retained-per-run', path: 'heap', actual: '1024 B/run' });
  });

  it('judges RSS by its floors, and leaves runs that never finished untested', () => {
    const rss = (perRun: number): MemoryObservation => ({ ...base, samples: series(perRun, 500, 21) });
    expect(checkRetention('p', 'one session process', rss(0))[0]?.status).toBe('passed');
    expect(checkRetention('p', 'one session process', rss(1024))[0]?.findings[0]).toMatchObject({ path: 'rss', expected: '< 512 B/run' });
    expect(checkRetention('p', 'one session process', { ...rss(0), failedRuns: 5000 })[0]).toMatchObject({ status: 'untested', reason: expect.stringMatching(/gave no terminal briefing/) });
    expect(checkRetention('p', 'x', { error: 'the session process is gone' })[0]).toMatchObject({ status: 'untested', reason: 'the session process is gone' });
  });
});

describe('the transformer-memory probe', () => {
  it('passes the reference module: 10,000 runs after 1,000 warm-up runs, read after forced collections', async () => {
    const { check, seconds } = await probe({ module: referenceTransformerModule });
    expect(mem(check).map((o) => o.status)).toEqual(['passed']);
    expect(check.timeline[0]?.summary).toMatch(/^10000 runs of one module instance after 1000 warm-up runs/);
    console.log(`reference module: ${seconds.toFixed(1)} s; ${check.timeline[0]?.summary}`);
  }, 60_000);

  it('fails a module that keeps about 1 KB per run (a Buffer of 1,024 bytes per run, never freed)', async () => {
    const leaky = join(dir, 'leaky.ts');
    writeFileSync(leaky, `import { createTransformer as reference } from ${JSON.stringify(referenceTransformerModule)};\nconst kept: Buffer[] = [];\nexport function createTransformer(o: Parameters<typeof reference>[0]) { kept.push(Buffer.alloc(1024, 1)); return reference(o); }\n`);
    const { check } = await probe({ module: leaky });
    expect(mem(check)[0]?.findings[0]).toMatchObject({ code: 'retained-per-run', path: 'heap' });
    const perRun = Number(/^(\d+)/.exec(String(mem(check)[0]?.findings[0]?.actual))?.[1]);
    expect(perRun).toBeGreaterThan(900);
    expect(perRun).toBeLessThan(2048);
  }, 60_000);

  it('passes the example Python transformer in the session form: RSS of its one process over 10,000 runs, started before the start-up probe had said which form it speaks', async () => {
    // 1.5 s of start-up outlasts the 0.5 s start-up window: start() returns unanswered and the probe,
    // a background job, starts at once; it must wait for the form, not take the command as one-shot.
    const { check, seconds } = await probe({ command: `sh -c 'sleep 1.5; exec ${python}'` });
    expect(mem(check).map((o) => o.status)).toEqual(['passed']);
    expect(check.timeline[0]?.summary).toMatch(/runs of one session process after \d+ warm-up runs/);
    expect(Number(/^(\d+) runs/.exec(check.timeline[0]?.summary ?? '')?.[1])).toBeGreaterThanOrEqual(10_000);
    console.log(`python session form: ${seconds.toFixed(1)} s; ${check.timeline[0]?.summary}`);
  }, 60_000);

  it('fails the Python mutant that keeps every briefing line in a global list (session form)', async () => {
    const { check, seconds } = await probe({ command: 'python3 harness/mutants/transformer/python/transformer-keeps-every-briefing.py' });
    expect(mem(check)[0]?.findings[0]).toMatchObject({ code: 'retained-per-run', path: 'rss' });
    console.log(`python mutant: ${seconds.toFixed(1)} s; ${mem(check)[0]?.findings[0]?.actual}`);
  }, 90_000);

  it('is not applicable to a one-shot command, with the reason', async () => {
    const { check, notApplicable } = await probe({ command: python, protocol: 'one-shot' });
    expect(notApplicable['ABE-MEM-001']).toMatch(/fresh process per run/);
    expect(mem(check)).toMatchObject([{ status: 'untested', reason: notApplicable['ABE-MEM-001'] }]);
  }, 30_000);
});
