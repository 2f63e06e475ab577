/**
 * A virtual clock for the proof-layer stream (docs/proof-stream-contract.md): the module gets
 * `now`, `setTimeout` and `clearTimeout` from the harness, so every window is checked to the
 * millisecond, on a loaded machine as on a quiet one, and a run of seconds takes none.
 */
export type VirtualClock = {
  now: () => number;
  setTimeout: (fn: () => void, ms: number) => number;
  clearTimeout: (handle: unknown) => void;
  /** Move time forward by `ms`, running every timer that falls due, in due order. */
  advance: (ms: number) => void;
  /** Timers still waiting. */
  pending: () => number;
};

export function createVirtualClock(start = 1_795_000_000_000): VirtualClock {
  let t = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void; order: number }>();
  return {
    now: () => t,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: t + Math.max(0, Number(ms) || 0), fn, order: id });
      return id;
    },
    clearTimeout(handle) { if (typeof handle === 'number') timers.delete(handle); },
    advance(ms) {
      const end = t + ms;
      for (;;) {
        let due: [number, { at: number; fn: () => void; order: number }] | undefined;
        for (const entry of timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at || (entry[1].at === due[1].at && entry[1].order < due[1].order))) due = entry;
        if (!due) break;
        timers.delete(due[0]);
        t = Math.max(t, due[1].at);
        due[1].fn();
      }
      t = end;
    },
    pending: () => timers.size,
  };
}
