/**
 * Keeping state per open run without a Map or Set keyed by run:
 * - `createRunState<T>()`: state an observer keeps for each open run, stored on the run object
 *   under a symbol of its own, so it is garbage the moment the run is;
 * - `createOpenList<T>()`: the runs still open (the core's), an array each entry knows its place in.
 *
 * Why not a Map or Set: under load every run adds and deletes an entry, and a long-lived
 * Map or Set churned that way made the tap promote each run's state to the old generation. Measured
 * with `--trace-gc-nvp` at 100 streams (2026-11-26): with the core's Set of open runs, 1.25 MB
 * promoted per young-generation collection, 6.2 ms per collection and 3 to 5 full collections in
 * 4 s; without it, 47 KB, 2.1 ms and none. (V8 keeps a rehashed table's old backing store pointing
 * at its entries until a full collection, and the young-generation collector counts those pointers
 * as live: our reading of the figures, not something we traced inside V8.)
 */
import type { TapRun } from './types.ts';

export type RunState<T> = {
  get: (run: TapRun) => T | undefined;
  set: (run: TapRun, value: T) => void;
  /** Forget the run's state (the property stays, as undefined: one object shape for every run). */
  clear: (run: TapRun) => void;
};

export function createRunState<T>(description: string): RunState<T> {
  const key = Symbol(description);
  type Holder = Record<symbol, T | undefined>;
  return {
    get: (run) => (run as unknown as Holder)[key],
    set: (run, value) => {
      // Not enumerable: a copy of the run (`{ ...run }`, as tap/transform.ts makes) and JSON never carry it.
      if (Object.hasOwn(run, key)) (run as unknown as Holder)[key] = value;
      else Object.defineProperty(run, key, { value, writable: true, enumerable: false, configurable: true });
    },
    clear: (run) => { if (Object.hasOwn(run, key)) (run as unknown as Holder)[key] = undefined; },
  };
}

export type OpenSlot<T> = { item: T; at: number };

export type OpenList<T> = {
  add: (item: T) => OpenSlot<T>;
  /** Swap-remove: the last entry takes the slot's place. */
  remove: (slot: OpenSlot<T>) => void;
  items: () => T[];
  size: () => number;
};

export function createOpenList<T>(): OpenList<T> {
  const slots: Array<OpenSlot<T>> = [];
  return {
    add(item) { const slot = { item, at: slots.length }; slots.push(slot); return slot; },
    remove(slot) {
      if (slots[slot.at] !== slot) return; // removed already
      const last = slots.pop() as OpenSlot<T>;
      if (last === slot) return;
      slots[slot.at] = last;
      last.at = slot.at;
    },
    items: () => slots.map((s) => s.item),
    size: () => slots.length,
  };
}
