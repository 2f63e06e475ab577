/**
 * The engine's gate across parts (issue 14): parts run side by side, and every scenario run, probe
 * and part start passes this gate. At most `limit` hold it at once, so the machine carries the
 * same load as one part did alone; an exclusive holder (a scenario whose checks read wall-clock
 * timing, a probe that measures latency) holds it alone, so no neighbour of any part eats into
 * the tolerance its checks allow.
 *
 * Shared waiters go first: an exclusive waiter enters once nothing holds the gate and no shared
 * waiter is queued. With first come, first served, an exclusive waiter in the middle of a run made
 * every part drain and wait (`npm start`'s trace: the four parts that started after the audit
 * bridge's probe sat idle for its two seconds); now the exclusive jobs run where the shared load
 * ends by itself, in practice one after another at the end. Shared work is finite (each part's
 * job list is), so an exclusive waiter is never starved; exclusive waiters enter first come,
 * first served among themselves.
 */
export type Release = () => void;

export type Gate = {
  /** Resolves once the caller holds the gate; call the returned function exactly once to leave. */
  enter: (exclusive: boolean) => Promise<Release>;
};

export function createGate(limit: number): Gate {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`createGate: limit must be an integer >= 1, got ${limit}`);
  let holders = 0;
  let exclusiveHeld = false;
  const shared: Array<() => void> = [];
  const exclusive: Array<() => void> = [];

  const drain = () => {
    while (!exclusiveHeld && holders < limit && shared.length > 0) (shared.shift() as () => void)();
    if (!exclusiveHeld && holders === 0 && shared.length === 0 && exclusive.length > 0) (exclusive.shift() as () => void)();
  };

  const admitted = (isExclusive: boolean): Release => {
    holders += 1;
    if (isExclusive) exclusiveHeld = true;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      holders -= 1;
      if (isExclusive) exclusiveHeld = false;
      drain();
    };
  };

  return {
    enter: (isExclusive) => new Promise((resolve) => {
      (isExclusive ? exclusive : shared).push(() => resolve(admitted(isExclusive)));
      drain();
    }),
  };
}
