/**
 * Every benchmark module runs at a tiny size and returns well-formed figures. No timing is
 * asserted (speed belongs to `npm run bench`); what is asserted is that the figures exist, hold
 * their baselines and ratios, and that the exact counts (events delivered, entries left) are exact.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { benchConcurrency } from './concurrency.ts';
import { benchGateway } from './gateway.ts';
import { benchCertify } from './certify.ts';
import { benchHarness, memoryFloor, memoryRunCounts, processRole } from './harness.ts';
import { benchTransformerSession } from './transformer-session.ts';
import { compileChild } from './lib/compiled.ts';
import type { BenchResult } from './lib/figures.ts';
import { figure } from './lib/figures.ts';
import { peakOverlap, type StreamSample } from './lib/http-load.ts';
import { quantile, slopeOf, slopeStandardError } from './lib/stats.ts';
import { markdownTable, terminalTable } from './lib/table.ts';
import { auditBridgeEntries, benchMemory } from './memory.ts';
import { benchMock } from './mock-throughput.ts';
import { benchNormalizer } from './normalizer.ts';
import { benchTap } from './tap.ts';
import { benchTransformer } from './transformer.ts';

const seed = 7_007;

function expectWellFormed(result: BenchResult, id: string): void {
  expect(result.skipped).toBeUndefined();
  expect(result.id).toBe(id);
  expect(result.figures.length).toBeGreaterThan(0);
  expect(result.notes.length).toBeGreaterThan(0);
  for (const f of result.figures) {
    expect(f.name.length).toBeGreaterThan(0);
    expect(typeof f.value).toBe('number');
    expect(f.baseline, `${f.name} has a baseline`).not.toBeNull();
    // The ratio keeps 3 significant digits of the unrounded values: compare relatively (a ratio of 190 is 189.4 from the rounded ones).
    if (f.ratio !== null && f.baseline) expect(Math.abs(f.ratio - f.value / f.baseline.value) / Math.max(1, Math.abs(f.value / f.baseline.value)), f.name).toBeLessThan(0.01);
    if (f.goal) expect(typeof f.goal.met).toBe('boolean');
  }
  // Both renderings show every figure.
  expect(terminalTable([result]).split('\n').length).toBeGreaterThanOrEqual(result.figures.length + 2);
  expect(markdownTable([result]).split('\n')).toHaveLength(result.figures.length + 2);
}

describe('benchmark modules at a tiny size', () => {
  it('mock benchmark compares the mock with the plain server on byte-identical streams', async () => {
    const result = await benchMock({ concurrency: 2, rounds: 1, durationMs: 150 });
    expectWellFormed(result, 'mock');
    const long = result.details['bench_stream_100'] as { mock: { runs: number; events: number; errors: number }; plain: { runs: number; events: number } };
    expect(long.mock.errors).toBe(0);
    expect(long.mock.events).toBe(long.mock.runs * 100);
    expect(long.plain.events).toBe(long.plain.runs * 100);
    // The short-run CPU figure again with both servers compiled as the installed package runs them.
    const names = result.figures.map((f) => f.name);
    expect(names).toContain('mock server CPU per run, both compiled as the installed package runs (short run, 5 events; median of 1 rounds)');
    // And at the same offered load to both (paced runs), from the sources and compiled.
    expect(names.filter((n) => n.startsWith('mock server CPU per run at the same offered load'))).toHaveLength(2);
    const paced = result.details['bench_short_5 paced'] as { ratePerSecond: number; mock: { runs: number; errors: number }; plain: { runs: number } };
    expect(paced.ratePerSecond).toBeGreaterThanOrEqual(50);
    expect(paced.mock.errors).toBe(0);
    expect(paced.mock.runs).toBeGreaterThan(0);
    // Paced: no more runs start than the schedule holds (rate x 150 ms, one round).
    expect(paced.mock.runs).toBeLessThanOrEqual(Math.ceil(paced.ratePerSecond * 0.15) + 1);
    expect(paced.plain.runs).toBeLessThanOrEqual(Math.ceil(paced.ratePerSecond * 0.15) + 1);
  }, 90_000);

  it('concurrency benchmark counts every delivered event exactly', async () => {
    const result = await benchConcurrency({ steps: [4], ttfbAt: [4] });
    expectWellFormed(result, 'concurrency');
    const steps = result.details['mock'] as Array<{ delivered: number; expected: number; peakOpen: number }>;
    expect(steps[0]).toMatchObject({ delivered: 40, expected: 40, peakOpen: 4 });
  }, 90_000);

  it('gateway benchmark measures the gateway, the direct path and the plain proxy', async () => {
    const result = await benchGateway({ concurrency: 2, rounds: 1, durationMs: 150, latencyConcurrency: 1, latencyDurationMs: 150 });
    expectWellFormed(result, 'gateway');
    const latency = result.details['latency'] as { events: number; incomplete: number };
    expect(latency.incomplete).toBe(0);
    expect(latency.events % 10).toBe(0);
  }, 90_000);

  it('transformer benchmark runs in process and through adk-conformance transform', async () => {
    const result = await benchTransformer({ rounds: 1, roundMs: 20, cliEvents: 50 });
    expectWellFormed(result, 'transformer');
    const cli = result.details['cli'] as { own: { exitCode: number; outputLines: number; inputLines: number } };
    expect(cli.own.exitCode).toBe(0);
    expect(cli.own.inputLines).toBe(50);
    expect(cli.own.outputLines).toBeGreaterThan(0);
  }, 90_000);

  it('normaliser benchmark runs in process and through adk-conformance normalize', async () => {
    const result = await benchNormalizer({ rounds: 1, roundMs: 20, cliEvents: 100 });
    expectWellFormed(result, 'normalizer');
    const cli = result.details['cli'] as { own: { exitCode: number; outputLines: number } };
    expect(cli.own.exitCode).toBe(0);
    expect(cli.own.outputLines).toBeGreaterThan(0);
  }, 90_000);

  it('memory benchmark reads the gateway RSS and runs every invocation', async () => {
    const result = await benchMemory({ invocations: 20, warmupInvocations: 4, concurrency: 2, streamLengths: [100, 200], auditInvocations: 30 });
    expectWellFormed(result, 'memory');
    const gateway = result.details['gateway'] as { runs: number; events: number; errors: number; startMB: number };
    expect(gateway).toMatchObject({ runs: 20, events: 2000, errors: 0 });
    expect(gateway.startMB).toBeGreaterThan(0);
  }, 90_000);

  it('slopeOf fits every point: a line gives its slope, one outlier moves it less than a first-to-last difference', () => {
    expect(slopeOf([{ x: 0, y: 1 }, { x: 10, y: 21 }, { x: 20, y: 41 }])).toBeCloseTo(2);
    const noisy = [{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 2, y: 0 }, { x: 3, y: 0 }, { x: 4, y: 4 }];
    expect(slopeOf(noisy)).toBeLessThan((4 - 0) / 4);
    expect(slopeOf([{ x: 1, y: 1 }])).toBeNaN();
  });

  it('slopeStandardError is zero on a line and grows with the scatter of the reads around the fit', () => {
    expect(slopeStandardError([{ x: 0, y: 1 }, { x: 10, y: 21 }, { x: 20, y: 41 }])).toBeCloseTo(0);
    // slope 0.2; residuals -0.2, 0.6, -0.6, 0.2; sqrt(0.8 / 2 / 5)
    expect(slopeStandardError([{ x: 0, y: 0 }, { x: 1, y: 1 }, { x: 2, y: 0 }, { x: 3, y: 1 }])).toBeCloseTo(Math.sqrt(0.08));
    expect(slopeStandardError([{ x: 0, y: 0 }, { x: 1, y: 1 }])).toBeNaN();
  });

  it('the tap arms are compiled without tsx\'s keepNames wrappers, their npm dependencies left as imports', () => {
    const text = readFileSync(compileChild('bench/children/tap-arm.ts'), 'utf8');
    expect(text).not.toMatch(/__name\(/);
    expect(text).toMatch(/from "eventsource-parser"/);
  });

  it('tap benchmark measures the tap against a bare proxy on byte-identical streams, and every judged run passes', async () => {
    const result = await benchTap({ concurrency: 4, rounds: 1, durationMs: 150, latencyConcurrency: 1, latencyRounds: 2, latencyDurationMs: 200, openStreams: 4, warmupRuns: 10, runCheckpoints: [20, 40], runConcurrency: 2 });
    expectWellFormed(result, 'tap');
    const final = result.details['final'] as { runs: number; failed: number; passed: boolean; open: number };
    expect(final).toMatchObject({ failed: 0, passed: true, open: 0 });
    expect(final.runs).toBeGreaterThanOrEqual(10 + 40 + 4);
    const runs = result.details['runs'] as { points: Array<{ runs: number }>; exact: boolean };
    expect(runs.points.map((p) => p.runs)).toEqual([20, 40]);
    expect(runs.exact).toBe(true);
    expect((result.details['throughput'] as { exact: boolean }).exact).toBe(true);
    // The collections each arm ran over the throughput rounds: counts from its perf_hooks 'gc' entries, never negative.
    const collections = (result.details['throughput'] as { collections: Record<'tap' | 'bare', { young: number; full: number; youngMs: number }> }).collections;
    for (const c of [collections.tap, collections.bare]) {
      expect(Number.isInteger(c.young) && c.young >= 0 && Number.isInteger(c.full) && c.full >= 0 && c.youngMs >= 0).toBe(true);
    }
    type Pairs = { incomplete: number; events: number };
    const latency = result.details['latency'] as { hop: { tap: Pairs; bare: Pairs }; sameTick: Pairs & { floor: Pairs } };
    for (const pairs of [latency.hop.tap, latency.hop.bare, latency.sameTick, latency.sameTick.floor]) {
      expect(pairs.incomplete).toBe(0);
      expect(pairs.events % 10).toBe(0);
      expect(pairs.events).toBeGreaterThan(0);
    }
    expect((result.details['held'] as { tap: { open: { open: number }; exact: boolean } }).tap).toMatchObject({ open: { open: 4 }, exact: true });
  }, 90_000);

  it('harness benchmark reads the scenario durations of the report.json a start command writes', async () => {
    const report = { durationMs: 30, passed: true, verdict: 'fully compliant', scenarios: [{ scenario: 'a', part: 'gateway', status: 'passed', durationMs: 10 }, { scenario: 'b', part: 'transformer', status: 'passed', durationMs: 20 }, { scenario: 'probe:generated', part: 'transformer', status: 'passed', durationMs: 7 }, { scenario: 'probe:memory', part: 'gateway', status: 'passed', durationMs: 11 }, { scenario: 'missing_done_hold_open', part: 'client', status: 'passed', durationMs: 5 }, { scenario: 'probe:timeout', part: 'gateway', status: 'passed', durationMs: 3 }] };
    const write = `require('node:fs').writeFileSync(require('node:path').join(process.argv[1], 'report.json'), ${JSON.stringify(JSON.stringify(report))})`;
    const result = await benchHarness({ slowest: 1, timeoutMs: 30_000, start: { file: process.execPath, args: ['-e', write, '{out}'] }, floor: { file: process.execPath, args: ['-e', ''] }, bareMemoryRuns: false });
    expectWellFormed(result, 'harness');
    expect(result.figures.map((f) => f.name)).toContain('slow scenario b (transformer, passed)');
    expect(result.details['engineMs']).toBe(30);
    // The shrink of a failed generated run runs alone, a hold-open scenario timed; the memory and timeout probes collect their loads, holding no slot.
    expect(result.figures.find((f) => f.name.startsWith('runs that hold the gate alone'))?.value).toBe(7);
    expect(result.figures.find((f) => f.name.startsWith('timed runs, beside each other only'))?.value).toBe(5);
  });

  it('certification benchmark times a certification at the default --jobs and at --jobs 1, against its spawn floor', async () => {
    const result = await benchCertify({ generated: 0, timeoutMs: 60_000, target: ['--transformer-cmd', 'python3 examples/python-transformer/transformer.py', '--grep', 'plain_text,tool_error,transfer_to_specialist,cedar_creek_briefing'] });
    expect(result.figures).toHaveLength(2);
    expect(result.figures[0]?.name).toContain('verdict: fully compliant');
    expect(result.figures[0]?.baseline?.value).toBeGreaterThan(0);
    // The session form: the start-up probe and the long-lived processes, not a start per run.
    expect(result.figures[1]?.name).toMatch(/spawn floor: (\d+) starts/);
    expect(Number(/floor: (\d+) starts/.exec(result.figures[1]?.name ?? '')?.[1])).toBeGreaterThanOrEqual(1);
    expect(result.figures[1]?.baseline?.value).toBeGreaterThan(0);
  }, 120_000);

  it('session benchmark certifies the example in the session form, the one-shot form and the reference module in one run', async () => {
    const result = await benchTransformerSession({ rounds: 1, timeoutMs: 60_000, extra: ['--grep', 'plain_text,tool_error', '--generated', '0'] });
    expectWellFormed(result, 'transformer-session');
    expect(result.figures).toHaveLength(3);
    // Narrowed to two scenarios the verdict gates what they judged (engine-aggregate.ts exercisedBy): fully compliant, the same on all three sides.
    expect(result.figures[0]?.name).toContain('verdict: fully compliant');
    expect(result.figures[0]?.baseline?.name).toContain('verdict: fully compliant');
    expect(result.figures[1]?.name).toMatch(/one-shot: \d+ runs, verdict: fully compliant/);
    expect(result.figures[0]?.goal?.text).toBe('<= 1.5x the reference module, same verdict');
  }, 120_000);

  it('harness benchmark reads the CPU of every process of the start command\'s tree, a grandchild included', async () => {
    const write = `require('node:fs').writeFileSync(require('node:path').join(process.argv[1], 'report.json'), '{"durationMs":1,"passed":true,"verdict":"fully compliant","scenarios":[]}'); require('node:child_process').spawnSync(process.execPath, ['-e', 'setTimeout(() => {}, 600)', 'grandchild-marker'])`;
    const result = await benchHarness({ slowest: 1, timeoutMs: 30_000, start: { file: process.execPath, args: ['-e', write, '{out}'] }, floor: { file: process.execPath, args: ['-e', ''] }, bareMemoryRuns: false });
    const processes = result.details['processes'] as Array<{ command: string }>;
    expect(processes.some((p) => p.command.includes('grandchild-marker'))).toBe(true);
    expect(result.figures.find((f) => f.name.startsWith('npm start: CPU of all its processes'))?.baseline?.name).toMatch(/its wall time on \d+ cores/);
  });

  it('the memory runs at bare cost: each role runs its count and gives the CPU of each of its processes', () => {
    for (const role of ['local', 'fetch']) {
      const floor = memoryFloor([role, '40']);
      expect(floor).toMatchObject({ role, runs: 40, processes: { client: floor.cpuMs } });
    }
    const gatewayFloor = memoryFloor(['gateway', '40', compileChild('bench/children/plain-proxy.ts')]);
    expect(Object.keys(gatewayFloor.processes).sort()).toEqual(['client', 'gateway', 'upstream']);
    expect(gatewayFloor.cpuMs).toBe(gatewayFloor.processes['client']! + gatewayFloor.processes['gateway']! + gatewayFloor.processes['upstream']!);
    // The counts the probes run: 1,000 warm-up and 10,000 measured streams; 1,000 and 6,000 POSTs.
    expect(memoryRunCounts).toEqual({ client: 11_000, gateway: 6500 });
  });

  it('names npm start\'s processes by their command lines', () => {
    expect(processRole('/usr/bin/node --expose-gc /k/dist/harness/targets/memory-child.js')).toBe('a memory probe\'s process');
    expect(processRole('node /k/bin/adk-conformance.js gateway')).toBe('a gateway instance');
    expect(processRole('node /k/bin/adk-conformance.js proxy')).toBe('the proxy');
    expect(processRole('node bin/adk-conformance.js start')).toBe('the harness');
    expect(processRole('npm start')).toBe('npm start');
  });

  it('harness benchmark says why when the start command writes no report', async () => {
    const result = await benchHarness({ slowest: 1, timeoutMs: 30_000, start: { file: process.execPath, args: ['-e', 'process.exit(3)'] }, floor: { file: process.execPath, args: ['-e', ''] }, bareMemoryRuns: false });
    expect(result.skipped).toMatch(/no readable report\.json \(exit 3/);
    expect(result.figures).toEqual([]);
  });
});

describe('benchmark arithmetic', () => {
  it('audit bridge entries go back to 0 after ended invocations and stay bounded after cut ones', () => {
    const audit = auditBridgeEntries(1500);
    expect(audit).toMatchObject({ startEntries: 0, endedEntries: 0, endedInvocations: 0, cutInvocations: 1000 });
    expect(audit.recorded).toBe(1500 * 7);
  });

  it('peak overlap counts the most streams open at one moment', () => {
    console.log(`fast-check seed ${seed}`);
    const span = fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 1000 }));
    fc.assert(fc.property(fc.array(span, { maxLength: 40 }), (spans) => {
      const samples = spans.map(([start, length]): StreamSample => ({ startedAt: 0, status: 200, bytes: 0, events: 0, headersMs: start, firstByteMs: start, endMs: start + length }));
      // The peak is the most spans covering any start point (a maximum is always reached at a start).
      const brute = Math.max(0, ...spans.map(([at]) => spans.filter(([s, l]) => s <= at && at < s + l).length));
      expect(peakOverlap(samples)).toBe(brute);
    }), { seed, numRuns: 300 });
  });

  it('quantile takes the nearest rank and refuses p outside 0..1', () => {
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([5, 1, 3, 2, 4], 0.99)).toBe(5);
    expect(Number.isNaN(quantile([], 0.5))).toBe(true);
    expect(() => quantile([1], 1.5)).toThrow(/p must be within 0\.\.1/);
  });

  it('a figure carries its ratio to the baseline and none without one', () => {
    expect(figure({ name: 'x', unit: 'events/s', value: 70, baseline: { name: 'plain', value: 100 } }).ratio).toBe(0.7);
    expect(figure({ name: 'x', unit: 'ms', value: 1 }).ratio).toBeNull();
    expect(() => figure({ name: '', unit: 'ms', value: 1 })).toThrow(/name must be a non-empty string/);
  });
});
