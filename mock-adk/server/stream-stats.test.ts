import { describe, expect, it } from 'vitest';
import { createStreamStats, maxTrackedSessions } from './stream-stats.ts';

describe('stream counters', () => {
  it('counts every stream, and the streams of one session apart', () => {
    const stats = createStreamStats();
    stats.opened('a');
    stats.opened('b');
    stats.opened();
    stats.closed('aborted', 'client', 'a');
    stats.closed('eof', 'plan', 'b');
    expect(stats.snapshot()).toEqual({ open: 1, opened: 3, closedByClient: 1, completed: 1 });
    expect(stats.snapshot('a')).toEqual({ open: 0, opened: 1, closedByClient: 1, completed: 0 });
    expect(stats.snapshot('b')).toEqual({ open: 0, opened: 1, closedByClient: 0, completed: 1 });
    expect(stats.snapshot('never')).toEqual({ open: 0, opened: 0, closedByClient: 0, completed: 0 });
  });

  it('keeps the newest sessions only', () => {
    const stats = createStreamStats();
    for (let i = 0; i <= maxTrackedSessions; i++) stats.opened(`s${i}`);
    expect(stats.snapshot('s0').opened).toBe(0);
    expect(stats.snapshot(`s${maxTrackedSessions}`).opened).toBe(1);
    expect(stats.snapshot().opened).toBe(maxTrackedSessions + 1);
  });
});
