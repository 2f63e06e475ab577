/**
 * The replay engine's sink for a Node `ServerResponse` (the fastify shell): mock-adk/replay.ts
 * plays the plan, this writes it.
 */
import type { ServerResponse } from 'node:http';
import type { ReplaySink } from './replay.ts';

/**
 * The Node sink. `head` writes and flushes the status line and headers (the shell's business);
 * each chunk is exactly one `res.write` (one HTTP chunk under chunked encoding). A write resolves
 * at once unless the socket pushes back, and then on 'drain', so a multi-megabyte script cannot
 * pile up in memory. Resolving at once matters for speed: Node corks a chunked response for the
 * rest of the tick, so zero-delay chunks written back to back leave in one writev (one syscall)
 * while each stays its own HTTP chunk; waiting for every write's callback cost one syscall and
 * one event-loop turn per chunk (docs/performance.md, "mock: one writev per tick").
 *
 * `resets: false` says the plan does not end in a reset: then no write takes a callback (only
 * reset() waits for the writes to reach the socket), which Node pays for per chunk.
 */
export function nodeSink(res: ServerResponse, head: () => void, options: { resets?: boolean } = {}): ReplaySink {
  return new NodeSink(res, head, options.resets !== false);
}

/** nodeSink's sink; a class, so a request makes one object, not a closure per method. */
export class NodeSink implements ReplaySink {
  // Writes not yet handed to the socket: reset() waits for them, so the peer gets every byte first.
  private unflushed = 0;
  private whenFlushed: (() => void) | undefined = undefined;
  private readonly flushedOne: (() => void) | undefined;
  protected readonly res: ServerResponse;
  private readonly writeHead: (() => void) | undefined;

  /** `writeHead`: what head() does; a subclass may override head() instead. */
  constructor(res: ServerResponse, writeHead: (() => void) | undefined, track: boolean) {
    this.res = res;
    this.writeHead = writeHead;
    this.flushedOne = track ? () => this.flushed() : undefined;
  }

  head(): void { this.writeHead?.(); }

  write(bytes: Uint8Array): Promise<void> | undefined {
    const res = this.res;
    if (res.destroyed || res.writableEnded) return Promise.reject(new Error('response closed'));
    // The callback also runs (with an error) when the socket dies first, so the count settles.
    if (this.flushedOne) this.unflushed += 1;
    if (this.flushedOne ? res.write(bytes, this.flushedOne) : res.write(bytes)) return undefined;
    return new Promise((resolve, reject) => {
      const onDrain = () => { res.off('close', onClose); resolve(); };
      const onClose = () => { res.off('drain', onDrain); reject(new Error('response closed')); };
      res.once('drain', onDrain);
      res.once('close', onClose);
    });
  }

  end(): void { this.res.end(); }

  // "'reset' → socket.destroy() (RST-like)", once every written chunk reached the socket, so the
  // peer receives all scripted bytes, then the connection closes without the chunked terminator.
  reset(): void {
    const destroy = () => { this.res.socket?.destroy(); this.res.destroy(); };
    if (this.unflushed === 0) destroy();
    else this.whenFlushed = destroy;
  }

  close(): void { this.res.socket?.destroy(); this.res.destroy(); }

  private flushed(): void {
    this.unflushed -= 1;
    if (this.unflushed > 0 || !this.whenFlushed) return;
    const then = this.whenFlushed;
    this.whenFlushed = undefined;
    then();
  }
}
