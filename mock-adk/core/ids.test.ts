/** Seeded ids and the script clock: formats, determinism, independence of streams. */
import { describe, expect, it } from 'vitest';
import { alphanumericId, base62Id, createIdStreams, createRng, createScriptClock, uuid4 } from './ids.ts';

describe('seeded ids', () => {
  it('draws the same sequence from the same seed and another from another seed', () => {
    const draw = (seed: string): number[] => { const r = createRng(seed); return Array.from({ length: 8 }, () => r.nextU32()); };
    expect(draw('plain_text:s-a')).toEqual(draw('plain_text:s-a'));
    expect(draw('plain_text:s-a')).not.toEqual(draw('plain_text:s-b'));
  });

  it('formats adk-js event ids, uuid4s and Anthropic ids', () => {
    const r = createRng('formats');
    for (let i = 0; i < 200; i++) {
      expect(alphanumericId(r)).toMatch(/^[A-Za-z0-9]{8}$/);
      expect(uuid4(r)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(base62Id(r, 'toolu_01', 22)).toMatch(/^toolu_01[0-9A-Za-z]{22}$/);
  });

  it('keeps each id stream independent of the draws on the others', () => {
    const a = createIdStreams('seed');
    const b = createIdStreams('seed');
    for (let i = 0; i < 5; i++) uuid4(a.events);
    expect(uuid4(a.calls)).toBe(uuid4(b.calls));
  });

  it('bounds integer draws and refuses an empty range', () => {
    const r = createRng('ints');
    for (let i = 0; i < 100; i++) expect(r.int(3, 5)).toBeGreaterThanOrEqual(3);
    expect(() => r.int(5, 3)).toThrow(RangeError);
  });
});

describe('script clock', () => {
  it('starts within the start millisecond and advances by the wait plus jitter', () => {
    const clock = createScriptClock(1795318500000, createRng('clock'));
    const start = clock.nowMicros();
    expect(Math.floor(start / 1000)).toBe(1795318500000);
    const next = clock.advance(250, 10, 20);
    expect(next - start).toBeGreaterThanOrEqual(260_000);
    expect(next - start).toBeLessThanOrEqual(270_000);
    expect(() => createScriptClock(Number.NaN, createRng('x'))).toThrow(/start time/);
  });
});
