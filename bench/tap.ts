/**
 * `adk-conformance tap` (tap/, docs/tap.md) against a bare node:http reverse proxy on the same
 * traffic, same run (issue 16's limits):
 * - upstream: bench/children/plain-server.ts replaying the bytes the mock renders for corpus
 *   scenarios (Cedar Creek streaming, plain_text_streaming) and the bench's paced and held streams,
 *   so the upstream costs the same behind both arms;
 * - arms: bench/children/tap-arm.ts, each in its own process: `tap` (createTapCore role adk + the
 *   report collector, behind startTap, as the CLI wires it), `bare` (request and response piped,
 *   no judging) and, for throughput, `parse` (the tap's shell framing and JSON.parsing each event,
 *   judging nothing: the most any judging tap can reach);
 * - byte identity: each workload's body through the tap, through the bare proxy and direct must be
 *   identical, and every stream of the load must deliver exactly the body's byte count;
 * - added latency per frame: a paced stream (10 events 10 ms apart) through the bare proxy and one
 *   through the tap start in the same tick; event k's arrival through the tap minus its arrival
 *   through the bare proxy is one sample (the order in the tick swaps every round);
 * - throughput: events/s at 100 concurrent streams, rotating rounds (tap, bare, direct);
 * - memory, heap after a full GC in the arm (--expose-gc, SIGUSR2 probe): per open stream with N
 *   streams held mid-stream, against the bare proxy; and after 10,000 / 50,000 / 100,000 judged
 *   runs (slope in bytes per run), with the collector's verdict over every run the tap judged.
 */
import { join } from 'node:path';
import { abRounds, cpuPerEvent, perSecond, withoutSamples as strip, type Side } from './lib/ab-rounds.ts';
import { cedarCreekStreamingId, runBody, workloads, writeScenarioFolder } from './lib/bench-scenarios.ts';
import { repoRoot, spawnServer, tsxArgs, type RunningChild } from './lib/children.ts';
import { compileChild } from './lib/compiled.ts';
import { atLeast, below, figure, type BenchResult, type Figure } from './lib/figures.ts';
import { burst, closedLoop, countedLoop, fetchBody, pairedLoop, type LoadTotals, type Target } from './lib/http-load.ts';
import { startPlainChild } from './lib/servers.ts';
import { quantile, slopeOf, slopeStandardError } from './lib/stats.ts';
import { probe } from './memory.ts';

export type TapBenchOptions = {
  /** Concurrent streams for throughput (the issue's figure is at 100). */
  concurrency: number;
  rounds: number;
  durationMs: number;
  /** Pairs of paced streams in flight at once, rounds (the order in the tick swaps every round), ms per round. */
  latencyConcurrency: number;
  latencyRounds: number;
  latencyDurationMs: number;
  /** Streams held open mid-stream for the per-stream memory figure. */
  openStreams: number;
  /** Runs before the first memory point (JIT, pools, the collector's first-N lists filled). */
  warmupRuns: number;
  /** Judged runs (after the warm-up) at which heap after GC is read; the slope is the least-squares fit over them. */
  runCheckpoints: number[];
  runConcurrency: number;
};

export const tapBenchDefaults: TapBenchOptions = {
  concurrency: 100, rounds: 8, durationMs: 1500,
  latencyConcurrency: 4, latencyRounds: 4, latencyDurationMs: 1500,
  openStreams: 500,
  // 21 reads over 290,000 runs: heap after GC moves by up to 0.3 MB between reads with nothing retained,
  // and over 100,000 runs and 7 reads that made the fit's standard error about 1 byte per run, the bound.
  warmupRuns: 2000, runCheckpoints: Array.from({ length: 21 }, (_, i) => 10_000 + i * 14_500), runConcurrency: 16,
};

export const tapBenchQuick: TapBenchOptions = {
  concurrency: 100, rounds: 1, durationMs: 800,
  latencyConcurrency: 4, latencyRounds: 2, latencyDurationMs: 800,
  openStreams: 200,
  warmupRuns: 500, runCheckpoints: [2000, 5000, 10_000], runConcurrency: 16,
};

const plainTextStreamingId = 'plain_text_streaming';
const sseHeaders = { accept: 'text/event-stream' };

type ArmProbe = { gc: { young: number; youngMs: number; full: number; fullMs: number }; rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number; open: number; runs?: number; failed?: number; other?: number; verdict?: string | null; passed?: boolean | null; failedRequirements?: string[] };

type Arm = RunningChild & { probeFile: string; read: () => Promise<ArmProbe> };

/**
 * An arm from `compiled` (bench/lib/compiled.ts: the arms as the published package runs the kit,
 * plain JavaScript), or from the TypeScript sources through tsx, as a checkout runs it.
 */
async function startArm(mode: 'tap' | 'parse' | 'bare', upstreamUrl: string, dir: string, compiled: string | 'tsx', label: string = mode): Promise<Arm> {
  const probeFile = join(dir, `${label}-probe.json.txt`);
  const args = [mode, upstreamUrl, probeFile];
  const child = await spawnServer({ args: compiled === 'tsx' ? tsxArgs(join(repoRoot, 'bench', 'children', 'tap-arm.ts'), args, ['--expose-gc']) : ['--expose-gc', compiled, ...args] });
  return { ...child, probeFile, read: () => probe<ArmProbe>(child.pid, probeFile, `the ${mode} arm`, 'bench/children/tap-arm.ts must run with --expose-gc and a probe file') };
}


/** CPU µs per event of JSON.parse alone over a body's `data:` lines, repeated for ~300 ms in this process. */
function parseCostPerEvent(body: Buffer): { usPerEvent: number; events: number } {
  const datas = body.toString('utf8').split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice('data: '.length));
  if (datas.length === 0) return { usPerEvent: Number.NaN, events: 0 };
  for (let i = 0; i < 2000; i++) for (const d of datas) JSON.parse(d);
  const start = process.cpuUsage();
  const until = performance.now() + 300;
  let events = 0;
  while (performance.now() < until) { for (const d of datas) JSON.parse(d); events += datas.length; }
  const used = process.cpuUsage(start);
  return { usPerEvent: (used.user + used.system) / events, events: datas.length };
}
export async function benchTap(options: TapBenchOptions = tapBenchDefaults): Promise<BenchResult> {
  if (options.runCheckpoints.length < 2) throw new RangeError('benchTap: give at least two runCheckpoints (the slope is fitted over them)');
  const folder = writeScenarioFolder([workloads.paced, workloads.held], [cedarCreekStreamingId, plainTextStreamingId]);
  const started: RunningChild[] = [];
  try {
    const upstream = await startPlainChild(folder);
    started.push(upstream);
    const compiled = compileChild('bench/children/tap-arm.ts');
    const tap = await startArm('tap', upstream.url, folder.dir, compiled);
    started.push(tap);
    const bare = await startArm('bare', upstream.url, folder.dir, compiled);
    started.push(bare);
    // The tap's shell with a core that only frames and JSON.parses each event: the floor of judging.
    const parseOnly = await startArm('parse', upstream.url, folder.dir, compiled);
    started.push(parseOnly);
    // A second bare proxy, its own process: bare against bare by the same pairing is the floor of the method (two processes' scheduling on this machine).
    const bare2 = await startArm('bare', upstream.url, folder.dir, compiled, 'bare2');
    started.push(bare2);
    // The same tap run from the TypeScript sources through tsx, as `npx tsx cli/main.ts tap` in a checkout runs it (throughput only, for context).
    const tapTsx = await startArm('tap', upstream.url, folder.dir, 'tsx', 'tap-tsx');
    started.push(tapTsx);
    const target = (url: string, app: string): Target => ({ url, path: '/run_sse', body: runBody(app), headers: sseHeaders });

    // 1. Byte identity: the same body direct, through the bare proxy and through the tap.
    const identity: Record<string, { bytes: number; identical: boolean }> = {};
    const bodies = new Map<string, Buffer>();
    for (const app of [cedarCreekStreamingId, plainTextStreamingId, workloads.paced.id, workloads.held.id]) {
      const [direct, viaBare, viaTap] = await Promise.all([upstream.url, bare.url, tap.url].map((url) => fetchBody(target(url, app))));
      const same = direct?.status === 200 && viaBare?.status === 200 && viaTap?.status === 200 && direct.body.equals(viaTap.body) && direct.body.equals(viaBare.body);
      if (!same) throw new Error(`tap benchmark: '${app}' is not byte-identical: direct HTTP ${direct?.status} ${direct?.body.length} bytes, bare proxy HTTP ${viaBare?.status} ${viaBare?.body.length} bytes, tap HTTP ${viaTap?.status} ${viaTap?.body.length} bytes`);
      identity[app] = { bytes: direct.body.length, identical: true };
      bodies.set(app, direct.body);
    }
    const bodyBytes = (app: string) => identity[app]?.bytes ?? Number.NaN;
    /** Every stream of a load delivered exactly the body's bytes (and no stream failed). */
    const exact = (t: Pick<LoadTotals, 'runs' | 'bytes' | 'errors' | 'badStatus'>, app: string) => t.errors === 0 && t.badStatus === 0 && t.bytes === t.runs * bodyBytes(app);

    // 2. Throughput at `concurrency` streams: tap, bare proxy, direct, rotating rounds.
    const cedarEvents = 16;
    const sides = [
      { name: 'through the tap', target: target(tap.url, cedarCreekStreamingId), pids: [tap.pid] },
      { name: 'through a bare node:http proxy', target: target(bare.url, cedarCreekStreamingId), pids: [bare.pid] },
      { name: 'direct to the upstream', target: target(upstream.url, cedarCreekStreamingId), pids: [upstream.pid] },
      { name: 'through the tap shell that only frames and parses', target: target(parseOnly.url, cedarCreekStreamingId), pids: [parseOnly.pid] },
      { name: 'through the tap run by tsx from the sources', target: target(tapTsx.url, cedarCreekStreamingId), pids: [tapTsx.pid] },
      // The same bare proxy in a second process: what two identical arms differ by here (the method's floor).
      { name: 'through a second bare node:http proxy', target: target(bare2.url, cedarCreekStreamingId), pids: [bare2.pid] },
    ] as const satisfies readonly Side[];
    for (const side of sides) await closedLoop({ target: side.target, concurrency: options.concurrency, durationMs: Math.min(500, options.durationMs) });
    const [tapBefore, bareBefore] = [await tap.read(), await bare.read()];
    const [onTap, onBare, onDirect, onParse, onTsx, onBare2] = await abRounds(sides, { rounds: options.rounds, durationMs: options.durationMs, concurrency: options.concurrency });
    const [tapAfter, bareAfter] = [await tap.read(), await bare.read()];
    // The collections each arm ran by itself over the throughput rounds (the probes' forced ones left out).
    const collections = (before: ArmProbe, after: ArmProbe, events: number) => {
      const young = after.gc.young - before.gc.young;
      const youngMs = after.gc.youngMs - before.gc.youngMs;
      const full = after.gc.full - before.gc.full;
      const fullMs = after.gc.fullMs - before.gc.fullMs;
      return { young, youngMs, full, fullMs, usPerEvent: events > 0 ? ((youngMs + fullMs) * 1000) / events : Number.NaN, meanYoungMs: young > 0 ? youngMs / young : Number.NaN };
    };
    const gcTap = collections(tapBefore, tapAfter, onTap.events);
    const gcBare = collections(bareBefore, bareAfter, onBare.events);
    const throughputExact = [onTap, onBare, onDirect, onParse, onTsx, onBare2].every((t) => exact(t, cedarCreekStreamingId) && t.events === t.runs * cedarEvents);

    // 3. Latency per frame. The upstream plays both streams of a pair in lockstep (x-bench-pair),
    //    so a pair's difference is the hops' alone. The figure with the goal: each arm's hop (event
    //    k through the arm minus event k direct, the pair started in the same tick), tap and bare
    //    proxy in alternating rounds, and the tap's p99 minus the bare proxy's p99. For context, the
    //    tap against the bare proxy in the same tick, with its floor (the bare proxy against a
    //    second one): two proxy processes woken by the same write on 2 cores contend for them.
    const paced = workloads.paced.id;
    type Pairing = { added: number[]; firstAdded: number[]; pairs: number; incomplete: number; firstError?: string };
    const pairing = (): Pairing => ({ added: [], firstAdded: [], pairs: 0, incomplete: 0 });
    const collect = (into: Pairing, result: Awaited<ReturnType<typeof pairedLoop>>, sign: 1 | -1) => {
      for (const d of result.differencesMs) into.added.push(sign * d);
      for (const d of result.firstEventDifferencesMs) into.firstAdded.push(sign * d);
      into.pairs += result.pairs;
      into.incomplete += result.incomplete;
      if (result.firstError !== undefined) into.firstError ??= result.firstError;
    };
    const tapHop = pairing();
    const bareHop = pairing();
    const tapPairs = pairing();
    const floorPairs = pairing();
    const hopRound = async (into: Pairing, arm: Arm) => collect(into, await pairedLoop(target(upstream.url, paced), target(arm.url, paced), options.latencyConcurrency, options.latencyDurationMs), 1);
    const pairRound = async (into: Pairing, under: Arm, round: number) => {
      const underFirst = round % 2 === 1;
      const [a, b] = underFirst ? [target(under.url, paced), target(bare.url, paced)] : [target(bare.url, paced), target(under.url, paced)];
      // pairedLoop gives b - a: always `under` minus the bare proxy here
      collect(into, await pairedLoop(a, b, options.latencyConcurrency, options.latencyDurationMs), underFirst ? -1 : 1);
    };
    for (let round = 0; round < options.latencyRounds; round++) {
      if (round % 2 === 0) { await hopRound(tapHop, tap); await hopRound(bareHop, bare); } else { await hopRound(bareHop, bare); await hopRound(tapHop, tap); }
    }
    for (let round = 0; round < options.latencyRounds; round++) {
      if (round % 2 === 0) { await pairRound(tapPairs, tap, round); await pairRound(floorPairs, bare2, round); } else { await pairRound(floorPairs, bare2, round); await pairRound(tapPairs, tap, round); }
    }
    for (const p of [tapHop, bareHop, tapPairs, floorPairs]) if (p.added.length === 0) throw new Error(`tap benchmark: no complete pair of paced streams (${p.incomplete} of ${p.pairs} incomplete: ${p.firstError ?? 'no pair ran'})`);
    const summary = (p: Pairing) => ({ pairs: p.pairs, incomplete: p.incomplete, events: p.added.length, p50: quantile(p.added, 0.5), p90: quantile(p.added, 0.9), p99: quantile(p.added, 0.99), max: quantile(p.added, 1), firstEventP99: quantile(p.firstAdded, 0.99), ...(p.firstError !== undefined ? { firstError: p.firstError } : {}) });
    const hop = { tap: summary(tapHop), bare: summary(bareHop) };
    const addedP99 = hop.tap.p99 - hop.bare.p99;
    const addedP50 = hop.tap.p50 - hop.bare.p50;
    const latency = { addedP50, addedP99, hop, sameTick: { ...summary(tapPairs), floor: summary(floorPairs) } };

    // 4. Memory per open stream: N held streams mid-stream (event 3 or 4 of 10, 300 ms apart).
    const holdFor = async (arm: Arm) => {
      const idle = await arm.read();
      const load = burst(target(arm.url, workloads.held.id), options.openStreams);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const open = await arm.read();
      const totals = await load;
      return { idle, open, perStreamBytes: open.open > 0 ? (open.heapUsed - idle.heapUsed) / open.open : Number.NaN, perStreamExternalBytes: open.open > 0 ? (open.external - idle.external) / open.open : Number.NaN, exact: exact(totals, workloads.held.id), peakOpen: totals.peakOpen, runs: totals.runs };
    };
    const bareHeld = await holdFor(bare);
    const tapHeld = await holdFor(tap);

    // 5. Heap after GC over many judged runs (plain_text_streaming, 5 events a run).
    const runTarget = target(tap.url, plainTextStreamingId);
    const warm = await countedLoop(runTarget, options.warmupRuns, options.runConcurrency);
    const points: Array<{ runs: number; heapUsed: number; external: number; rss: number; elapsedMs: number; exact: boolean }> = [];
    const afterWarm = await tap.read();
    let done = 0;
    let runsExact = exact(warm, plainTextStreamingId);
    for (const checkpoint of options.runCheckpoints) {
      const load = await countedLoop(runTarget, checkpoint - done, options.runConcurrency);
      done = checkpoint;
      runsExact &&= exact(load, plainTextStreamingId);
      const p = await tap.read();
      points.push({ runs: checkpoint, heapUsed: p.heapUsed, external: p.external, rss: p.rss, elapsedMs: load.elapsedMs, exact: exact(load, plainTextStreamingId) });
    }
    const final = await tap.read();
    const first = points[0] as (typeof points)[number];
    const last = points.at(-1) as (typeof points)[number];
    // Heap after a full GC moves by a few hundred KB between reads with nothing retained: a fit over every point, not first to last.
    const reads = points.map((p) => ({ x: p.runs, y: p.heapUsed }));
    const slope = slopeOf(reads);
    const slopeError = slopeStandardError(reads);

    // Every run this tap judged in the whole benchmark (identity, throughput, latency, held, runs).
    const allPassed = final.failed === 0 && final.passed === true;
    const mb = (bytes: number) => bytes / 1048576;
    const kb = (bytes: number) => bytes / 1024;
    const rate = perSecond(onTap.events, onTap.elapsedMs);
    const bareRate = perSecond(onBare.events, onBare.elapsedMs);
    const directRate = perSecond(onDirect.events, onDirect.elapsedMs);
    const parseRate = perSecond(onParse.events, onParse.elapsedMs);
    const tsxRate = perSecond(onTsx.events, onTsx.elapsedMs);
    const bare2Rate = perSecond(onBare2.events, onBare2.elapsedMs);
    const parseFloor = parseCostPerEvent(bodies.get(cedarCreekStreamingId) ?? Buffer.alloc(0));
    // 0.8 of the bare proxy's events/s allows the tap 1.25x its CPU per event: a quarter of it for all judging.
    const judgingBudget = 0.25 * cpuPerEvent(onBare);
    const figures: Figure[] = [
      figure({ name: `tap added latency per frame at p99: the tap's hop p99 minus the bare proxy's (${paced}, ${hop.tap.events} + ${hop.bare.events} frames)`, unit: 'ms', value: addedP99, baseline: { name: 'the bare proxy\'s hop p99 (event k through it minus event k direct)', value: hop.bare.p99 }, goal: below(addedP99, 1, '< 1 ms at p99') }),
      figure({ name: 'tap hop per frame, p99 (event k through the tap minus direct, lockstep upstream)', unit: 'ms', value: hop.tap.p99, baseline: { name: 'bare proxy hop, p99', value: hop.bare.p99 } }),
      figure({ name: 'tap hop per frame, p50', unit: 'ms', value: hop.tap.p50, baseline: { name: 'bare proxy hop, p50', value: hop.bare.p50 } }),
      figure({ name: `tap against the bare proxy in the same tick, p99 (context: ${latency.sameTick.events} frames; two proxies woken by one write contend for 2 cores)`, unit: 'ms', value: latency.sameTick.p99, baseline: { name: 'a second bare proxy against the bare proxy, p99 (floor)', value: latency.sameTick.floor.p99 } }),
      figure({ name: `tap events/s (Cedar Creek streaming, 16 events, ${options.concurrency} streams)${onTap.errors + onTap.badStatus ? `, ${onTap.errors + onTap.badStatus} failed streams` : ''}`, unit: 'events/s', value: rate, baseline: { name: 'bare node:http proxy', value: bareRate }, goal: atLeast(bareRate > 0 ? rate / bareRate : null, 0.8, '>= 0.8 of bare proxy') }),
      figure({ name: 'the tap\'s shell with a core that only frames and JSON.parses each event, events/s (the most any judging tap reaches here)', unit: 'events/s', value: parseRate, baseline: { name: 'bare node:http proxy', value: bareRate } }),
      figure({ name: 'the same tap run from the TypeScript sources through tsx (a checkout\'s `npx tsx cli/main.ts tap`), events/s', unit: 'events/s', value: tsxRate, baseline: { name: 'bare node:http proxy', value: bareRate } }),
      figure({ name: 'a second bare node:http proxy, its own process, events/s (what two identical arms differ by in one run: the method\'s floor)', unit: 'events/s', value: bare2Rate, baseline: { name: 'bare node:http proxy', value: bareRate } }),
      figure({ name: 'bare proxy events/s (what one extra hop allows)', unit: 'events/s', value: bareRate, baseline: { name: 'direct to the upstream', value: directRate } }),
      figure({ name: 'tap process CPU per event (Cedar Creek streaming)', unit: 'µs', value: cpuPerEvent(onTap), baseline: { name: 'bare proxy process', value: cpuPerEvent(onBare) } }),
      figure({ name: `tap garbage collection per event over the throughput rounds (${gcTap.young} young collections, mean ${gcTap.meanYoungMs.toFixed(2)} ms; ${gcTap.full} full)`, unit: 'µs', value: gcTap.usPerEvent, baseline: { name: `bare proxy (${gcBare.young} young, mean ${gcBare.meanYoungMs.toFixed(2)} ms; ${gcBare.full} full)`, value: gcBare.usPerEvent } }),
      figure({ name: 'tap run through tsx, process CPU per event', unit: 'µs', value: cpuPerEvent(onTsx), baseline: { name: 'bare proxy process', value: cpuPerEvent(onBare) } }),
      figure({ name: 'frame-and-parse shell process CPU per event', unit: 'µs', value: cpuPerEvent(onParse), baseline: { name: 'bare proxy process', value: cpuPerEvent(onBare) } }),
      figure({ name: `JSON.parse alone of each Cedar Creek streaming event, in process (${parseFloor.events} events; the least work of judging an event)`, unit: 'µs', value: parseFloor.usPerEvent, baseline: { name: 'the CPU per event 0.8 of the bare proxy leaves for all judging (0.25 x its CPU per event)', value: judgingBudget } }),
      figure({ name: `tap heap retained per open stream (${tapHeld.open.open} held mid-stream, after GC)`, unit: 'KB', value: kb(tapHeld.perStreamBytes), baseline: { name: `bare proxy, ${bareHeld.open.open} held`, value: kb(bareHeld.perStreamBytes) }, goal: below(kb(tapHeld.perStreamBytes), 64, 'bounded: < 64 KB per stream') }),
      ...[first, points[Math.floor(points.length / 2)] ?? first, last].map((p) => figure({ name: `tap heap after GC after ${p.runs.toLocaleString('en')} judged runs (+${options.warmupRuns.toLocaleString('en')} warm-up)`, unit: 'MB', value: mb(p.heapUsed), baseline: { name: 'after the warm-up', value: mb(afterWarm.heapUsed) } })),
      figure({ name: `tap heap growth per judged run, least-squares over ${points.length} reads from ${first.runs.toLocaleString('en')} to ${last.runs.toLocaleString('en')} runs (standard error ${slopeError.toFixed(2)} bytes/run; first to last ${(mb(last.heapUsed - first.heapUsed)).toFixed(2)} MB; reads ${mb(Math.min(...reads.map((r) => r.y))).toFixed(2)} to ${mb(Math.max(...reads.map((r) => r.y))).toFixed(2)} MB)`, unit: 'bytes/run', value: slope, baseline: { name: `heap per run held at ${first.runs.toLocaleString('en')} (since warm-up)`, value: (first.heapUsed - afterWarm.heapUsed) / first.runs }, goal: below(slope, 1, 'flat: < 1 byte per run') }),
      figure({ name: `judged runs failed, of ${final.runs ?? 0} the tap judged (verdict: ${final.verdict ?? 'none'}; byte counts ${throughputExact && runsExact && tapHeld.exact ? 'exact' : 'NOT exact'})`, unit: 'runs', value: final.failed ?? Number.NaN, baseline: { name: 'runs judged', value: final.runs ?? 0 }, goal: { text: 'all passed, bytes identical', met: allPassed && throughputExact && runsExact && tapHeld.exact && bareHeld.exact } }),
    ];
    return {
      id: 'tap',
      title: 'adk-conformance tap (role adk, report collector) vs a bare node:http proxy, same upstream',
      figures,
      notes: [
        'upstream: bench/children/plain-server.ts replaying the mock\'s rendering (adk-js, streaming) of the workloads; arms: bench/children/tap-arm.ts tap|parse|bare compiled to JavaScript as the published package runs the kit (bench/lib/compiled.ts: esbuild, no keepNames), each its own process; one more tap arm run through tsx from the sources for throughput context; the client is this process',
        `byte identity: ${Object.entries(identity).map(([app, i]) => `${app} ${i.bytes} B`).join(', ')} identical direct, through the bare proxy and through the tap; every load stream delivered exactly the body's bytes: ${throughputExact && runsExact && tapHeld.exact ? 'yes' : 'NO'}`,
        `latency: ${paced} (${workloads.paced.chunks + 1} events ${workloads.paced.chunkDelayMs} ms apart), ${options.latencyConcurrency} pairs at a time, ${options.latencyRounds} rounds of ${options.latencyDurationMs} ms per arm; the upstream plays a pair's two streams in lockstep (each event written to both in one tick); hop = arrival of event k through the arm − direct, tap and bare proxy in alternating rounds; added at p99 = tap hop p99 − bare proxy hop p99; context: the tap against the bare proxy in the same tick (order swapped each round) and its floor, a second bare proxy process against the first`,
        `throughput: ${options.concurrency} concurrent keep-alive streams of ${cedarCreekStreamingId}, ${options.rounds} rotating rounds of ${options.durationMs} ms per side (tap, bare, direct, tap-arm.ts parse: the tap's shell framing and JSON.parsing each event, judging nothing, the tap through tsx, and a second bare proxy)`,
        `memory: heap used after a full GC in the arm (--expose-gc, SIGUSR2); open streams: ${options.openStreams} streams of ${workloads.held.id} (10 events 300 ms apart) read 1 s in; runs: ${plainTextStreamingId} (5 events), ${options.runConcurrency} at a time, ${options.warmupRuns} warm-up runs; the CLI's per-run terminal line is not printed`,
        'garbage collection: node:perf_hooks \'gc\' entries in each arm between probes read just before and just after the throughput rounds (young: scavenges; full: mark-compacts and incremental marking; the probes\' forced collections left out)',
      ],
      details: { identity, throughput: { tap: strip(onTap), bare: strip(onBare), direct: strip(onDirect), parseOnly: strip(onParse), tapTsx: strip(onTsx), bare2: strip(onBare2), exact: throughputExact, collections: { tap: gcTap, bare: gcBare } }, latency, held: { tap: tapHeld, bare: bareHeld }, runs: { afterWarm, points, slopeBytesPerRun: slope, slopeStandardError: slopeError, exact: runsExact }, final },
    };
  } finally {
    await Promise.all(started.map((c) => c.stop()));
    folder.remove();
  }
}
