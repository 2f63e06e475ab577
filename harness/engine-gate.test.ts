import { describe, expect, it } from 'vitest';
import { createGate } from './engine-gate.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('createGate', () => {
  it('admits up to the limit of shared holders and queues the rest', async () => {
    const gate = createGate(2);
    const a = await gate.enter(false);
    await gate.enter(false);
    let third = false;
    void gate.enter(false).then(() => { third = true; });
    await tick();
    expect(third).toBe(false);
    a();
    await tick();
    expect(third).toBe(true);
  });

  it('runs an exclusive holder alone: it waits for every holder, and nothing enters beside it', async () => {
    const gate = createGate(4);
    const shared = await gate.enter(false);
    const order: string[] = [];
    const exclusive = gate.enter(true).then((leave) => { order.push('exclusive'); return leave; });
    // A later shared waiter is not let past the waiting exclusive one (first come, first served).
    const later = gate.enter(false).then((leave) => { order.push('later'); return leave; });
    await tick();
    expect(order).toEqual([]);
    shared();
    const leave = await exclusive;
    await tick();
    expect(order).toEqual(['exclusive']);
    leave();
    (await later)();
    expect(order).toEqual(['exclusive', 'later']);
  });

  it('ignores a second release of the same entry', async () => {
    const gate = createGate(1);
    const a = await gate.enter(false);
    a();
    a();
    const b = await gate.enter(false);
    let c = false;
    void gate.enter(false).then(() => { c = true; });
    await tick();
    expect(c).toBe(false);
    b();
  });

  it('refuses a limit below 1 with the value it got', () => {
    expect(() => createGate(0)).toThrow(/integer >= 1, got 0/);
  });
});
