/**
 * The one load client every HTTP benchmark uses, for the server under test and its baseline
 * alike: a raw `node:http` POST read to EOF. It parses nothing: it counts bytes and the blank
 * lines that end SSE events (`\n\n`, the only framing ADK servers write, adk-wire-format §3),
 * so its own cost is small and identical on both sides of every ratio.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export type Target = {
  /** Base URL of the server (`http://127.0.0.1:PORT`). */
  url: string;
  path: string;
  body: string;
  headers?: Record<string, string>;
};

export type StreamSample = {
  /** performance.now() when the request was sent (all other times are ms after it). */
  startedAt: number;
  status: number;
  bytes: number;
  /** SSE events dispatched (`\n\n` line pairs). */
  events: number;
  /** ms from sending the request to the status line, and to the first body byte. */
  headersMs: number | undefined;
  firstByteMs: number | undefined;
  endMs: number;
  /** ms from sending the request to the chunk that completed each event (when asked for). */
  eventMs?: number[];
  error?: string;
};

const LFLF = Buffer.from('\n\n');

/** Idle time after which a stream is abandoned as an error (no benchmark workload is silent this long). */
const idleLimitMs = 30_000;

export function fetchStream(target: Target, agent: http.Agent | false, recordEventTimes = false): Promise<StreamSample> {
  const url = new URL(target.path, target.url);
  const body = Buffer.from(target.body);
  return new Promise((resolve) => {
    const start = performance.now();
    const sample: StreamSample = { startedAt: start, status: 0, bytes: 0, events: 0, headersMs: undefined, firstByteMs: undefined, endMs: 0, ...(recordEventTimes ? { eventMs: [] } : {}) };
    let lastWasLf = false;
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      sample.endMs = performance.now() - start;
      if (error !== undefined) sample.error = error;
      resolve(sample);
    };
    const req = http.request(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': String(body.length), ...target.headers },
    }, (res) => {
      sample.status = res.statusCode ?? 0;
      sample.headersMs = performance.now() - start;
      res.on('data', (chunk: Buffer) => {
        const at = performance.now() - start;
        sample.firstByteMs ??= at;
        sample.bytes += chunk.length;
        let from = 0;
        // A blank line split across two chunks: the previous chunk ended with its first LF.
        if (lastWasLf && chunk[0] === 10) { sample.events++; sample.eventMs?.push(at); from = 1; }
        for (;;) {
          const i = chunk.indexOf(LFLF, from);
          if (i < 0) break;
          sample.events++;
          sample.eventMs?.push(at);
          from = i + 2;
        }
        lastWasLf = chunk.length > from && chunk[chunk.length - 1] === 10;
      });
      res.on('end', () => finish());
      res.on('error', (error) => finish(`response: ${error.message}`));
      res.on('close', () => { if (!res.complete) finish('the connection closed before the response ended'); });
    });
    req.setTimeout(idleLimitMs, () => req.destroy(new Error(`no bytes for ${idleLimitMs} ms`)));
    req.on('error', (error) => finish(`request: ${error.message}`));
    req.end(body);
  });
}

export type LoadTotals = { runs: number; bytes: number; events: number; errors: number; badStatus: number; elapsedMs: number; firstError?: string };

function addSample(totals: LoadTotals, sample: StreamSample): void {
  totals.runs++;
  totals.bytes += sample.bytes;
  totals.events += sample.events;
  if (sample.error !== undefined) { totals.errors++; totals.firstError ??= sample.error; }
  else if (sample.status !== 200) { totals.badStatus++; totals.firstError ??= `HTTP ${sample.status}`; }
}

export type ClosedLoopOptions = {
  target: Target;
  /** Streams in flight at once; each starts the next request when its stream ends. */
  concurrency: number;
  durationMs: number;
  /** Keep the samples (for latency figures); default off. */
  keepSamples?: boolean;
  recordEventTimes?: boolean;
  /**
   * Start requests on a fixed schedule, `ratePerSecond` in all (each stream waits for the next
   * free start time): two servers then get the same offered load, not each as much as it can take.
   * A stream that falls behind starts its next request at once. Default: back to back.
   */
  ratePerSecond?: number;
};

/** `concurrency` streams back to back (or paced: `ratePerSecond`) for `durationMs` over keep-alive connections. */
export async function closedLoop(options: ClosedLoopOptions): Promise<LoadTotals & { samples: StreamSample[] }> {
  const { concurrency, durationMs } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`closedLoop: concurrency must be a positive integer, got ${concurrency}`);
  if (!(durationMs > 0)) throw new RangeError(`closedLoop: durationMs must be > 0, got ${durationMs}`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const totals: LoadTotals & { samples: StreamSample[] } = { runs: 0, bytes: 0, events: 0, errors: 0, badStatus: 0, elapsedMs: 0, samples: [] };
  const rate = options.ratePerSecond;
  if (rate !== undefined && !(rate > 0 && Number.isFinite(rate))) throw new RangeError(`closedLoop: ratePerSecond must be a finite number > 0, got ${rate}`);
  const start = performance.now();
  const deadline = start + durationMs;
  let started = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      if (rate !== undefined) {
        const at = start + (started++ * 1000) / rate;
        // A slot at or past the deadline is not the schedule's: never started (a timer may fire a hair early).
        if (at >= deadline) break;
        const wait = at - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (performance.now() >= deadline) break;
      }
      const sample = await fetchStream(options.target, agent, options.recordEventTimes === true);
      addSample(totals, sample);
      if (options.keepSamples) totals.samples.push(sample);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  totals.elapsedMs = performance.now() - start;
  agent.destroy();
  return totals;
}

export type BurstResult = LoadTotals & { samples: StreamSample[]; peakOpen: number };

/**
 * `count` streams started at once, each on its own connection, all read to EOF. `peakOpen` is the
 * most streams that had their status line and had not yet ended at the same moment.
 */
export async function burst(target: Target, count: number): Promise<BurstResult> {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`burst: count must be a positive integer, got ${count}`);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const totals: BurstResult = { runs: 0, bytes: 0, events: 0, errors: 0, badStatus: 0, elapsedMs: 0, samples: [], peakOpen: 0 };
  const start = performance.now();
  const samples = await Promise.all(Array.from({ length: count }, () => fetchStream(target, agent)));
  totals.elapsedMs = performance.now() - start;
  for (const s of samples) addSample(totals, s);
  totals.samples = samples;
  totals.peakOpen = peakOverlap(samples);
  agent.destroy();
  return totals;
}

/**
 * The most streams open at one moment, from each stream's span [status line, end]: the
 * spans' starts and ends sorted, with an end before a start at the same instant.
 */
export function peakOverlap(samples: readonly StreamSample[]): number {
  const points: Array<[number, number]> = [];
  for (const s of samples) {
    if (s.headersMs === undefined) continue;
    points.push([s.startedAt + s.headersMs, 1], [s.startedAt + s.endMs, -1]);
  }
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let peak = 0;
  for (const [, step] of points) { open += step; peak = Math.max(peak, open); }
  return peak;
}

/** One whole response body (for checking that two servers send the same bytes). */
export function fetchBody(target: Target): Promise<{ status: number; body: Buffer }> {
  const url = new URL(target.path, target.url);
  const body = Buffer.from(target.body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...target.headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.setTimeout(idleLimitMs, () => req.destroy(new Error(`no bytes for ${idleLimitMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export type PairedResult = { pairs: number; incomplete: number; firstError?: string; differencesMs: number[]; firstEventDifferencesMs: number[] };

/**
 * Latency by pairs: each worker starts one stream on `a` and one on `b` in the same tick, reads
 * both to EOF, and keeps, for every event index, b's arrival time minus a's. Both streams meet
 * the same moment of a noisy machine, so its load largely cancels out of the difference.
 */
let pairSeq = 0;

export async function pairedLoop(a: Target, b: Target, concurrency: number, durationMs: number): Promise<PairedResult> {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`pairedLoop: concurrency must be a positive integer, got ${concurrency}`);
  const agentA = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const agentB = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const result: PairedResult = { pairs: 0, incomplete: 0, differencesMs: [], firstEventDifferencesMs: [] };
  const deadline = performance.now() + durationMs;
  // The pair's id: bench/children/plain-server.ts plays both streams of a pair in lockstep (other
  // servers ignore the header, and their own pacing stays part of the difference).
  const withPair = (t: Target, id: string): Target => ({ ...t, headers: { ...t.headers, 'x-bench-pair': id } });
  const worker = async () => {
    while (performance.now() < deadline) {
      const id = `${process.pid}-${pairSeq++}`;
      const [sa, sb] = await Promise.all([fetchStream(withPair(a, id), agentA, true), fetchStream(withPair(b, id), agentB, true)]);
      result.pairs++;
      const ea = sa.eventMs ?? [];
      const eb = sb.eventMs ?? [];
      if (sa.error !== undefined || sb.error !== undefined || sa.status !== 200 || sb.status !== 200 || ea.length !== eb.length || ea.length === 0) {
        result.incomplete++;
        result.firstError ??= sa.error ?? sb.error ?? `HTTP ${sa.status}/${sb.status}, ${ea.length}/${eb.length} events`;
        continue;
      }
      const offset = sb.startedAt - sa.startedAt;
      ea.forEach((at, k) => result.differencesMs.push((eb[k] as number) + offset - at));
      result.firstEventDifferencesMs.push((eb[0] as number) + offset - (ea[0] as number));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agentA.destroy();
  agentB.destroy();
  return result;
}

/** Exactly `count` streams, `concurrency` at a time over keep-alive connections. */
export async function countedLoop(target: Target, count: number, concurrency: number): Promise<LoadTotals> {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`countedLoop: count must be an integer >= 0, got ${count}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`countedLoop: concurrency must be a positive integer, got ${concurrency}`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const totals: LoadTotals = { runs: 0, bytes: 0, events: 0, errors: 0, badStatus: 0, elapsedMs: 0 };
  let left = count;
  const start = performance.now();
  const worker = async () => {
    while (left > 0) {
      left--;
      addSample(totals, await fetchStream(target, agent));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, count)) }, worker));
  totals.elapsedMs = performance.now() - start;
  agent.destroy();
  return totals;
}
