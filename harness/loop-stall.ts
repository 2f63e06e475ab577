/**
 * How long the harness's own event loop stalled while a module ran in it, or while a command's input
 * waited in it for the pipe (feedWatch): a stall of the loop is a stall of the input's delivery, and
 * the implementation's clock runs on meanwhile (client/drive.ts watchingTheLoop). One timer serves every watch open
 * at once: a histogram of node:perf_hooks' monitorEventLoopDelay per run cost about 0.1 ms of the
 * harness's CPU to make and start, over thousands of long-lived runs (docs/performance.md fix 45).
 */

/** How often the loop's delay is sampled while a watch is open. */
export const loopSampleMs = 10;

type Watch = { since: number; worst: number; samples: number };

const open = new Set<Watch>();
let timer: NodeJS.Timeout | undefined;
let last = 0;

function tick(): void {
  const now = performance.now();
  for (const w of open) {
    // A watch opened after the last tick counts from its own start, as a fresh monitor would.
    const late = now - Math.max(last, w.since) - loopSampleMs;
    if (late > w.worst) w.worst = late;
    w.samples++;
  }
  last = now;
}

/** Starts a watch; `stop()` ends it and returns the longest stall seen, in whole ms (0 when no sample was taken). */
export function watchLoop(): { stop: () => number } {
  const w: Watch = { since: performance.now(), worst: 0, samples: 0 };
  if (open.size === 0) {
    last = w.since;
    timer = setInterval(tick, loopSampleMs);
    // The watch keeps nothing alive: the run it measures does.
    timer.unref();
  }
  open.add(w);
  return {
    stop: () => {
      // A last sample at the stop: a stall in the loop turn the watch began in ends before its first
      // tick (libuv judges a timer due by the time it read at the turn's start), and a run stopped
      // right after it would otherwise say nothing of it (an 8 MB line fed while the loop was blocked 300 ms: 0).
      if (open.has(w)) {
        const late = performance.now() - Math.max(last, w.since) - loopSampleMs;
        if (late > w.worst) w.worst = late;
        w.samples++;
      }
      if (open.delete(w) && open.size === 0) { clearInterval(timer); timer = undefined; }
      return w.samples > 0 ? Math.max(0, Math.round(w.worst)) : 0;
    },
  };
}

/**
 * Watches the harness's loop while a command's input is on its way (child.ts ChildObservation.feedLoopStallMs):
 * only while some write the kernel did not take whole is waiting in the harness for its loop (a line
 * larger than the pipe), so a stall while nothing waits (a scripted pause) is not counted. `done`
 * gets the longest once `lines` writes have reached the pipe, or at `stop()`.
 */
export function feedWatch(lines: number, done: (stallMs: number) => void): { write: (send: (flushed: () => void) => boolean) => void; stop: () => void } {
  let watch: ReturnType<typeof watchLoop> | undefined;
  let waiting = 0;
  let flushed = 0;
  let worst = 0;
  let over = false;
  const close = () => { if (watch) { worst = Math.max(worst, watch.stop()); watch = undefined; } };
  const stop = () => { if (!over) { over = true; close(); done(worst); } };
  return {
    // `send` writes, calls `flushed` once the write reached the pipe, and says whether part of it waits.
    write: (send) => {
      let queued = false;
      let called = false;
      queued = send(() => {
        if (called) return;
        called = true;
        flushed += 1;
        if (queued && --waiting === 0) close();
        if (flushed >= lines) stop();
      });
      if (queued && !called && waiting++ === 0 && !over) watch = watchLoop();
    },
    stop,
  };
}
