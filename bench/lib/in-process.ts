/**
 * In-process throughput: a part and its baseline (the bare JSON.parse every consumer pays per
 * event) take turns for a few rounds on the same pre-rendered input, and the events each
 * processed per second are compared.
 */
import { performance } from 'node:perf_hooks';

/** Process the whole input once; returns how many events it handled. */
export type Pass = () => number;

export type PassRate = { events: number; ms: number; perSecond: number };

export function alternate(sides: readonly Pass[], rounds: number, roundMs: number): PassRate[] {
  if (!Number.isInteger(rounds) || rounds < 1 || !(roundMs > 0)) throw new RangeError(`alternate: rounds must be a positive integer and roundMs > 0, got ${rounds} and ${roundMs}`);
  // Warm-up: let the JIT see every side before anything is counted.
  for (const pass of sides) { const end = performance.now() + Math.min(200, roundMs); while (performance.now() < end) pass(); }
  const totals = sides.map(() => ({ events: 0, ms: 0 }));
  for (let round = 0; round < rounds; round++) {
    const order = sides.map((_, i) => (round % 2 === 0 ? i : sides.length - 1 - i));
    for (const i of order) {
      const pass = sides[i] as Pass;
      const total = totals[i] as { events: number; ms: number };
      const start = performance.now();
      const end = start + roundMs;
      let now = start;
      while (now < end) { total.events += pass(); now = performance.now(); }
      total.ms += now - start;
    }
  }
  return totals.map((t) => ({ ...t, perSecond: t.ms > 0 ? (t.events * 1000) / t.ms : 0 }));
}

/** The baseline pass: JSON.parse of every line, keeping a result so the work cannot be dropped. */
export function parseOnly(lines: readonly string[]): Pass {
  let sink = 0;
  return () => {
    for (const line of lines) sink += (JSON.parse(line) === null ? 0 : 1);
    return lines.length + (sink < 0 ? 1 : 0);
  };
}
