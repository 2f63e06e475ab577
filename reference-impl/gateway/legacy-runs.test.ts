import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLegacyRunStore } from './legacy-runs.ts';

const update = (n: number) => ({ event: 'research_update' as const, data: { n } });

describe('legacy run store', () => {
  afterEach(() => { vi.useRealTimers(); });

  it('keeps the newest events of a run within the replay bound and counts the dropped ones', () => {
    const store = createLegacyRunStore({ replayEvents: 3, maxRuns: 10, unreadTtlMs: 1000 });
    const started = store.start('k', undefined);
    if (!started.ok) throw new Error('run did not start');
    for (let i = 1; i <= 5; i++) started.run.push(update(i));
    expect(started.run.events().map((e) => e.id)).toEqual([3, 4, 5]);
    expect(store.stats().replayDropped).toBe(2);
    store.close();
  });

  it('refuses a second run on a session while the first is running', () => {
    const store = createLegacyRunStore({ replayEvents: 3, maxRuns: 10, unreadTtlMs: 1000 });
    expect(store.start('k', undefined).ok).toBe(true);
    expect(store.start('k', undefined)).toEqual({ ok: false, reason: 'active' });
    store.close();
  });

  it('drops the oldest finished run past the run bound, and refuses when all are running', () => {
    const store = createLegacyRunStore({ replayEvents: 3, maxRuns: 2, unreadTtlMs: 60_000 });
    const a = store.start('a', undefined);
    const b = store.start('b', undefined);
    if (!a.ok || !b.ok) throw new Error('runs did not start');
    expect(store.start('c', undefined)).toEqual({ ok: false, reason: 'busy' });
    a.run.finish();
    expect(store.start('c', undefined).ok).toBe(true);
    expect(store.get('a')).toBeUndefined();
    expect(a.run.abort.signal.aborted).toBe(true);
    expect(store.stats()).toMatchObject({ held: 2, evicted: 1, droppedUnread: 1, refused: 1 });
    store.close();
  });

  it('drops a finished run nobody read after the unread bound, and counts it', () => {
    vi.useFakeTimers();
    const store = createLegacyRunStore({ replayEvents: 3, maxRuns: 10, unreadTtlMs: 1000 });
    const started = store.start('k', undefined);
    if (!started.ok) throw new Error('run did not start');
    started.run.finish();
    vi.advanceTimersByTime(999);
    expect(store.get('k')).toBeDefined();
    vi.advanceTimersByTime(1);
    expect(store.get('k')).toBeUndefined();
    expect(store.stats().droppedUnread).toBe(1);
  });

  it('keeps a run while a reader is attached and does not count a read run as unread', () => {
    vi.useFakeTimers();
    const store = createLegacyRunStore({ replayEvents: 3, maxRuns: 10, unreadTtlMs: 1000 });
    const started = store.start('k', undefined);
    if (!started.ok) throw new Error('run did not start');
    const seen: unknown[] = [];
    const unsubscribe = started.run.subscribe((e) => seen.push(e === 'end' ? e : e.id));
    started.run.push(update(1));
    started.run.finish();
    vi.advanceTimersByTime(5000);
    expect(store.get('k')).toBeDefined();
    unsubscribe();
    vi.advanceTimersByTime(1000);
    expect(store.get('k')).toBeUndefined();
    expect(seen).toEqual([1, 'end']);
    expect(store.stats()).toMatchObject({ droppedUnread: 0, completed: 1, started: 1 });
  });
});
