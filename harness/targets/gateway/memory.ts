/**
 * GW-MEM-002's runs: thousands of short runs through the `memory` instance, a process nothing else
 * uses, whose upstream is the harness's own fixed-answer server (every POST gets the mock's bytes
 * for `plain_text`, so the mock's journal and counters never see these runs). Counted, never timed.
 *
 * A Node gateway (its V8 inspector answers on the port the harness gave it, inspector.ts):
 * 500 warm-up runs, then up to 6,000 runs with the heap in use plus external memory read after a
 * forced full collection every 250, stopped from 2,000 on once the slope is clear of the bound
 * (heapVerdictClear, harness/checks/memory-retention.ts). Any other: an adaptive warm-up (until a
 * runtime's one-time growth is over), then batches of 500 runs with the RSS of the gateway's processes read after
 * each, until memoryProgress (harness/checks/gateway/memory.ts) says the verdict is clear or every
 * run is done. The runs start once the instances listen and overlap everything else; the probe
 * `memory` collects them, holding no slot of the engine's gate while it waits (Probe.collects).
 */
import net, { type AddressInfo } from 'node:net';
import type { Probe, RunEnv, ScenarioCheck } from '../types.ts';
import { checkMemory, heapVerdictClear, memoryDefaults, memoryProgress, type MemoryObservation, type MemorySample, type MemorySettings } from '../../checks/gateway/memory.ts';
import { upstreamScript } from './contract.ts';
import { processOf, type GatewayInstance } from './instances.ts';
import { createRunPool } from './run-pool.ts';
import { closesConnection, createHttp1Reader } from '../../../core/http1-reader.ts';
import { allUntested, appNameOf, headersFor, withInstance, type GatewayKit } from './kit.ts';
import { openInspector, type InspectorSession } from './inspector.ts';
import { currentLedger, fairDeadline, type FairDeadline, type Ledger } from '../../fair-timer.ts';
import type { Scenario } from '../../../schemas/types.ts';
import { render } from '../../../mock-adk/core/render.ts';

type KitRef = () => GatewayKit;

export type FixedUpstream = { url: string; close: () => Promise<void>; served: () => number };

/**
 * An upstream that answers every request with one rendered scenario, at once (no journal, no
 * counters): the whole answer prebuilt, written in one piece once a request has been read to its end
 * (core/http1-reader.ts, read as strictly as Node's server reads it), the connection closed after it
 * when the request asks for that. A node:http server cost the harness more per run than this
 * (docs/performance.md fix 51), on the event loop every part shares.
 */
export async function startFixedUpstream(scenario: Scenario): Promise<FixedUpstream> {
  const plan = render(scenario, { dialect: scenario.dialect, streaming: false, appName: scenario.id, userId: scenario.session.userId, sessionId: 'memory' });
  const body = Buffer.from(upstreamScript(scenario, { appName: scenario.id, userId: scenario.session.userId, sessionId: 'memory' }, false).bytes);
  const head = (close: boolean) => Buffer.from(['HTTP/1.1 200 OK', ...plan.headers.filter(([name]) => !/^(date|transfer-encoding|content-length|connection|keep-alive)$/i.test(name)).map(([name, value]) => `${name}: ${value}`), `content-length: ${body.length}`, `connection: ${close ? 'close' : 'keep-alive'}`, '', ''].join('\r\n'), 'latin1');
  const answers = { close: Buffer.concat([head(true), body]), keep: Buffer.concat([head(false), body]) };
  let served = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let closes = false;
    const reader = createHttp1Reader({
      kind: 'request',
      onHead: (h) => { closes = closesConnection(h.version, h.headers); },
      onBody: () => {},
      onMessageEnd: () => {
        served++;
        if (closes) socket.end(answers.close);
        else socket.write(answers.keep);
      },
      onError: () => { socket.destroy(); },
    });
    socket.on('data', (chunk: Buffer) => reader.feed(chunk));
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', resolve); });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served: () => served,
    close: () => new Promise<void>((resolve) => { for (const socket of sockets) socket.destroy(); server.close(() => resolve()); }),
  };
}

export type MemoryLoadOptions = Partial<MemorySettings> & {
  /** Runs in flight at once. Default 8. */
  concurrency?: number;
  /** Warm-up: at least this many runs (1,000), then 500 more while the last 1,000 grew RSS by 6 MB or more, up to the maximum (5,000). */
  warmupRuns?: number;
  maxWarmupRuns?: number;
  /** Runs between two RSS readings. Default 500. */
  batch?: number;
  /** Runs measured through the V8 inspector at most (a reading after a forced collection every 250, memoryLoadDefaults.heapBatch). Default 6,000. */
  heapRuns?: number;
  /**
   * The bound of all the runs, warm-up included, from the first: then the measuring stops and what
   * was measured is judged (a warm-up not finished by then is reported timed out, never judged).
   * Default: 45 s, or --timeout-ms less 3 s when that is longer. The runs also end by the engine's
   * scenario bound less 3 s after the probe's own job started.
   */
  maxMs?: number;
};

/** The memory runs' bound for a run whose scenario bound is `scenarioTimeoutMs` (MemoryLoadOptions.maxMs). */
export function memoryBoundMs(scenarioTimeoutMs: number, maxMs?: number): number {
  return maxMs ?? Math.max(memoryLoadDefaults.maxMs, scenarioTimeoutMs - 3000);
}

/** The reason of a warm-up the bound cut short: timed out, with the bound and the flag that raises it. */
export function warmupTimedOut(done: number, wanted: number, boundMs: number, movedMs = 0): string {
  const moved = movedMs > 0 ? `it moved ${(movedMs / 1000).toFixed(1)} s for CPU time the machine withheld; ` : '';
  return `timed out: the memory probe's warm-up had done ${done} of its ${wanted} runs when the memory runs' bound of ${Math.round(boundMs / 1000)} s ran out (${moved}counted from the first run, warm-up included), so nothing was measured; a slow gateway gets more with --timeout-ms (the bound is the longer of 45 s and --timeout-ms less 3 s)`;
}

/**
 * `heapWarmupRuns`: 500 runs before the first heap reading (the RSS path's warm-up is adaptive, from
 * `warmupRuns`). The reference gateway's heap after a forced collection was within 0.35 MB of its
 * level after 1,000 runs from the first 125 runs on (three runs read every 125 during a 1,000-run
 * warm-up, 2026-11-30); a one-time growth later than 500 runs only keeps the slope from being clear
 * early, and the runs go on (docs/performance.md fix 48).
 * `heapBatch`: a reading every 250 runs, not 500: twice the readings over the same runs make the slope's
 * standard error clear sooner, so the reference stops after 2,000 to 2,250 runs, not 2,500 to 3,000 (a forced
 * collection of a 15 MB heap costs a few ms; docs/performance.md fix 43).
 */
export const memoryLoadDefaults = { concurrency: 8, warmupRuns: 1000, maxWarmupRuns: 5000, batch: 500, maxMs: 45_000, warmupGrowthBytes: 6 * 1024 * 1024, heapWarmupRuns: 500, heapRuns: 6000, heapBatch: 250 } as const;

/** `count` runs, `concurrency` at a time; none starts once `signal` aborted or `timeUp()` says so. */
async function repeatRuns(count: number, concurrency: number, one: () => Promise<string | undefined>, signal: AbortSignal, timeUp: () => boolean): Promise<{ done: number; failed: number; first?: string }> {
  let next = 0;
  let done = 0;
  let failed = 0;
  let first: string | undefined;
  const worker = async () => {
    while (next < count && !signal.aborted && !timeUp()) {
      next++;
      const problem = await one();
      done++;
      if (problem !== undefined) { failed++; first ??= problem; }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { done, failed, ...(first !== undefined ? { first } : {}) };
}

async function measure(kit: GatewayKit, instance: GatewayInstance, o: MemoryLoadOptions & { maxMs: number }, signal: AbortSignal, fair: FairDeadline, probeDeadline: () => number): Promise<MemoryObservation | { error: string }> {
  // One bound for every run, warm-up included (the warm-up had none: a slow gateway's ran past 120 s).
  // It counts the gateway's time: at nice 5 behind a loaded CI runner the example FastAPI gateway got
  // through 2,000 runs in 45 s and GW-MEM-002 was untested (clean-clone CI of stop 46, 2026-11-30).
  const deadline = () => Math.min(fair.at(), probeDeadline());
  const timeUp = () => performance.now() >= deadline();
  const settings: MemorySettings = { ...memoryDefaults, ...Object.fromEntries(Object.entries(o).filter(([k]) => k in memoryDefaults)) };
  const concurrency = o.concurrency ?? memoryLoadDefaults.concurrency;
  const batch = o.batch ?? memoryLoadDefaults.batch;
  const scenario = kit.scenario('plain_text');
  const body = JSON.stringify({ appName: appNameOf(kit, scenario), userId: scenario.session.userId, sessionId: kit.session('memory'), newMessage: { role: 'user', parts: [{ text: scenario.request.message }] }, streaming: false });
  const pool = createRunPool({ url: `${instance.url}/run_sse`, headers: headersFor(kit, instance), body, idleMs: 5000, signal });
  let failed = 0;
  let firstFailure: string | undefined;
  const one = pool.one;
  const runs = async (count: number): Promise<number> => {
    const r = await repeatRuns(count, concurrency, one, signal, timeUp);
    failed += r.failed;
    firstFailure ??= r.first;
    return r.done;
  };
  try {
    // Warm-up: the gateway's caches, JIT, pools and a runtime's heap sizing settle.
    const rss = (): number | { error: string } => instance.rss();
    const before = rss();
    if (typeof before !== 'number') return before;
    const inspector = kit.memoryInspectorPort !== undefined ? await openInspector(kit.memoryInspectorPort, instance.port) : undefined;
    if (inspector) {
      try {
        return await measureHeap(inspector, runs, settings, o, signal, deadline, () => ({ failed, firstFailure }));
      } finally {
        inspector.close();
      }
    }
    let warmup = 0;
    const history: number[] = [before];
    const minWarmup = o.warmupRuns ?? memoryLoadDefaults.warmupRuns;
    const maxWarmup = Math.max(minWarmup, o.maxWarmupRuns ?? memoryLoadDefaults.maxWarmupRuns);
    for (;;) {
      warmup += await runs(batch);
      if (timeUp() && !signal.aborted) return { error: warmupTimedOut(warmup, Math.max(minWarmup, warmup), o.maxMs, fair.movedMs()) };
      const r = rss();
      if (typeof r !== 'number') return r;
      history.push(r);
      const back = history.at(-1 - Math.round(1000 / batch));
      // No one-time jump in the last 1,000 runs (a later one is left out of the estimate: retainedPerRun).
      const settled = back !== undefined && r - back < memoryLoadDefaults.warmupGrowthBytes;
      if (signal.aborted || warmup >= maxWarmup || (warmup >= minWarmup && settled)) break;
    }
    if (failed > warmup / 2) return { error: `${failed} of ${warmup} warm-up runs failed (${firstFailure ?? 'no message'}), so the memory of completed runs cannot be measured` };
    const first = rss();
    if (typeof first !== 'number') return first;
    const samples: MemorySample[] = [{ afterRuns: 0, rssBytes: first }];
    let stoppedBy: MemoryObservation['stoppedBy'] = 'runs';
    for (let done = 0; !signal.aborted;) {
      const t0 = performance.now();
      if (!another(t0, deadline())) { stoppedBy = 'time'; break; }
      const ran = await runs(batch);
      // A batch the bound cut short is not a reading of `batch` runs: the time is up.
      if (ran < batch) { stoppedBy = 'time'; break; }
      done += batch;
      const r = rss();
      if (typeof r !== 'number') return r;
      samples.push({ afterRuns: done, rssBytes: r });
      const verdict = memoryProgress(samples, settings);
      if (verdict !== 'continue') { stoppedBy = verdict; break; }
    }
    if (signal.aborted) return { error: 'the memory probe was cancelled before its runs were done' };
    return { warmupRuns: warmup, runs: samples.at(-1)?.afterRuns ?? 0, failedRuns: failed, samples, settings, stoppedBy, firstFailure };
  } finally {
    pool.close();
  }
}

/** Whether one more batch, as long as the one that started at `t0`, ends before `deadline` (a busy machine's batches are slow). */
function another(t0: number, deadline: number): boolean {
  const now = performance.now();
  return now + (now - t0) <= deadline;
}

/** The inspector's measure (inspector.ts): 500 warm-up runs, then a reading after a forced collection every 250 runs until the verdict is clear or the runs are done. */
async function measureHeap(inspector: InspectorSession, runs: (count: number) => Promise<number>, settings: MemorySettings, o: MemoryLoadOptions & { maxMs: number }, signal: AbortSignal, deadline: () => number, failures: () => { failed: number; firstFailure: string | undefined }): Promise<MemoryObservation | { error: string }> {
  const warmup = o.warmupRuns ?? memoryLoadDefaults.heapWarmupRuns;
  const batch = memoryLoadDefaults.heapBatch;
  const total = o.heapRuns ?? memoryLoadDefaults.heapRuns;
  const warmed = await runs(warmup);
  if (warmed < warmup && !signal.aborted) return { error: warmupTimedOut(warmed, warmup, o.maxMs) };
  const read = async (): Promise<number | { error: string }> => {
    const r = await inspector.read();
    return 'error' in r ? r : r.heapUsed + r.external;
  };
  const first = await read();
  if (typeof first !== 'number') return first;
  const samples: MemorySample[] = [{ afterRuns: 0, rssBytes: first }];
  let stoppedBy: MemoryObservation['stoppedBy'] = 'runs';
  for (let done = 0; done < total && !signal.aborted;) {
    const t0 = performance.now();
    const ran = await runs(batch);
    if (ran < batch) { stoppedBy = 'time'; break; }
    done += batch;
    const r = await read();
    if (typeof r !== 'number') return r;
    samples.push({ afterRuns: done, rssBytes: r });
    if (done < total && heapVerdictClear(samples, settings.boundBytesPerRun, settings.minRuns)) { stoppedBy = 'heap-clear'; break; }
    if (done < total && !another(t0, deadline())) { stoppedBy = 'time'; break; }
  }
  if (signal.aborted) return { error: 'the memory probe was cancelled before its runs were done' };
  const { failed, firstFailure } = failures();
  return { metric: 'heap', warmupRuns: warmup, runs: samples.at(-1)?.afterRuns ?? 0, failedRuns: failed, samples, settings, stoppedBy, firstFailure };
}

export type MemoryLoad = {
  /** Start the runs in the background (idempotent). */
  kick: (env: RunEnv) => void;
  probe: Probe;
  stop: () => void;
};

export function createMemoryLoad(kitRef: KitRef, options: MemoryLoadOptions): MemoryLoad {
  const id = 'probe:memory';
  const requirements = ['GW-MEM-002'];
  const cancel = new AbortController();
  let result: Promise<ScenarioCheck> | undefined;
  // The runs start once the `memory` instance listens (kick) and must end within the engine's bound on the
  // probe's own job, which counts from when that job starts (run) and is the scenario's plus the
  // runs' own bound (the runner's extraBoundMs): a collector starts with the part's first jobs.
  let deadline = Infinity;
  // The runs' bound moves for CPU time the machine withheld, and the engine's bound on the probe's job with it.
  let fair: FairDeadline | undefined;
  let ledger: Ledger | undefined;
  const kick = (env: RunEnv) => {
    result ??= withInstance(kitRef(), 'memory', requirements, id, async (instance) => {
      const maxMs = memoryBoundMs(env.scenarioTimeoutMs, options.maxMs);
      const moves = fairDeadline(maxMs, processOf(instance));
      fair = moves;
      moves.record(ledger);
      const measured = await measure(kitRef(), instance, { ...options, maxMs }, cancel.signal, moves, () => deadline + moves.movedMs());
      const observation = 'error' in measured || moves.movedMs() === 0 ? measured : { ...measured, boundMovedMs: moves.movedMs() };
      const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
      const summary = 'error' in observation ? observation.error
        : `${observation.runs} runs after ${observation.warmupRuns} warm-up runs (stopped: ${observation.stoppedBy}); ${observation.metric === 'heap' ? 'V8 heap in use + external memory after a forced collection' : 'RSS'} ${observation.samples.filter((_, i, all) => i % Math.max(1, Math.ceil(all.length / 10)) === 0 || i === all.length - 1).map((p) => `${p.afterRuns}: ${mb(p.rssBytes)}`).join(', ')}`;
      return { outcomes: checkMemory(id, observation), timeline: [{ t: 0, kind: 'note', summary }] };
    }, env)
      // Started in the background: it must never reject unobserved.
      .catch((error: unknown) => allUntested(requirements, id, `the memory probe could not finish: ${(error as Error).message}`));
  };
  return {
    kick,
    probe: {
      id: 'memory',
      requirements,
      collects: true,
      run: async (env) => {
        kick(env);
        if (deadline === Infinity) deadline = performance.now() + env.scenarioTimeoutMs + memoryBoundMs(env.scenarioTimeoutMs, options.maxMs) - 3000;
        ledger ??= currentLedger();
        fair?.record(ledger);
        const onAbort = () => cancel.abort();
        env.signal.addEventListener('abort', onAbort, { once: true });
        try { return await (result as Promise<ScenarioCheck>); } finally { env.signal.removeEventListener('abort', onAbort); }
      },
    },
    stop: () => cancel.abort(),
  };
}
