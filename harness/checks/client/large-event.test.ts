import { describe, expect, it } from 'vitest';
import { checkLargeEventPace, largeEventLimitMs, lineBoundMs, pairFails } from './large-event.ts';

describe('CLI-LARGE-002: the line against the events, in CPU time', () => {
  it('allows 3 times the events, and at least 100 ms over them (250 ms in wall time)', () => {
    expect(largeEventLimitMs(600, true)).toBe(1800);
    expect(largeEventLimitMs(51, true)).toBe(153);
    expect(largeEventLimitMs(20, true)).toBe(120);
    expect(largeEventLimitMs(20, false)).toBe(270);
    // The str.find reader in a warm Python process, and the example client beside it.
    expect(pairFails({ eventsMs: 51, lineMs: 359, cpu: true })).toBe(true);
    expect(pairFails({ eventsMs: 80, lineMs: 114, cpu: true })).toBe(false);
  });

  it('stops the line at twice the limit, at least 1 s, never past the run\'s bound', () => {
    expect(lineBoundMs(600, true, 10_000)).toBe(3600);
    expect(lineBoundMs(10, true, 10_000)).toBe(1000);
    expect(lineBoundMs(5000, true, 7500)).toBe(7500);
  });

  it('passes on one passing pair, fails only when every pair fails, and says it could not evaluate with none', () => {
    expect(checkLargeEventPace('p', { pairs: [{ eventsMs: 600, lineMs: 390, cpu: true }] }).status).toBe('passed');
    const failed = checkLargeEventPace('p', { pairs: [{ eventsMs: 69, lineMs: 935, stoppedAtMs: 1000, cpu: true }, { eventsMs: 64, lineMs: 1008, stoppedAtMs: 1000, cpu: true }] });
    expect(failed.status).toBe('failed');
    expect(failed.findings[0]).toMatchObject({ requirement: 'CLI-LARGE-002', code: 'quadratic-line-read', path: 'probe/large-event/line' });
    expect(failed.findings[0]?.message).toMatch(/in each of 2 timings/);
    expect(checkLargeEventPace('p', { pairs: [{ eventsMs: 69, lineMs: 935, cpu: true }, { eventsMs: 64, lineMs: 100, cpu: true }] }).status).toBe('passed');
    const none = checkLargeEventPace('p', { error: 'no end record' });
    expect(none).toMatchObject({ status: 'untested' });
    expect(none.reason).toMatch(/^could not evaluate: no end record/);
  });
});
