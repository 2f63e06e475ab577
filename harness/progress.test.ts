import { describe, expect, it } from 'vitest';
import { createPaint } from './colour.ts';
import { createProgress, describeLeft } from './progress.ts';

function harness(interactive: boolean) {
  let t = 0;
  const lines: string[] = [];
  const writes: string[] = [];
  const progress = createProgress({ interactive, write: (x) => writes.push(x), log: (l) => lines.push(l), paint: createPaint(false), everyMs: 10_000, now: () => t });
  return { progress, lines, writes, tick: (ms: number) => { t += ms; } };
}

describe('progress', () => {
  it('in a log: no line per passing run, one i/N line with the time left every 10 s at most, every failed run on its own line', () => {
    const h = harness(false);
    for (let i = 0; i < 10; i++) h.progress({ kind: 'scenario-start', part: 'transformer', id: `s${i}`, index: i, total: 10 });
    for (let i = 0; i < 9; i++) {
      h.tick(4_000);
      h.progress({ kind: 'scenario-end', part: 'transformer', id: `s${i}`, status: i === 1 ? 'failed' : 'passed', durationMs: 4000, failed: i === 1 ? ['ABE-TERM-001'] : [] });
    }
    expect(h.lines).toEqual([
      '[transformer] failed  s1 (4000 ms) failed: ABE-TERM-001',
      'progress: 3/10 runs, about 28 s left',
      'progress: 6/10 runs, about 16 s left',
      'progress: 9/10 runs, about 4 s left',
    ]);
    expect(h.writes).toEqual([]);
  });

  it('on a terminal: one line rewritten in place, with i/N and the time left', () => {
    const h = harness(true);
    h.progress({ kind: 'scenario-start', part: 'gateway', id: 'a', index: 0, total: 2 });
    h.tick(1_000);
    h.progress({ kind: 'scenario-end', part: 'gateway', id: 'a', status: 'passed', durationMs: 1000, failed: [] });
    h.progress({ kind: 'scenario-start', part: 'gateway', id: 'b', index: 1, total: 2 });
    expect(h.writes.at(-1)).toBe('\r\x1b[K1/2 runs, about 1 s left [gateway] b');
    expect(h.lines).toEqual([]);
  });

  it('words the time left in seconds, then minutes', () => {
    expect(describeLeft(40_000)).toBe('about 40 s left');
    expect(describeLeft(200_000)).toBe('about 3 min left');
  });
});
