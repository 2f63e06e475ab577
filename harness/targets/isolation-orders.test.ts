/**
 * The isolation orders (issue 30 §2): the two extremes run first, orders are drawn from the seed,
 * and a difference is shrunk to the smallest order fast-check finds; over a fake instance, so the
 * search itself is what is tested.
 */
import { describe, expect, it } from 'vitest';
import { describeOrder, describeRunInOrder } from '../checks/run-order.ts';
import { drawnOrders, extremeOrders, groupOf, priorIds, searchOrders, type Order } from './isolation-orders.ts';

const ids = ['a', 'b', 'c'];

describe('isolation orders', () => {
  it('tries the two extremes first: 1,000 prior runs, then 20 runs at once', async () => {
    const seen: Order[] = [];
    const search = await searchOrders(ids, 4, 10_000, async (o) => { seen.push(o); return { matched: o.target }; });
    expect(seen.slice(0, 2)).toEqual(extremeOrders(ids));
    expect(seen.slice(0, 2).map((o) => [o.prior, o.concurrent])).toEqual([[1000, 1], [0, 20]]);
    expect(search).toMatchObject({ seed: 4, tried: 2 + drawnOrders, interrupted: false });
    expect(search.counterexample).toBeUndefined();
    // The same seed draws the same orders.
    const again: Order[] = [];
    await searchOrders(ids, 4, 10_000, async (o) => { again.push(o); return {}; });
    expect(again).toEqual(seen);
  });

  it('a shorter history (historyMax, the mutant suites\' isolationHistory) bounds the extreme and every drawn order', async () => {
    const seen: Order[] = [];
    await searchOrders(ids, 4, 10_000, async (o) => { seen.push(o); return { matched: o.target }; }, 100);
    expect(seen[0]).toEqual({ target: 'a', prior: 100, history: [], concurrent: 1 });
    expect(seen.length).toBe(2 + drawnOrders);
    expect(Math.max(...seen.map((o) => o.prior))).toBe(100);
  });

  it('at its time limit stops the order it is running and returns only once that order has closed its instance', async () => {
    const events: string[] = [];
    const search = await searchOrders(ids, 4, 200, (o, stop) => new Promise<{ matched?: string }>((resolve) => {
      events.push('opened');
      // An order far longer than the limit: it ends when told to, then closes its instance.
      const timer = setTimeout(() => resolve({ matched: o.target }), 60_000);
      stop.addEventListener('abort', () => { clearTimeout(timer); setTimeout(() => { events.push('closed'); resolve({}); }, 50); }, { once: true });
    }));
    expect(search).toMatchObject({ tried: 1, interrupted: true });
    // fast-check alone returns at 200 ms and leaves the order running in the background.
    expect(events).toEqual(['opened', 'closed']);
  });

  it('shrinks a difference that needs a long history to the smallest prior count that shows it', async () => {
    const search = await searchOrders(ids, 9, 10_000, async (o) => (o.prior >= 300 ? { differs: o } : { matched: o }));
    expect(search.counterexample?.order).toEqual({ target: 'a', prior: 300, history: [], concurrent: 1 });
    expect(search.counterexample?.shrinks).toBeGreaterThan(0);
  });

  it('shrinks a difference under load to the fewest runs open at once', async () => {
    const search = await searchOrders(ids, 9, 10_000, async (o) => (o.concurrent >= 13 ? { differs: o } : {}));
    expect(search.counterexample?.order).toMatchObject({ prior: 0, history: [], concurrent: 13 });
  });

  it('names an order: its prior runs, its drawn history and the runs beside it; the group and prior runs depend on the order alone', () => {
    const o: Order = { target: 'b', prior: 4, history: ['c'], concurrent: 3 };
    expect(priorIds(ids, 4)).toEqual(['a', 'b', 'c', 'a']);
    expect(groupOf(ids, o)).toEqual(['b', 'a', 'b']);
    expect(describeOrder(o)).toBe("run b after 4 prior run(s) (the probe's corpus in turn), then a drawn history of 1 run(s) (c) in a new long-lived instance, with 2 other run(s) open beside it");
    expect(describeOrder({ target: 'a', prior: 0, history: [], concurrent: 1 }, 'byte case')).toBe('byte case a first in a new long-lived instance');
    expect(describeRunInOrder('a', o)).toMatch(/^run a, one of 3 open at once in the order: run b after/);
  });
});
