import { describe, expect, it } from 'vitest';
import { dealSlice } from './slice.ts';

describe('dealSlice: a suite dealt over its test files', () => {
  it('every item lands in exactly one slice, the deal continuing across lists', () => {
    const lists = [['ref-a', 'ref-b'], ['v1', 'v2', 'v3', 'v4'], Array.from({ length: 36 }, (_, i) => `m${i}`)];
    const slices = [1, 2, 3].map((k) => { const d = dealSlice(k, 3); return lists.flatMap((l) => d.each(l)); });
    expect(slices.flat().sort()).toEqual(lists.flat().sort());
    // The two listed first go to different files; the sizes differ by one at most.
    expect(slices[0]).toContain('ref-a');
    expect(slices[1]).toContain('ref-b');
    const sizes = slices.map((s) => s.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it('take() deals single certifications in the same turn', () => {
    const one = dealSlice(1, 2);
    const two = dealSlice(2, 2);
    expect([one.take(), one.take(), one.take()]).toEqual([true, false, true]);
    expect([two.take(), two.take(), two.take()]).toEqual([false, true, false]);
  });

  it('refuses a slice outside 1..of, with the range', () => {
    expect(() => dealSlice(0, 3)).toThrow(/the slice is 1 to 3/);
    expect(() => dealSlice(4, 3)).toThrow(/the slice is 1 to 3/);
  });
});
