import { afterEach, describe, expect, it, vi } from 'vitest';
import { createReplay, planToStream, waitHeaders, type ReplaySink } from './replay.ts';
import type { PlanEnd, ReplayPlan } from './core/types.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

function plan(chunks: Array<[string, number]>, end: PlanEnd = 'eof', headersDelayMs?: number): ReplayPlan {
  return {
    status: 200,
    headers: [['content-type', 'text/event-stream']],
    chunks: chunks.map(([text, delayMs], frame) => ({ bytes: bytes(text), delayMs, frame })),
    end,
    frames: [],
    ...(headersDelayMs !== undefined ? { headersDelayMs } : {}),
  };
}

function recordingSink() {
  const log: string[] = [];
  const sink: ReplaySink = {
    head: () => { log.push('head'); },
    write: async (b) => { log.push(`write:${new TextDecoder().decode(b)}`); },
    end: () => { log.push('end'); },
    reset: () => { log.push('reset'); },
    close: () => { log.push('close'); },
  };
  return { log, sink };
}

afterEach(() => { vi.useRealTimers(); });

describe('createReplay', () => {
  it('writes the head, every chunk in order as one write each, then ends', async () => {
    const { log, sink } = recordingSink();
    const result = await createReplay(plan([['a', 0], ['b', 0], ['c', 0]]), sink).done;
    expect(log).toEqual(['head', 'write:a', 'write:b', 'write:c', 'end']);
    expect(result).toEqual({ outcome: 'eof', chunksWritten: 3, bytesWritten: 3 });
  });

  it('waits each chunk delay before writing that chunk', async () => {
    vi.useFakeTimers();
    const { log, sink } = recordingSink();
    const replay = createReplay(plan([['a', 0], ['b', 100], ['c', 50]]), sink);
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['head', 'write:a']);
    await vi.advanceTimersByTimeAsync(99);
    expect(log).toEqual(['head', 'write:a']);
    await vi.advanceTimersByTimeAsync(1);
    expect(log).toEqual(['head', 'write:a', 'write:b']);
    await vi.advanceTimersByTimeAsync(50);
    expect(log).toEqual(['head', 'write:a', 'write:b', 'write:c', 'end']);
    expect((await replay.done).outcome).toBe('eof');
  });

  it('waits headersDelayMs before the head', async () => {
    vi.useFakeTimers();
    const { log, sink } = recordingSink();
    createReplay(plan([['a', 0]], 'eof', 200), sink);
    await vi.advanceTimersByTimeAsync(199);
    expect(log).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(log).toEqual(['head', 'write:a', 'end']);
  });

  it('treats an empty chunk as a pure wait', async () => {
    const { log, sink } = recordingSink();
    const result = await createReplay(plan([['a', 0], ['', 1]]), sink).done;
    expect(log).toEqual(['head', 'write:a', 'end']);
    expect(result.chunksWritten).toBe(1);
  });

  it('resets the sink when the plan ends with reset', async () => {
    const { log, sink } = recordingSink();
    const result = await createReplay(plan([['a', 0]], 'reset'), sink).done;
    expect(log).toEqual(['head', 'write:a', 'reset']);
    expect(result.outcome).toBe('reset');
  });

  it('keeps a hold-open plan pending until it is aborted', async () => {
    const { log, sink } = recordingSink();
    const replay = createReplay(plan([['a', 0]], 'hold-open'), sink);
    let settled = false;
    void replay.done.then(() => { settled = true; });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    replay.abort('client');
    expect((await replay.done).outcome).toBe('aborted');
    expect(log).toEqual(['head', 'write:a']);
  });

  it('stops at once on abort and leaves no timer behind', async () => {
    vi.useFakeTimers();
    const { log, sink } = recordingSink();
    const replay = createReplay(plan([['a', 0], ['b', 10_000]]), sink);
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    replay.abort('client');
    expect(vi.getTimerCount()).toBe(0);
    expect(await replay.done).toEqual({ outcome: 'aborted', chunksWritten: 1, bytesWritten: 1 });
    expect(log).toEqual(['head', 'write:a']);
  });

  it('closes the sink when the app aborts, but not when the client does', async () => {
    const app = recordingSink();
    const byApp = createReplay(plan([['a', 0]], 'hold-open'), app.sink);
    byApp.abort('app');
    await byApp.done;
    expect(app.log).toContain('close');
    const client = recordingSink();
    const byClient = createReplay(plan([['a', 0]], 'hold-open'), client.sink);
    byClient.abort('client');
    await byClient.done;
    expect(client.log).not.toContain('close');
  });

  it('settles as aborted when a write fails', async () => {
    const sink: ReplaySink = { head() {}, write: async () => { throw new Error('EPIPE'); }, end() {}, reset() {}, close() {} };
    expect((await createReplay(plan([['a', 0]]), sink).done).outcome).toBe('aborted');
  });

  /** A sink that takes every write at once (as a socket that does not push back). */
  function atOnceSink() {
    const log: string[] = [];
    const sink: ReplaySink = {
      head: () => { log.push('head'); },
      write: (b) => { log.push(`write:${new TextDecoder().decode(b)}`); },
      end: () => { log.push('end'); },
      reset: () => { log.push('reset'); },
      close: () => { log.push('close'); },
    };
    return { log, sink };
  }

  it('plays a plan with nothing to wait for to its end before it returns, and says so in finished', async () => {
    for (const end of ['eof', 'reset'] as const) {
      const { log, sink } = atOnceSink();
      const replay = createReplay(plan([['a', 0], ['', 0], ['bc', 0]], end), sink);
      expect(log).toEqual(['head', 'write:a', 'write:bc', end === 'eof' ? 'end' : 'reset']);
      expect(replay.finished).toEqual({ outcome: end, chunksWritten: 2, bytesWritten: 3 });
      expect(await replay.done).toEqual(replay.finished);
    }
  });

  it('has no finished result when the plan waits, holds open, or a write pushes back, and plays the rest after the wait', async () => {
    expect(createReplay(plan([['a', 0]], 'hold-open'), atOnceSink().sink).finished).toBeUndefined();
    expect(createReplay(plan([['a', 0], ['b', 0]], 'eof', 0), atOnceSink().sink, { timeScale: 0 }).finished).toBeDefined();
    const delayed = atOnceSink();
    const waits = createReplay(plan([['a', 0], ['b', 5]]), delayed.sink);
    expect(waits.finished).toBeUndefined();
    expect(delayed.log).toEqual(['head', 'write:a']);
    expect(await waits.done).toEqual({ outcome: 'eof', chunksWritten: 2, bytesWritten: 2 });
    expect(delayed.log).toEqual(['head', 'write:a', 'write:b', 'end']);
    // The second write pushes back: the third goes once it is taken.
    const log: string[] = [];
    let release: () => void = () => {};
    const sink: ReplaySink = {
      head: () => { log.push('head'); },
      write: (b) => {
        log.push(`write:${new TextDecoder().decode(b)}`);
        return log.length === 3 ? new Promise<void>((resolve) => { release = resolve; }) : undefined;
      },
      end: () => { log.push('end'); },
      reset: () => {},
      close: () => {},
    };
    const pushed = createReplay(plan([['a', 0], ['b', 0], ['c', 0]]), sink);
    expect(pushed.finished).toBeUndefined();
    expect(log).toEqual(['head', 'write:a', 'write:b']);
    release();
    expect(await pushed.done).toEqual({ outcome: 'eof', chunksWritten: 3, bytesWritten: 3 });
    expect(log).toEqual(['head', 'write:a', 'write:b', 'write:c', 'end']);
  });

  it('settles as aborted, without throwing, when the sink throws while the replay starts', async () => {
    const sink: ReplaySink = { head() { throw new Error('bad header'); }, write() {}, end() {}, reset() {}, close() {} };
    const replay = createReplay(plan([['a', 0]]), sink);
    expect(replay.finished).toEqual({ outcome: 'aborted', chunksWritten: 0, bytesWritten: 0 });
    expect((await replay.done).outcome).toBe('aborted');
  });
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<{ chunks: string[]; error?: unknown }> {
  const reader = stream.getReader();
  const chunks: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { chunks };
      chunks.push(new TextDecoder().decode(value));
    }
  } catch (error) {
    return { chunks, error };
  }
}

describe('planToStream', () => {
  it('enqueues one stream chunk per plan chunk and closes on eof', async () => {
    expect(await readAll(planToStream(plan([['data: 1\n\n', 0], ['data: 2\n\n', 1]])))).toEqual({ chunks: ['data: 1\n\n', 'data: 2\n\n'] });
  });

  it('errors the stream like a network reset when the plan ends with reset', async () => {
    const { chunks, error } = await readAll(planToStream(plan([['data: 1\n\n', 0]], 'reset')));
    expect(chunks).toEqual(['data: 1\n\n']);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('terminated');
  });

  it('aborts the replay as a client leave when the stream is cancelled', async () => {
    let outcome: string | undefined;
    const stream = planToStream(plan([['data: 1\n\n', 0]], 'hold-open'), { onStart: (r) => { void r.done.then((d) => { outcome = d.outcome; }); } });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((resolve) => setImmediate(resolve));
    expect(outcome).toBe('aborted');
  });
});

describe('waitHeaders', () => {
  it('resolves false at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await waitHeaders(plan([], 'eof', 10_000), controller.signal)).toBe(false);
  });

  it('resolves true without waiting when the plan has no header delay', async () => {
    expect(await waitHeaders(plan([]))).toBe(true);
  });
});
