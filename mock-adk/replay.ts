/**
 * The replay engine: one loop that plays a `ReplayPlan` into a sink, and two sinks, one for a
 * Node `ServerResponse` (the fastify shell) and one for a web `ReadableStream` (the msw shell).
 * Both shells therefore wait, write and end in exactly the same way; only the last hop differs.
 *
 * Contract (docs/design.md, "Rendering contract"): "the shells then write `chunks` in order,
 * waiting `delayMs` before each, and finish with `end`".
 */
import type { ServerResponse } from 'node:http';
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

/** Play `plan` into `sink`. Starts at once; headers are the sink's business (they precede this). */
export function createReplay(plan: ReplayPlan, sink: ReplaySink, options: ReplayOptions = {}): Replay {
  const scale = options.timeScale ?? 1;
  if (!(scale >= 0) || !Number.isFinite(scale)) throw new RangeError(`createReplay: timeScale must be a finite number >= 0, got ${scale}`);
  let aborted = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let signalAbort: () => void = () => {};
  // Every wait races this, so an abort settles `done` at once, whatever the sink is doing.
  const abortedSignal = new Promise<'aborted'>((resolve) => { signalAbort = () => resolve('aborted'); });
  let chunksWritten = 0;
  let bytesWritten = 0;

  const result = (outcome: ReplayOutcome): ReplayResult => ({ outcome, chunksWritten, bytesWritten });

  function sleep(ms: number): Promise<unknown> {
    return Promise.race([abortedSignal, new Promise<void>((resolve) => { timer = setTimeout(() => { timer = undefined; resolve(); }, ms); })]);
  }

  async function run(): Promise<ReplayResult> {
    // The `delay-headers` fault: even the status line waits.
    if ((plan.headersDelayMs ?? 0) * scale > 0) await sleep((plan.headersDelayMs ?? 0) * scale);
    if (aborted) return result('aborted');
    sink.head();
    for (const chunk of plan.chunks) {
      // "waiting `delayMs` before each": a zero delay writes at once, so back-to-back chunks stay
      // separate writes (separate HTTP chunks) without a timer turn between them.
      if (chunk.delayMs * scale > 0) await sleep(chunk.delayMs * scale);
      if (aborted) return result('aborted');
      // An empty chunk is a pure wait (silence before EOF): nothing to write.
      if (chunk.bytes.byteLength === 0) continue;
      try {
        // Taken at once: go straight on, so back-to-back chunks leave in one tick (and one writev)
        // and no race is left hanging on the abort signal per chunk.
        const wait = sink.write(chunk.bytes);
        if (wait !== undefined) await Promise.race([abortedSignal, wait]);
      } catch {
        // The peer is gone mid-write: the same as a client abort.
        aborted = true;
        return result('aborted');
      }
      if (aborted) return result('aborted');
      chunksWritten += 1;
      bytesWritten += chunk.bytes.byteLength;
    }
    // "finish with `end`": eof ends the body, reset breaks the connection, hold-open keeps it
    // until the client leaves or the app closes (both arrive through `abort`).
    if (plan.end === 'eof') { sink.end(); return result('eof'); }
    if (plan.end === 'reset') { sink.reset(); return result('reset'); }
    await abortedSignal;
    return result('aborted');
  }

  const done = run().catch(() => result('aborted'));

  function abort(by: 'client' | 'app'): void {
    if (aborted) return;
    aborted = true;
    if (timer !== undefined) { clearTimeout(timer); timer = undefined; }
    if (by === 'app') {
      try { sink.close(); } catch { /* the connection is already gone */ }
    }
    signalAbort();
  }

  return { done, abort };
}

/**
 * The Node sink. `head` writes and flushes the status line and headers (the shell's business);
 * each chunk is exactly one `res.write` (one HTTP chunk under chunked encoding). A write resolves
 * at once unless the socket pushes back, and then on 'drain', so a multi-megabyte script cannot
 * pile up in memory. Resolving at once matters for speed: Node corks a chunked response for the
 * rest of the tick, so zero-delay chunks written back to back leave in one writev (one syscall)
 * while each stays its own HTTP chunk; waiting for every write's callback cost one syscall and
 * one event-loop turn per chunk (docs/performance.md, "mock: one writev per tick").
 */
export function nodeSink(res: ServerResponse, head: () => void): ReplaySink {
  // Writes not yet handed to the socket: reset() waits for them, so the peer gets every byte first.
  let unflushed = 0;
  let whenFlushed: (() => void) | undefined;
  const flushedOne = () => {
    unflushed -= 1;
    if (unflushed > 0 || !whenFlushed) return;
    const then = whenFlushed;
    whenFlushed = undefined;
    then();
  };
  return {
    head,
    write(bytes) {
      if (res.destroyed || res.writableEnded) return Promise.reject(new Error('response closed'));
      unflushed += 1;
      // The callback also runs (with an error) when the socket dies first, so the count settles.
      if (res.write(bytes, flushedOne)) return undefined;
      return new Promise((resolve, reject) => {
        const onDrain = () => { res.off('close', onClose); resolve(); };
        const onClose = () => { res.off('drain', onDrain); reject(new Error('response closed')); };
        res.once('drain', onDrain);
        res.once('close', onClose);
      });
    },
    end() { res.end(); },
    // "'reset' → socket.destroy() (RST-like)", once every written chunk reached the socket, so the
    // peer receives all scripted bytes, then the connection closes without the chunked terminator.
    reset() {
      const destroy = () => { res.socket?.destroy(); res.destroy(); };
      if (unflushed === 0) destroy();
      else whenFlushed = destroy;
    },
    close() { res.socket?.destroy(); res.destroy(); },
  };
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
