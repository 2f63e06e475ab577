import { describe, expect, it } from 'vitest';
import { worstStallMs, worstStretchMs } from './feed-stall.ts';

describe('how late the harness fed a run', () => {
  it('counts one late write alike as a stall and as a stretch', () => {
    // Scripted: a write every 100 ms; the third came 300 ms late.
    const at = [0, 100, 500, 600];
    const gaps = [0, 100, 100, 100];
    expect(worstStallMs(at, gaps)).toBe(300);
    expect(worstStretchMs(at, gaps)).toBe(300);
  });

  it('adds up many small delays in a row as a stretch, where no single pause is a stall', () => {
    // 200 writes of one byte, none scripted apart, each 2 ms after the last: EOF 398 ms after the first byte.
    const at = Array.from({ length: 200 }, (_, i) => i * 2);
    const gaps = at.map(() => 0);
    expect(worstStallMs(at, gaps)).toBe(2);
    expect(worstStretchMs(at, gaps)).toBe(398);
  });

  it('takes the rise of lateness, not lateness the feed caught up on, and nothing on time', () => {
    // Write 1 came 200 ms late, the rest on the schedule kept from write 1: the stretch is that 200 ms.
    expect(worstStretchMs([0, 300, 400, 500], [0, 100, 100, 100])).toBe(200);
    // Write 1 early (a scripted pause cut short) then on time again: no stretch but the catch-up.
    expect(worstStretchMs([0, 50, 200], [0, 100, 100])).toBe(50);
    expect(worstStretchMs([0, 100, 200], [0, 100, 100])).toBe(0);
    expect(worstStretchMs([5], [0])).toBe(0);
  });
});
