import { describe, expect, it } from 'vitest';
import { createGate } from './engine-gate.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('createGate', () => {
  it('admits up to the limit of shared holders and queues the rest', async () => {
    const gate = createGate(2);
    const a = await gate.enter('shared');
    await gate.enter('shared');
    let third = false;
    void gate.enter('shared').then(() => { third = true; });
    await tick();
    expect(third).toBe(false);
    a();
    await tick();
    expect(third).toBe(true);
  });

  it('runs an exclusive holder alone: it waits for every holder, and nothing enters beside it', async () => {
    const gate = createGate(4);
    const first = await gate.enter('shared');
    const order: string[] = [];
    const exclusive = gate.enter('alone').then((leave) => { order.push('exclusive'); return leave; });
    // Shared waiters go first: a later shared job enters beside the first while the exclusive one waits.
    const second = await gate.enter('shared');
    first();
    await tick();
    expect(order).toEqual([]);
    second();
    const leave = await exclusive;
    expect(order).toEqual(['exclusive']);
    const after = gate.enter('shared').then((release) => { order.push('after'); return release; });
    await tick();
    expect(order).toEqual(['exclusive']);
    leave();
    (await after)();
    expect(order).toEqual(['exclusive', 'after']);
  });

  it('admits an exclusive waiter only once no shared waiter is queued, and exclusive waiters in arrival order', async () => {
    const gate = createGate(1);
    const held = await gate.enter('shared');
    const order: string[] = [];
    const x1 = gate.enter('alone').then((leave) => { order.push('x1'); return leave; });
    const x2 = gate.enter('alone').then((leave) => { order.push('x2'); return leave; });
    const s = gate.enter('shared').then((leave) => { order.push('s'); return leave; });
    held();
    (await s)();
    (await x1)();
    (await x2)();
    expect(order).toEqual(['s', 'x1', 'x2']);
  });

  it('admits timed holders together once the shared load is gone, never beside a shared or alone holder, and alone holders after them', async () => {
    const gate = createGate(4);
    const shared = await gate.enter('shared');
    const order: string[] = [];
    const t1 = gate.enter('timed').then((leave) => { order.push('t1'); return leave; });
    const alone = gate.enter('alone').then((leave) => { order.push('alone'); return leave; });
    const t2 = gate.enter('timed').then((leave) => { order.push('t2'); return leave; });
    await tick();
    expect(order).toEqual([]);
    shared();
    const [l1, l2] = [await t1, await t2];
    expect(order).toEqual(['t1', 't2']);
    // A shared waiter that comes while timed holders run waits for them, and goes before the alone one.
    const late = gate.enter('shared').then((leave) => { order.push('shared'); return leave; });
    l1();
    await tick();
    expect(order).toEqual(['t1', 't2']);
    l2();
    (await late)();
    (await alone)();
    expect(order).toEqual(['t1', 't2', 'shared', 'alone']);
  });

  it('ignores a second release of the same entry', async () => {
    const gate = createGate(1);
    const a = await gate.enter('shared');
    a();
    a();
    const b = await gate.enter('shared');
    let c = false;
    void gate.enter('shared').then(() => { c = true; });
    await tick();
    expect(c).toBe(false);
    b();
  });

  it('lets up to timedLimit timed holders in, and still no more than limit shared ones', async () => {
    const gate = createGate(2, 4);
    const timed = await Promise.all([1, 2, 3, 4].map(() => gate.enter('timed')));
    let fifth = false;
    void gate.enter('timed').then(() => { fifth = true; });
    await tick();
    expect(fifth).toBe(false);
    timed.forEach((leave) => leave());
    await tick();
    expect(fifth).toBe(true);
    const shared = createGate(2, 4);
    await shared.enter('shared');
    await shared.enter('shared');
    let third = false;
    void shared.enter('shared').then(() => { third = true; });
    await tick();
    expect(third).toBe(false);
  });

  it('refuses a limit below 1 with the value it got', () => {
    expect(() => createGate(0)).toThrow(/integer >= 1, got 0/);
    expect(() => createGate(1, 0)).toThrow(/timedLimit must be an integer >= 1, got 0/);
  });
});
