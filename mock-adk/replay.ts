/**
 * The replay engine: one loop that plays a `ReplayPlan` into a sink, and two sinks, one for a
 * Node `ServerResponse` (the fastify shell; node-sink.ts) and one for a web `ReadableStream` (the msw shell).
 * Both shells therefore wait, write and end in exactly the same way; only the last hop differs.
 *
 * Contract (docs/design.md, "Rendering contract"): "the shells then write `chunks` in order,
 * waiting `delayMs` before each, and finish with `end`".
 */
import type { ReplayPlan } from './core/types.ts';

/** How a replay finished. `aborted`: the client left or the app closed (always so for hold-open). */
export type ReplayOutcome = 'eof' | 'reset' | 'aborted';

export type ReplayResult = { outcome: ReplayOutcome; chunksWritten: number; bytesWritten: number };

/** Where the bytes go. `write` resolves once the sink accepted the bytes (back-pressure). */
export type ReplaySink = {
  /** Send the status line and headers (after the plan's `headersDelayMs`). */
  head: () => void;
  /** Nothing (undefined) when the bytes were taken at once; otherwise a promise of when the next may go. */
  write: (bytes: Uint8Array) => Promise<void> | void;
  /** The plan ended with `eof`. */
  end: () => void;
  /** The plan ended with `reset`: break the connection without a clean end. */
  reset: () => void;
  /** The replay was aborted by the app (not by the client): release the connection. */
  close: () => void;
};

export type Replay = {
  /** Settles when the plan's end is reached, or at once after `abort`. Never rejects. */
  done: Promise<ReplayResult>;
  /**
   * The result, when the plan ran to its end before `createReplay` returned (nothing to wait for:
   * no scripted delay, every write taken at once, an `eof` or `reset` end); else undefined.
   */
  finished: ReplayResult | undefined;
  /**
   * Stop now: pending timers are cleared and nothing more is written.
   * `by: 'client'` means the peer already left (the sink is not touched);
   * `by: 'app'` means the mock is closing (the sink's `close` releases the connection).
   */
  abort: (by: 'client' | 'app') => void;
};

export type ReplayOptions = {
  /**
   * Multiplies every scripted wait (1 = as scripted, 0 = no waits at all). Bytes, write
   * boundaries and order stay the same; only the clock changes. For fast byte-level test runs.
   */
  timeScale?: number;
};

/** A replay that has to wait: for `until`, then it goes on with `then`. */
type Wait = { until: Promise<unknown>; then: () => Step };
type Step = ReplayResult | Wait;

/**
 * Play `plan` into `sink`. Starts at once; headers are the sink's business (they precede this).
 * Everything up to the first wait happens before this returns; a plan with no wait at all (a short
 * run written back to back) makes no promise, timer or closure beyond its result (issue 30: the
 * mock's CPU per short run).
 */
export function createReplay(plan: ReplayPlan, sink: ReplaySink, options: ReplayOptions = {}): Replay {
  const scale = options.timeScale ?? 1;
  if (!(scale >= 0) || !Number.isFinite(scale)) throw new RangeError(`createReplay: timeScale must be a finite number >= 0, got ${scale}`);
  const run = new ReplayRun(plan, sink, scale);
  let first: Step;
  try { first = run.start(); } catch { first = run.result('aborted'); }
  const finished = 'until' in first ? undefined : first;
  const done = finished ? Promise.resolve(finished) : run.drive(first as Wait).catch(() => run.result('aborted'));
  return { done, finished, abort: (by) => run.abort(by) };
}

/** One replay's state and steps; a class, so a request makes one object, not a closure per step. */
class ReplayRun {
  aborted = false;
  timer: ReturnType<typeof setTimeout> | undefined = undefined;
  // Every wait races this, so an abort settles `done` at once, whatever the sink is doing. Made
  // on the first wait: a replay that never waits never needs it.
  abortedSignal: Promise<'aborted'> | undefined = undefined;
  signalAbort: (() => void) | undefined = undefined;
  chunksWritten = 0;
  bytesWritten = 0;

  readonly plan: ReplayPlan;
  readonly sink: ReplaySink;
  readonly scale: number;

  constructor(plan: ReplayPlan, sink: ReplaySink, scale: number) {
    this.plan = plan;
    this.sink = sink;
    this.scale = scale;
  }

  result(outcome: ReplayOutcome): ReplayResult {
    return { outcome, chunksWritten: this.chunksWritten, bytesWritten: this.bytesWritten };
  }

  whenAborted(): Promise<'aborted'> {
    if (this.aborted) return Promise.resolve('aborted');
    return (this.abortedSignal ??= new Promise<'aborted'>((resolve) => { this.signalAbort = () => resolve('aborted'); }));
  }

  sleep(ms: number): Promise<unknown> {
    return Promise.race([this.whenAborted(), new Promise<void>((resolve) => { this.timer = setTimeout(() => { this.timer = undefined; resolve(); }, ms); })]);
  }

  start(): Step {
    // The `delay-headers` fault: even the status line waits.
    const headersDelay = (this.plan.headersDelayMs ?? 0) * this.scale;
    if (headersDelay > 0) return { until: this.sleep(headersDelay), then: () => this.afterHeadersDelay() };
    return this.afterHeadersDelay();
  }

  afterHeadersDelay(): Step {
    if (this.aborted) return this.result('aborted');
    this.sink.head();
    return this.from(0, false);
  }

  /** Chunks from `i` on, as far as they go without waiting; `waited`: chunk i's delay is over. */
  from(i: number, waited: boolean): Step {
    const chunks = this.plan.chunks;
    for (; i < chunks.length; i++) {
      const chunk = chunks[i]!;
      // "waiting `delayMs` before each": a zero delay writes at once, so back-to-back chunks stay
      // separate writes (separate HTTP chunks) without a timer turn between them.
      if (!waited && chunk.delayMs * this.scale > 0) {
        const at = i;
        return { until: this.sleep(chunk.delayMs * this.scale), then: () => this.from(at, true) };
      }
      waited = false;
      if (this.aborted) return this.result('aborted');
      // An empty chunk is a pure wait (silence before EOF): nothing to write.
      if (chunk.bytes.byteLength === 0) continue;
      let wait: Promise<void> | void;
      try {
        // Taken at once: go straight on, so back-to-back chunks leave in one tick (and one writev)
        // and no race is left hanging on the abort signal per chunk.
        wait = this.sink.write(chunk.bytes);
      } catch {
        // The peer is gone mid-write: the same as a client abort.
        this.aborted = true;
        return this.result('aborted');
      }
      if (wait !== undefined) {
        const at = i;
        return { until: Promise.race([this.whenAborted(), wait]), then: () => this.written(at) };
      }
      if (this.aborted) return this.result('aborted');
      this.chunksWritten += 1;
      this.bytesWritten += chunk.bytes.byteLength;
    }
    return this.finish();
  }

  written(i: number): Step {
    if (this.aborted) return this.result('aborted');
    this.chunksWritten += 1;
    this.bytesWritten += this.plan.chunks[i]!.bytes.byteLength;
    return this.from(i + 1, false);
  }

  // "finish with `end`": eof ends the body, reset breaks the connection, hold-open keeps it
  // until the client leaves or the app closes (both arrive through `abort`).
  finish(): Step {
    if (this.plan.end === 'eof') { this.sink.end(); return this.result('eof'); }
    if (this.plan.end === 'reset') { this.sink.reset(); return this.result('reset'); }
    return { until: this.whenAborted(), then: () => this.result('aborted') };
  }

  async drive(wait: Wait): Promise<ReplayResult> {
    for (;;) {
      try {
        await wait.until;
      } catch {
        // A write the peer left in the middle of (the only wait that rejects).
        this.aborted = true;
        return this.result('aborted');
      }
      const next = wait.then();
      if (!('until' in next)) return next;
      wait = next;
    }
  }

  abort(by: 'client' | 'app'): void {
    if (this.aborted) return;
    this.aborted = true;
    if (this.timer !== undefined) { clearTimeout(this.timer); this.timer = undefined; }
    if (by === 'app') {
      try { this.sink.close(); } catch { /* the connection is already gone */ }
    }
    this.signalAbort?.();
  }
}


/** The error a fetch body read raises when the mock resets the stream (undici's wording). */
export function resetError(): TypeError {
  const cause = Object.assign(new Error('other side closed'), { code: 'ECONNRESET' });
  return new TypeError('terminated', { cause });
}

/**
 * A web `ReadableStream` fed by the same engine, for msw (`new Response(stream)`). Cancelling
 * the stream (the fetch was aborted, or its body cancelled) aborts the replay as a client leave.
 * A Response carries its status and headers from the start, so the caller waits the plan's
 * `headersDelayMs` (see `waitHeaders`) before building it, and the stream does not wait again.
 *
 * The stream is pull-driven (high-water mark 0): a chunk, the end or a reset is handed over only
 * when the reader asks for the next piece. A reset therefore errors the stream after the reader
 * has every byte written before it, as on a socket (erroring a web stream drops its queue).
 */
export function planToStream(plan: ReplayPlan, hooks: { onStart?: (replay: Replay) => void; timeScale?: number } = {}): ReadableStream<Uint8Array> {
  type Item = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'end' } | { kind: 'reset' };
  const queue: Item[] = [];
  let wakeReader: (() => void) | undefined;
  let open = true;
  const push = (item: Item) => { queue.push(item); const wake = wakeReader; wakeReader = undefined; wake?.(); };
  let replay: Replay | undefined;
  return new ReadableStream<Uint8Array>({
    start() {
      const sink: ReplaySink = {
        head() { /* the Response already carries them */ },
        async write(bytes) {
          if (!open) throw new Error('stream closed');
          // A copy: the plan is shared by every replay of it and a reader may transfer the buffer.
          push({ kind: 'bytes', bytes: bytes.slice() });
        },
        end() { push({ kind: 'end' }); },
        reset() { push({ kind: 'reset' }); },
        close() { push({ kind: 'reset' }); },
      };
      replay = createReplay({ ...plan, headersDelayMs: 0 }, sink, hooks.timeScale !== undefined ? { timeScale: hooks.timeScale } : {});
      hooks.onStart?.(replay);
    },
    async pull(controller) {
      while (queue.length === 0) {
        if (!open) return;
        await new Promise<void>((resolve) => { wakeReader = resolve; });
      }
      const item = queue.shift() as Item;
      if (item.kind === 'bytes') controller.enqueue(item.bytes);
      else if (item.kind === 'end') { open = false; controller.close(); }
      else { open = false; controller.error(resetError()); }
    },
    cancel() {
      open = false;
      replay?.abort('client');
      wakeReader?.();
    },
  }, { highWaterMark: 0 });
}

/** Wait the plan's `headersDelayMs` (times `timeScale`); resolves false at once if `signal` aborts first. */
export function waitHeaders(plan: ReplayPlan, signal?: AbortSignal, timeScale = 1): Promise<boolean> {
  const ms = (plan.headersDelayMs ?? 0) * timeScale;
  if (ms <= 0) return Promise.resolve(!signal?.aborted);
  return new Promise((resolve) => {
    if (signal?.aborted) { resolve(false); return; }
    const onAbort = () => { clearTimeout(timer); resolve(false); };
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(true); }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
