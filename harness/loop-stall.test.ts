import { describe, expect, it } from 'vitest';
import { watchLoop } from './loop-stall.ts';

// The loop held for 300 ms: any load of the machine only adds to what a watch sees, so the lower
// bounds hold however busy it is, and a watch that did not see the block sees far less than it.
const block = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end) { /* the loop held */ } };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('watchLoop (loop-stall.ts)', () => {
  it('gives each open watch the longest stall of the loop while it was open, and only that', async () => {
    const first = watchLoop();
    await wait(15);
    block(300);
    await wait(15);
    const second = watchLoop();
    await wait(40);
    const late = second.stop();
    const seen = first.stop();
    expect(seen).toBeGreaterThanOrEqual(280);
    expect(late).toBeLessThan(seen - 200);
  });

  it('sees a stall in the loop turn it began in, stopped before its first tick', () => {
    const w = watchLoop();
    block(300);
    expect(w.stop()).toBeGreaterThanOrEqual(280);
  });

  it('is 0 when no sample was taken, and a second stop changes nothing', () => {
    const w = watchLoop();
    expect(w.stop()).toBe(0);
    expect(w.stop()).toBe(0);
  });
});
