/**
 * The legacy runs the gateway holds between the POST that starts one and the GET that reads it
 * (seed 004: "Background task + broadcaster"). Everything is bounded: events per run (a ring,
 * oldest dropped), runs held (oldest finished dropped first, and no new run past the bound when
 * all are still going), and how long a finished run waits for a reader. Each drop is counted.
 */
import type { LegacyEvent } from './legacy-derive.ts';

export type StoredEvent = LegacyEvent & { id: number };

export type LegacyRun = {
  key: string;
  /** The token subject that started the run (undefined when auth is off). */
  owner: string | undefined;
  /** Aborted when the run is dropped or the gateway closes: the upstream request ends with it. */
  abort: AbortController;
  finished: boolean;
  /** Events since the oldest still held, in order; ids are 1, 2, 3... per run. */
  events: () => StoredEvent[];
  push: (event: LegacyEvent) => void;
  finish: () => void;
  /** Listen for new events; returns the unsubscribe function. */
  subscribe: (listener: (event: StoredEvent | 'end') => void) => () => void;
};

export type LegacyStats = { held: number; running: number; started: number; completed: number; readers: number; droppedUnread: number; evicted: number; refused: number; replayDropped: number };

export type LegacyRunStore = {
  /** A new run for `key`, or the reason it cannot start. */
  start: (key: string, owner: string | undefined) => { ok: true; run: LegacyRun } | { ok: false; reason: 'active' | 'busy' };
  get: (key: string) => LegacyRun | undefined;
  stats: () => LegacyStats;
  close: () => void;
};

type HeldRun = LegacyRun & { readers: number; everRead: boolean; gone: boolean; timer?: NodeJS.Timeout };

export function createLegacyRunStore(bounds: { replayEvents: number; maxRuns: number; unreadTtlMs: number }): LegacyRunStore {
  const runs = new Map<string, HeldRun>();
  const counters = { started: 0, completed: 0, droppedUnread: 0, evicted: 0, refused: 0, replayDropped: 0 };

  function drop(key: string): void {
    const run = runs.get(key);
    if (!run) return;
    run.gone = true;
    clearTimeout(run.timer);
    run.abort.abort();
    runs.delete(key);
  }

  function armExpiry(run: HeldRun): void {
    clearTimeout(run.timer);
    if (run.gone) return;
    run.timer = setTimeout(() => {
      if (run.readers > 0 || run.gone) return;
      if (!run.everRead) counters.droppedUnread += 1;
      drop(run.key);
    }, bounds.unreadTtlMs);
    run.timer.unref();
  }

  function start(key: string, owner: string | undefined) {
    const existing = runs.get(key);
    if (existing && !existing.finished) { counters.refused += 1; return { ok: false as const, reason: 'active' as const }; }
    if (existing) drop(key);
    if (runs.size >= bounds.maxRuns) {
      // Map order is insertion order: the first finished run found is the oldest.
      const oldest = [...runs.values()].find((r) => r.finished);
      if (!oldest) { counters.refused += 1; return { ok: false as const, reason: 'busy' as const }; }
      if (!oldest.everRead) counters.droppedUnread += 1;
      counters.evicted += 1;
      drop(oldest.key);
    }
    const held: StoredEvent[] = [];
    const listeners = new Set<(event: StoredEvent | 'end') => void>();
    let nextId = 1;
    const run: HeldRun = {
      key,
      owner,
      abort: new AbortController(),
      finished: false,
      readers: 0,
      everRead: false,
      gone: false,
      events: () => held.slice(),
      push(event) {
        if (run.finished) return;
        const stored = { ...event, id: nextId++ };
        held.push(stored);
        if (held.length > bounds.replayEvents) { held.shift(); counters.replayDropped += 1; }
        for (const listener of listeners) listener(stored);
      },
      finish() {
        if (run.finished) return;
        run.finished = true;
        counters.completed += 1;
        for (const listener of listeners) listener('end');
        armExpiry(run);
      },
      subscribe(listener) {
        listeners.add(listener);
        run.readers += 1;
        run.everRead = true;
        return () => {
          if (!listeners.delete(listener)) return;
          run.readers -= 1;
          if (run.finished && run.readers === 0) armExpiry(run);
        };
      },
    };
    runs.set(key, run);
    counters.started += 1;
    return { ok: true as const, run };
  }

  return {
    start,
    get: (key) => runs.get(key),
    stats: () => {
      let running = 0;
      let readers = 0;
      for (const run of runs.values()) { if (!run.finished) running += 1; readers += run.readers; }
      return { held: runs.size, running, readers, ...counters };
    },
    close() { for (const key of [...runs.keys()]) drop(key); },
  };
}
