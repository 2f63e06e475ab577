/**
 * How many simultaneous streams the mock holds with every event delivered, against the plain
 * node:http server holding the same streams; and time to first byte at 100 and 1,000 streams.
 * Each step starts N streams at once, each on its own connection, of a workload that stays open
 * ~2.7 s (10 events 300 ms apart), so all N are open together; delivered events are counted
 * exactly (N × 10 expected). Goal (issue 7): at least 2,000 concurrent streams.
 */
import { runBody, workloads, writeScenarioFolder } from './lib/bench-scenarios.ts';
import { atLeast, figure, type BenchResult, type Figure } from './lib/figures.ts';
import { burst, type BurstResult, type Target } from './lib/http-load.ts';
import { getJson, startMockChild, startPlainChild } from './lib/servers.ts';
import { quantile } from './lib/stats.ts';

export type ConcurrencyOptions = {
  /** Stream counts to try, ascending. */
  steps: number[];
  /** Stream counts at which time to first byte is reported. */
  ttfbAt: number[];
};

export const concurrencyDefaults: ConcurrencyOptions = { steps: [500, 1000, 2000, 4000], ttfbAt: [100, 1000] };

const eventsPerStream = workloads.held.chunks + 1;

type Step = { streams: number; delivered: number; expected: number; errors: number; badStatus: number; peakOpen: number; mockReportedOpen?: number; firstError?: string; ttfbP50: number; ttfbP99: number; elapsedMs: number };

export async function benchConcurrency(options: ConcurrencyOptions = concurrencyDefaults): Promise<BenchResult> {
  const counts = [...new Set([...options.steps, ...options.ttfbAt])].sort((a, b) => a - b);
  if (counts.length === 0 || counts.some((n) => !Number.isInteger(n) || n < 1)) throw new RangeError(`concurrency: steps and ttfbAt must be positive integers, got ${JSON.stringify(options)}`);
  const folder = writeScenarioFolder([workloads.held], []);
  const mock = await startMockChild(folder);
  const plain = await startPlainChild(folder).catch(async (error: unknown) => { await mock.stop(); throw error; });
  try {
    const target = (url: string): Target => ({ url, path: '/run_sse', body: runBody(workloads.held.id) });
    // Warm both servers up (JIT, first-request costs) so the first measured step is not a cold start.
    await Promise.all([burst(target(mock.url), 50), burst(target(plain.url), 50)]);
    const onMock: Step[] = [];
    const onPlain: Step[] = [];
    for (const n of counts) {
      // Alternate which side goes first, so neither always meets a machine still busy with the other.
      const first = counts.indexOf(n) % 2 === 0;
      if (first) onPlain.push(step(n, await burst(target(plain.url), n)));
      onMock.push(await mockStep(mock.url, target(mock.url), n));
      if (!first) onPlain.push(step(n, await burst(target(plain.url), n)));
    }
    const held = (steps: Step[]) => Math.max(0, ...steps.filter((s) => options.steps.includes(s.streams) && s.delivered === s.expected && s.errors + s.badStatus === 0).map((s) => s.streams));
    const heldMock = held(onMock);
    const figures: Figure[] = [
      // The goal is judged only when a step reaches it (--quick stops below).
      figure({ name: `mock concurrent streams held, every event delivered (steps ${options.steps.join('/')})`, unit: 'streams', value: heldMock, baseline: { name: 'plain node:http', value: held(onPlain) }, ...(Math.max(...options.steps) >= 2000 ? { goal: atLeast(heldMock, 2000, '>= 2,000') } : {}) }),
    ];
    for (const n of options.steps) {
      const m = onMock.find((s) => s.streams === n) as Step;
      const p = onPlain.find((s) => s.streams === n) as Step;
      figures.push(figure({ name: `events delivered at ${n} streams (of ${m.expected}; peak open ${m.peakOpen}${m.errors + m.badStatus ? `, ${m.errors + m.badStatus} failed` : ''})`, unit: 'events', value: m.delivered, baseline: { name: 'plain node:http', value: p.delivered } }));
    }
    for (const n of options.ttfbAt) {
      const m = onMock.find((s) => s.streams === n) as Step;
      const p = onPlain.find((s) => s.streams === n) as Step;
      figures.push(figure({ name: `time to first byte p50 at ${n} streams`, unit: 'ms', value: m.ttfbP50, baseline: { name: 'plain node:http', value: p.ttfbP50 } }));
      figures.push(figure({ name: `time to first byte p99 at ${n} streams`, unit: 'ms', value: m.ttfbP99, baseline: { name: 'plain node:http', value: p.ttfbP99 } }));
    }
    return {
      id: 'concurrency',
      title: 'mock concurrent streams and time to first byte vs plain node:http',
      figures,
      notes: [
        `N streams started at once, one connection each, workload ${workloads.held.id} (${eventsPerStream} events, ${workloads.held.chunkDelayMs} ms apart); held = all N × ${eventsPerStream} events delivered, no failed stream`,
        'time to first byte: request sent -> first body byte (the first event), all N streams started together',
      ],
      details: { mock: onMock, plain: onPlain },
    };
  } finally {
    await Promise.all([mock.stop(), plain.stop()]);
    folder.remove();
  }
}

/** A burst against the mock, polling its own count of open streams meanwhile. */
async function mockStep(mockUrl: string, target: Target, n: number): Promise<Step> {
  let peak = 0;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      try {
        const stats = (await getJson(mockUrl, '/_mock/streams')) as { open?: number };
        peak = Math.max(peak, stats.open ?? 0);
      } catch { /* a busy mock may refuse one poll; the burst's own counts are the figure */ }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const result = await burst(target, n);
  polling = false;
  await poll;
  return { ...step(n, result), mockReportedOpen: peak };
}

function step(n: number, result: BurstResult): Step {
  const ttfb = result.samples.map((s) => s.firstByteMs).filter((v): v is number => v !== undefined);
  return {
    streams: n,
    delivered: result.events,
    expected: n * eventsPerStream,
    errors: result.errors,
    badStatus: result.badStatus,
    peakOpen: result.peakOpen,
    ...(result.firstError !== undefined ? { firstError: result.firstError } : {}),
    ttfbP50: quantile(ttfb, 0.5),
    ttfbP99: quantile(ttfb, 0.99),
    elapsedMs: Math.round(result.elapsedMs),
  };
}
