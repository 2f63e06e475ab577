/**
 * The checks of single probes: the flag, disconnects, the cookie proxy, the legacy endpoints and
 * memory. Each is fed an observation shaped like the reference's, then one thing is broken.
 */
import { describe, expect, it } from 'vitest';
import { checkAbort } from './abort.ts';
import { checkFlagOff, flagDisabledDetail } from './flag.ts';
import { checkLegacy } from './legacy.ts';
import { checkMemory, collected, heapVerdictClear, memoryDefaults, memoryProgress, regressionSlope, retainedPerRun } from './memory.ts';
import { checkProxy } from './proxy.ts';
import { streamed } from './test-fixture.ts';

const json = (status: number, value: unknown) => streamed([JSON.stringify(value)], { status, headers: [['Content-Type', 'application/json']] });

describe('gateway probe checks', () => {
  it('GW-FLAG-001 wants 501 with the seed\'s exact detail', () => {
    const off = json(501, { detail: flagDisabledDetail });
    expect(checkFlagOff('p', [{ label: 'a valid body', exchange: off }])[0]?.status).toBe('passed');
    expect(checkFlagOff('p', [{ label: 'a valid body', exchange: streamed(['data: {}\n\n']) }])[0]?.findings.map((f) => f.code)).toEqual(['flag-ignored', 'flag-detail-wrong']);
  });

  it('GW-FLAG-001 wants 501 for an invalid body too: the flag comes before validation', () => {
    const off = json(501, { detail: flagDisabledDetail });
    const validated = json(422, { detail: [{ loc: ['body', 'newMessage'], msg: 'Field required' }] });
    const outcome = checkFlagOff('p', [{ label: 'a valid body', exchange: off }, { label: 'a body without newMessage', exchange: validated }])[0];
    expect(outcome?.status).toBe('failed');
    expect(outcome?.findings.map((f) => [f.code, f.path])).toEqual([['flag-ignored', 'attempt[1]/status'], ['flag-detail-wrong', 'attempt[1]/body/detail']]);
    expect(checkFlagOff('p', [{ label: 'a valid body', exchange: off }, { label: 'a body without newMessage', exchange: off }])[0]?.status).toBe('passed');
  });

  it('GW-ABORT-001 wants the upstream stream closed by its client', () => {
    const before = { open: 0, opened: 3, closedByClient: 1, completed: 2 };
    expect(checkAbort('p', { before, after: { open: 0, opened: 4, closedByClient: 2, completed: 2 }, clientBytes: 10, waitedMs: 20 })[0]?.status).toBe('passed');
    expect(checkAbort('p', { before, after: { open: 1, opened: 4, closedByClient: 1, completed: 2 }, clientBytes: 10, waitedMs: 2000 })[0]?.findings[0]?.code).toBe('upstream-not-aborted');
    expect(checkAbort('p', { before, after: before, clientBytes: 0, waitedMs: 0 })[0]?.status).toBe('untested');
  });

  it('GW-PROXY-002 wants the cookie verified and no token in a URL', () => {
    const expected = new TextEncoder().encode('data: {}\n\n');
    const base = { accepted: streamed(['data: {}\n\n']), expected, refused: json(401, { error: 'Unauthorized' }), upstreamUrls: ['/run_sse'], token: 'tok.en.x' };
    expect(checkProxy('p', base)[0]?.status).toBe('passed');
    expect(checkProxy('p', { ...base, refused: streamed(['data: {}\n\n']), upstreamUrls: ['/run_sse?token=tok.en.x'] })[0]?.findings.map((f) => f.code)).toEqual(['cookie-token-not-verified', 'token-in-url']);
  });

  it('GW-LEGACY-001/002 want success and a stream that ends with research_complete', () => {
    const events = (names: string[]) => streamed([names.map((n, i) => `event: ${n}\nid: ${i + 1}\ndata: {"sessionId":"s"}\n\n`).join('')]);
    const post = json(200, { success: true, sessionId: 's' });
    const ok = checkLegacy('p', { sessionId: 's', post, upstreamStarted: true, get: events(['agent_status', 'research_update', 'research_complete']) });
    const bad = checkLegacy('p', { sessionId: 's', post: json(200, { started: true }), upstreamStarted: true, get: events(['agent_status', 'research_update']) });
    expect(ok.map((o) => o.status)).toEqual(['passed', 'passed']);
    expect(bad.map((o) => o.findings[0]?.code)).toEqual(['legacy-post-answer', 'legacy-no-complete']);
  });

  it('GW-MEM-002 compares the RSS floors of the first and last thirds, per run, and needs runs that completed', () => {
    const mb = 1024 * 1024;
    const series = (perRun: number, sawtooth = 0) => Array.from({ length: 37 }, (_, i) => ({ afterRuns: i * 500, rssBytes: 100 * mb + i * 500 * perRun + (i % 6) * sawtooth }));
    const base = { warmupRuns: 3000, runs: 18_000, failedRuns: 0, settings: memoryDefaults, stoppedBy: 'runs' as const };
    // Garbage that piles up between collections raises the peaks, not the floors.
    expect(checkMemory('p', { ...base, samples: series(0, 4 * mb) })[0]?.status).toBe('passed');
    expect(checkMemory('p', { ...base, samples: series(1024, 4 * mb) })[0]?.findings[0]).toMatchObject({ code: 'retained-per-run', actual: '1024 B/run' });
    expect(checkMemory('p', { ...base, samples: series(16 * 1024), stoppedBy: 'fast-growth' })[0]?.findings[0]?.code).toBe('retained-per-run');
    expect(checkMemory('p', { ...base, failedRuns: 9000, samples: series(0) })[0]?.status).toBe('untested');
  });

  it('GW-MEM-002 judges a V8 heap read after forced collections by its slope', () => {
    const kb = 1024;
    const heap = (perRun: number) => Array.from({ length: 7 }, (_, i) => ({ afterRuns: i * 1000, rssBytes: 17 * kb * kb + i * 1000 * perRun + (i % 2) * 20 * kb }));
    const base = { metric: 'heap' as const, warmupRuns: 1000, runs: 6000, failedRuns: 0, settings: memoryDefaults, stoppedBy: 'runs' as const };
    expect(checkMemory('p', { ...base, samples: heap(30) })[0]?.status).toBe('passed');
    expect(checkMemory('p', { ...base, samples: heap(1024) })[0]?.findings[0]).toMatchObject({ code: 'retained-per-run', path: 'heap' });
  });

  it('GW-MEM-002 stops heap readings once the slope is three standard errors clear of the bound, from 2,000 runs on', () => {
    const kb = 1024;
    // The reference gateway's readings every 500 runs after its warm-up, in KB from the first (its
    // noisiest of three runs, 2026-11-29: a 300 KB step at 1,500), plus `perRun` bytes a run.
    const reference = [0, -160, -140, 155, 106, 150, 228, 143, 197, 232, 146, 395, 14].map((k) => k * kb);
    const heap = (perRun: number, upTo: number) => Array.from({ length: upTo / 500 + 1 }, (_, i) => ({ afterRuns: i * 500, rssBytes: 15 * kb * kb + i * 500 * perRun + (reference[i] ?? 0) }));
    const bound = memoryDefaults.boundBytesPerRun;
    expect(heapVerdictClear(heap(0, 1500), bound, 2000)).toBe(false);
    expect(heapVerdictClear(heap(0, 2000), bound, 2000)).toBe(false);
    expect(heapVerdictClear(heap(0, 2500), bound, 2000)).toBe(true);
    // A 1 KB-per-run leak is clear on the other side: it stops, and the slope fails it.
    expect(heapVerdictClear(heap(1024, 2500), bound, 2000)).toBe(true);
    expect(checkMemory('p', { metric: 'heap', warmupRuns: 1000, runs: 2500, failedRuns: 0, samples: heap(1024, 2500), settings: memoryDefaults, stoppedBy: 'heap-clear' })[0]?.status).toBe('failed');
    // Near the bound nothing is clear: the runs go on to their count.
    expect(heapVerdictClear(heap(450, 6000), bound, 2000)).toBe(false);
    expect(heapVerdictClear(heap(600, 3000), bound, 2000)).toBe(false);
    // Readings that happen to lie on a line do not shrink the error below the scatter's floor.
    const exact = Array.from({ length: 5 }, (_, i) => ({ afterRuns: i * 500, rssBytes: 15 * kb * kb + i * 500 * 300 }));
    expect(heapVerdictClear(exact, bound, 2000)).toBe(false);
    // Read every 250 runs (the probe's cadence, memoryLoadDefaults.heapBatch), the same noisy readings, a
    // midpoint between each two: the reference stops after 2,250, the 1 KB leak after 2,000, near the bound never.
    const every250 = (perRun: number, upTo: number) => Array.from({ length: upTo / 250 + 1 }, (_, i) => {
      const noise = i % 2 === 0 ? reference[i / 2] ?? 0 : ((reference[(i - 1) / 2] ?? 0) + (reference[(i + 1) / 2] ?? 0)) / 2;
      return { afterRuns: i * 250, rssBytes: 15 * kb * kb + i * 250 * perRun + noise };
    });
    expect(heapVerdictClear(every250(0, 2000), bound, 2000)).toBe(false);
    expect(heapVerdictClear(every250(0, 2250), bound, 2000)).toBe(true);
    expect(heapVerdictClear(every250(1024, 1750), bound, 2000)).toBe(false);
    expect(heapVerdictClear(every250(1024, 2000), bound, 2000)).toBe(true);
    expect(heapVerdictClear(every250(450, 6000), bound, 2000)).toBe(false);
    expect(heapVerdictClear(every250(600, 3000), bound, 2000)).toBe(false);
  });

  it('GW-MEM-002 stops early on flat memory that never fell, and on growth no collection explains', () => {
    const mb = 1024 * 1024;
    const flat = Array.from({ length: 5 }, (_, i) => ({ afterRuns: i * 500, rssBytes: 50 * mb + i * 1000 }));
    expect(memoryProgress(flat, memoryDefaults)).toBe('flat');
    // The same flat stretch after a collection proves nothing: a leak hides that long.
    expect(memoryProgress([{ afterRuns: 0, rssBytes: 60 * mb }, ...flat.map((p) => ({ ...p, afterRuns: p.afterRuns + 500 }))], memoryDefaults)).toBe('continue');
    const fast = Array.from({ length: 9 }, (_, i) => ({ afterRuns: i * 500, rssBytes: 100 * mb + i * 500 * 16 * 1024 }));
    expect(memoryProgress(fast, memoryDefaults)).toBe('fast-growth');
    expect(regressionSlope(fast)).toBeCloseTo(16 * 1024, 0);
    // A one-time jump early in the runs (V8 growing its young generation) is no retention.
    const jump = Array.from({ length: 37 }, (_, i) => ({ afterRuns: i * 500, rssBytes: 100 * mb + (i >= 3 ? 12 * mb : 0) }));
    expect(retainedPerRun(jump)?.perRun).toBe(0);
    expect(memoryProgress(jump.map((p, i) => (i === 20 ? { ...p, rssBytes: p.rssBytes + 3 * mb } : p)), memoryDefaults)).toBe('floor-flat');
    expect(collected([{ afterRuns: 0, rssBytes: 10 * mb }, { afterRuns: 1, rssBytes: 8 * mb }], mb)).toBe(true);
  });
});
