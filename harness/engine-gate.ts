/**
 * The engine's gate across parts (issue 14): parts run side by side, and every scenario run, probe
 * and part start passes this gate. At most `limit` hold it at once, so the machine carries the
 * same load as one part did alone. A holder enters in one of three ways:
 * - `shared`: ordinary load (a scenario run, a part start), beside other shared holders;
 * - `timed`: a run whose checks read wall-clock windows (an idle window, a held-open stream, a
 *   scripted pause). Its tolerance is eaten by CPU-heavy neighbours, not by other runs that
 *   mostly wait on timers, so timed holders enter together (up to the limit) but never beside a
 *   shared or alone holder. Serialising them cost `npm start` the sum of their windows (issue 30 §3);
 *   a timing failure is still repeated fully alone before it is reported (harness/engine-confirm.ts);
 * - `alone`: a run that measures the process itself (latency, memory after collection): nothing
 *   enters beside it.
 *
 * Shared waiters go first: timed and alone waiters enter once nothing shared holds the gate and no
 * shared waiter is queued. With first come, first served, an exclusive waiter in the middle of a
 * run made every part drain and wait (`npm start`'s trace: the four parts that started after the
 * audit bridge's probe sat idle for its two seconds); now they run where the shared load ends by
 * itself, in practice at the end: the timed ones together first, then the alone ones one after
 * another. Shared work is finite (each part's job list is), so no waiter is starved; waiters of one
 * kind enter in arrival order.
 */
export type Release = () => void;

/** How a holder shares the gate. */
export type Admission = 'shared' | 'timed' | 'alone';

/** How many hold (or run) in each way. */
export type Holders = Record<Admission, number>;

/**
 * Whether a run admitted as `admission` may start beside `held`: nothing beside an alone run, an
 * alone run beside nothing, timed runs only beside timed ones, shared ones only beside shared ones.
 * The gate and the engine's pool (engine-pool.ts) both apply it; the limit is theirs to count.
 */
export function canJoin(held: Holders, admission: Admission): boolean {
  if (held.alone > 0) return false;
  if (admission === 'alone') return held.shared + held.timed === 0;
  return admission === 'timed' ? held.shared === 0 : held.timed === 0;
}

export type Gate = {
  /** Resolves once the caller holds the gate; call the returned function exactly once to leave. */
  enter: (admission: Admission) => Promise<Release>;
};

/**
 * `limit` holders at once; `timedLimit` when they are timed ones (default `limit`). The limit
 * counts the machine's load, and timed holders mostly wait on timers (the engine lets three times
 * as many in): their windows are what the run waits for, not their CPU.
 */
export function createGate(limit: number, timedLimit = limit): Gate {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`createGate: limit must be an integer >= 1, got ${limit}`);
  if (!Number.isInteger(timedLimit) || timedLimit < 1) throw new RangeError(`createGate: timedLimit must be an integer >= 1, got ${timedLimit}`);
  const held: Holders = { shared: 0, timed: 0, alone: 0 };
  const waiting: Record<Admission, Array<() => void>> = { shared: [], timed: [], alone: [] };
  const total = () => held.shared + held.timed + held.alone;

  // Shared waiters first; timed and alone ones only once no shared waiter is left, timed before alone.
  const drain = () => {
    for (const admission of ['shared', 'timed', 'alone'] as const) {
      const queue = waiting[admission];
      while (queue.length > 0 && total() < (admission === 'timed' ? timedLimit : limit) && canJoin(held, admission)) (queue.shift() as () => void)();
      if (queue.length > 0) return;
    }
  };

  const admitted = (admission: Admission): Release => {
    held[admission] += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      held[admission] -= 1;
      drain();
    };
  };

  return {
    enter: (admission) => new Promise((resolve) => {
      waiting[admission].push(() => resolve(admitted(admission)));
      drain();
    }),
  };
}

