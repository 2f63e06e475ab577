/**
 * The engine's gate across parts (issue 14): parts run side by side, and every scenario run, probe
 * and part start passes this gate. At most `limit` hold it at once, so the machine carries the
 * same load as one part did alone; an exclusive holder (a scenario whose checks read wall-clock
 * timing, a probe that measures latency) holds it alone, so no neighbour of any part eats into
 * the tolerance its checks allow. Waiters are served first come, first served: a waiting exclusive
 * holder is not starved by later shared ones.
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
  const waiting: Array<{ exclusive: boolean; admit: () => void }> = [];

  const admissible = (exclusive: boolean) => !exclusiveHeld && (exclusive ? holders === 0 : holders < limit);

  const drain = () => {
    // First come, first served: stop at the first waiter that cannot enter yet.
    while (waiting.length > 0) {
      const next = waiting[0] as { exclusive: boolean; admit: () => void };
      if (!admissible(next.exclusive)) return;
      waiting.shift();
      next.admit();
    }
  };

  const admitted = (exclusive: boolean): Release => {
    holders += 1;
    if (exclusive) exclusiveHeld = true;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      holders -= 1;
      if (exclusive) exclusiveHeld = false;
      drain();
    };
  };

  return {
    enter: (exclusive) => {
      if (waiting.length === 0 && admissible(exclusive)) return Promise.resolve(admitted(exclusive));
      return new Promise((resolve) => { waiting.push({ exclusive, admit: () => resolve(admitted(exclusive)) }); });
    },
  };
}
