/**
 * Mock `/run_sse` throughput against the physical limit: a plain node:http server writing the
 * same pre-framed bytes (bench/children/plain-server.ts), same run, same client, same concurrency.
 * Goal (issue 7): the mock reaches at least 0.7 of the plain server's events/s.
 */
import { abRounds, cpuPerEvent, perSecond, withoutSamples as strip, type SideTotals } from './lib/ab-rounds.ts';
import { cedarCreekStreamingId, runBody, workloads, writeScenarioFolder } from './lib/bench-scenarios.ts';
import { atLeast, atMost, figure, type BenchResult, type Figure } from './lib/figures.ts';
import { closedLoop, fetchBody, type Target } from './lib/http-load.ts';
import { startMockChild, startPlainChild } from './lib/servers.ts';
import type { ScenarioFolder } from './lib/bench-scenarios.ts';
import { MB, median } from './lib/stats.ts';

export type MockBenchOptions = {
  concurrency: number; rounds: number; durationMs: number; shortConcurrency?: number;
  /** Rounds of the short-run case (default `rounds`): its CPU figure is a median over rounds, so it takes more of them. */ shortRounds?: number;
  /** Only the short-run case (`bench -- mock-short`). */ only?: 'short';
  /** Short runs also against the mock and the plain server compiled as the published package runs (default true). */ compiled?: boolean;
};

export const mockBenchDefaults: MockBenchOptions = { concurrency: 16, rounds: 4, durationMs: 1500, shortConcurrency: 20, shortRounds: 7 };

export async function benchMock(options: MockBenchOptions = mockBenchDefaults): Promise<BenchResult> {
  const folder = writeScenarioFolder();
  const mock = await startMockChild(folder);
  const plain = await startPlainChild(folder).catch(async (error: unknown) => { await mock.stop(); throw error; });
  try {
    const figures: Figure[] = [];
    const details: Record<string, unknown> = { concurrency: options.concurrency, rounds: options.rounds, roundMs: options.durationMs, mockPid: mock.pid, plainPid: plain.pid };
    const all = [
      { label: '100-event stream', app: workloads.long.id, concurrency: options.concurrency, perRun: false },
      { label: 'Cedar Creek streaming, 16 events', app: cedarCreekStreamingId, concurrency: options.concurrency, perRun: false },
      // Issue 14: a short run is what a team's CI makes by the thousand; its cost is per request.
      { label: 'short run, 5 events', app: workloads.short.id, concurrency: options.shortConcurrency ?? 20, perRun: true },
    ];
    const cases = options.only === 'short' ? all.filter((c) => c.perRun) : all;
    for (const c of cases) {
      const target = (url: string): Target => ({ url, path: '/run_sse', body: runBody(c.app) });
      // Same bytes on both sides, or the comparison means nothing.
      const [fromMock, fromPlain] = await Promise.all([fetchBody(target(mock.url)), fetchBody(target(plain.url))]);
      if (fromMock.status !== 200 || !fromMock.body.equals(fromPlain.body)) {
        throw new Error(`mock benchmark: the mock and the plain server do not send the same body for '${c.app}' (mock HTTP ${fromMock.status}, ${fromMock.body.length} bytes; plain ${fromPlain.body.length} bytes)`);
      }
      // Warm both up (JIT, connection pools) before anything is counted.
      for (const url of [mock.url, plain.url]) await closedLoop({ target: target(url), concurrency: c.concurrency, durationMs: Math.min(500, options.durationMs) });
      const [onMock, onPlain] = await abRounds([
        { name: 'mock', target: target(mock.url), pids: [mock.pid] },
        { name: 'plain node:http', target: target(plain.url), pids: [plain.pid] },
      ] as const, { ...options, rounds: c.perRun ? options.shortRounds ?? options.rounds : options.rounds, concurrency: c.concurrency });
      figures.push(...(c.perRun ? runFigures(c.label, c.concurrency, onMock, onPlain) : caseFigures(c.label, c.concurrency, onMock, onPlain)));
      details[c.app] = { bytesPerStream: fromMock.body.length, mock: strip(onMock), plain: strip(onPlain), ...(c.perRun ? { roundRatios: roundRatios(onMock, onPlain) } : {}) };
      if (c.perRun) {
        const paced = await pacedPair(target(mock.url), mock.pid, target(plain.url), plain.pid, onMock, onPlain, c.concurrency, options, '');
        figures.push(paced.figure);
        details[`${c.app} paced`] = paced.details;
      }
      if (c.perRun && options.compiled !== false) {
        const pair = await compiledPair(folder, c.app, c.concurrency, options);
        figures.push(pair.figure, pair.paced.figure);
        details[`${c.app} compiled`] = pair.details;
        details[`${c.app} compiled paced`] = pair.paced.details;
      }
    }
    return {
      id: options.only === 'short' ? 'mock-short' : 'mock',
      title: options.only === 'short' ? 'mock short runs vs plain node:http (same bytes)' : 'mock /run_sse throughput vs plain node:http (same bytes)',
      figures,
      notes: [
        `${options.concurrency} concurrent keep-alive streams, raw node:http client reading to EOF; ${options.rounds} alternating rounds of ${options.durationMs} ms per side`,
        'servers in their own processes (the mock via `adk-conformance mock`); both send byte-identical bodies (checked)',
        ...(cases.some((c) => c.perRun) ? [`short runs: ${options.shortRounds ?? options.rounds} alternating rounds per side; server CPU per run is the median of the rounds' CPU per run (/proc/PID/stat of the server process), each side's own`] : []),
      ],
      details,
    };
  } finally {
    await Promise.all([mock.stop(), plain.stop()]);
    folder.remove();
  }
}

/**
 * Server CPU ms per run: the median over the rounds of each round's CPU per run. A burst of
 * someone else's load slows the servers' event loops for a round (fewer runs share each wake-up,
 * so each costs more): the median keeps that round from moving the figure, where a total over
 * the rounds does not. The rounds of the two sides alternate (abRounds), so both meet the same bursts.
 */
export function medianCpuPerRun(t: SideTotals): number {
  const perRun = t.perRound.filter((r) => r.runs > 0).map((r) => (r.cpuSeconds * 1e3) / r.runs);
  return perRun.length > 0 ? median(perRun) : Number.NaN;
}

/** Each round's CPU per run, mock against the plain server's round beside it (for the JSON report). */
function roundRatios(onMock: SideTotals, onPlain: SideTotals): number[] {
  return onMock.perRound.map((m, i) => {
    const p = onPlain.perRound[i];
    return p && m.runs > 0 && p.runs > 0 && p.cpuSeconds > 0 ? Number((((m.cpuSeconds / m.runs) / (p.cpuSeconds / p.runs))).toFixed(3)) : Number.NaN;
  });
}

/** Short runs: runs/s and server CPU per run, each against the plain server replaying the same plan. */
function runFigures(label: string, concurrency: number, onMock: SideTotals, onPlain: SideTotals): Figure[] {
  const runs = perSecond(onMock.runs, onMock.elapsedMs);
  const plainRuns = perSecond(onPlain.runs, onPlain.elapsedMs);
  const cpu = medianCpuPerRun(onMock);
  const plainCpu = medianCpuPerRun(onPlain);
  const errors = onMock.errors + onMock.badStatus;
  return [
    figure({
      name: `mock runs/s (${label}, ${concurrency} streams)${errors ? `, ${errors} failed streams` : ''}`,
      unit: 'runs/s',
      value: runs,
      baseline: { name: 'plain node:http', value: plainRuns },
      goal: atLeast(plainRuns > 0 ? runs / plainRuns : null, 0.9, '>= 0.9 of plain'),
    }),
    figure({
      name: `mock server CPU per run (${label}; median of ${onMock.perRound.length} rounds)`,
      unit: 'ms',
      value: cpu,
      baseline: { name: 'plain node:http', value: plainCpu },
      goal: atMost(Number.isFinite(cpu) && plainCpu > 0 ? cpu / plainCpu : null, 1.5, '<= 1.5x plain'),
    }),
  ];
}

function caseFigures(label: string, concurrency: number, onMock: SideTotals, onPlain: SideTotals): Figure[] {
  const eventsPerSecond = perSecond(onMock.events, onMock.elapsedMs);
  const plainEventsPerSecond = perSecond(onPlain.events, onPlain.elapsedMs);
  const share = plainEventsPerSecond > 0 ? eventsPerSecond / plainEventsPerSecond : null;
  const errors = onMock.errors + onMock.badStatus;
  return [
    figure({
      name: `mock events/s (${label}, ${concurrency} streams)${errors ? `, ${errors} failed streams` : ''}`,
      unit: 'events/s',
      value: eventsPerSecond,
      baseline: { name: 'plain node:http', value: plainEventsPerSecond },
      goal: atLeast(share, 0.7, '>= 0.7 of plain'),
    }),
    figure({ name: `mock MB/s (${label})`, unit: 'MB/s', value: perSecond(onMock.bytes, onMock.elapsedMs) / MB, baseline: { name: 'plain node:http', value: perSecond(onPlain.bytes, onPlain.elapsedMs) / MB } }),
    figure({ name: `mock server CPU per event (${label})`, unit: 'µs', value: cpuPerEvent(onMock), baseline: { name: 'plain node:http', value: cpuPerEvent(onPlain) } }),
  ];
}

/**
 * The short-run CPU figure again with both servers compiled (bench/lib/compiled.ts: esbuild, no
 * keepNames), as `npm install adk-conformance` runs the mock (dist/): tsx's keepNames wraps every
 * named closure the mock makes per request, which a team's installed mock does not pay.
 */
async function compiledPair(folder: ScenarioFolder, app: string, concurrency: number, options: MockBenchOptions): Promise<{ figure: Figure; details: Record<string, unknown>; paced: { figure: Figure; details: Record<string, unknown> } }> {
  const mock = await startMockChild(folder, [], true);
  const plain = await startPlainChild(folder, true).catch(async (error: unknown) => { await mock.stop(); throw error; });
  try {
    const target = (url: string): Target => ({ url, path: '/run_sse', body: runBody(app) });
    const [fromMock, fromPlain] = await Promise.all([fetchBody(target(mock.url)), fetchBody(target(plain.url))]);
    if (fromMock.status !== 200 || !fromMock.body.equals(fromPlain.body)) throw new Error(`mock benchmark: the compiled mock and plain server do not send the same body for '${app}'`);
    for (const url of [mock.url, plain.url]) await closedLoop({ target: target(url), concurrency, durationMs: Math.min(500, options.durationMs) });
    const [onMock, onPlain] = await abRounds([
      { name: 'mock compiled', target: target(mock.url), pids: [mock.pid] },
      { name: 'plain node:http compiled', target: target(plain.url), pids: [plain.pid] },
    ] as const, { ...options, rounds: options.shortRounds ?? options.rounds, concurrency });
    const paced = await pacedPair(target(mock.url), mock.pid, target(plain.url), plain.pid, onMock, onPlain, concurrency, options, ', both compiled');
    const cpu = medianCpuPerRun(onMock);
    const plainCpu = medianCpuPerRun(onPlain);
    return {
      paced,
      figure: figure({ name: `mock server CPU per run, both compiled as the installed package runs (short run, 5 events; median of ${onMock.perRound.length} rounds)`, unit: 'ms', value: cpu, baseline: { name: 'plain node:http, compiled', value: plainCpu }, goal: atMost(Number.isFinite(cpu) && plainCpu > 0 ? cpu / plainCpu : null, 1.5, '<= 1.5x plain') }),
      details: { mock: strip(onMock), plain: strip(onPlain), roundRatios: roundRatios(onMock, onPlain) },
    };
  } finally {
    await Promise.all([mock.stop(), plain.stop()]);
  }
}

/**
 * The short run's CPU figure again at the same offered load: back to back, the faster server
 * takes more runs per round, and a server's CPU per run falls as more runs share each wake-up of
 * its event loop, so the slower one is measured where each run costs it more. Here both get runs
 * started on one schedule, half the rate the slower of the two kept back to back (so both keep
 * up), and the CPU per run compares the same work at the same pace.
 */
async function pacedPair(mockTarget: Target, mockPid: number, plainTarget: Target, plainPid: number, onMock: SideTotals, onPlain: SideTotals, concurrency: number, options: MockBenchOptions, what: string): Promise<{ figure: Figure; details: Record<string, unknown> }> {
  const slower = Math.min(perSecond(onMock.runs, onMock.elapsedMs), perSecond(onPlain.runs, onPlain.elapsedMs));
  const rate = Math.max(50, Math.floor(slower / 2 / 50) * 50);
  const [pacedMock, pacedPlain] = await abRounds([
    { name: 'mock paced', target: mockTarget, pids: [mockPid] },
    { name: 'plain node:http paced', target: plainTarget, pids: [plainPid] },
  ] as const, { rounds: options.shortRounds ?? options.rounds, durationMs: options.durationMs, concurrency, ratePerSecond: rate });
  const cpu = medianCpuPerRun(pacedMock);
  const plainCpu = medianCpuPerRun(pacedPlain);
  return {
    figure: figure({
      name: `mock server CPU per run at the same offered load${what} (short run, 5 events; ${rate} runs/s to each; median of ${pacedMock.perRound.length} rounds)`,
      unit: 'ms',
      value: cpu,
      baseline: { name: `plain node:http${what ? ', compiled' : ''}`, value: plainCpu },
      goal: atMost(Number.isFinite(cpu) && plainCpu > 0 ? cpu / plainCpu : null, 1.5, '<= 1.5x plain'),
    }),
    details: { ratePerSecond: rate, mock: strip(pacedMock), plain: strip(pacedPlain), roundRatios: roundRatios(pacedMock, pacedPlain) },
  };
}
