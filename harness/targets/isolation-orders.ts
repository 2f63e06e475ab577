/**
 * Orders of runs in one long-lived instance (issue 30 §2, "Isolation"): a run's output is the same
 * whether it runs first, after 1,000 other runs, or interleaved with 20 concurrent ones. The
 * transformer's and the client's long-lived probes (ABE-ISO-001, CLI-ISO-001) draw their orders
 * here, so both search, shrink and name them alike.
 *
 * An order runs in a NEW long-lived instance: `prior` runs of the probe's corpus in turn
 * (`priorBatch` at a time), then the drawn `history` one after another, then the target with
 * `concurrent - 1` others open beside it (which ones depends on the order alone). The order alone decides what the instance saw, so the
 * shrunk order replays as printed. fast-check shrinks `prior` toward 0 (halving), the history toward
 * fewer runs, `concurrent` toward 1: the order reported is the smallest that still shows a difference.
 * The two extremes are always tried first, before the drawn orders.
 */
import { setMaxListeners } from 'node:events';
import fc from 'fast-check';
import type { Order } from '../checks/run-order.ts';

/** The longest history an order has before its target: the "after 1,000 other runs". */
export const priorRunsMax = 1000;
/** The most runs open at once in the instance: the "interleaved with 20 concurrent ones". */
export const concurrentMax = 20;
/** Prior runs open at once: they are history, so they go as many at a time as an order ever opens, to keep 1,000 of them quick. */
export const priorBatch = concurrentMax;
/** Drawn orders besides the fixed extremes (each in its own instance). */
export const drawnOrders = 3;

export type { Order };

/** `historyMax`: the longest prior history drawn (default priorRunsMax, the 1,000). */
export function orderArbitrary(ids: readonly string[], historyMax = priorRunsMax): fc.Arbitrary<Order> {
  if (ids.length === 0) throw new Error('orderArbitrary: no runs to order (the probe\'s corpus is empty)');
  return fc.record({
    target: fc.constantFrom(...ids),
    // Half the draws a short history, half any up to the most: the extreme has the longest already.
    prior: fc.oneof(fc.integer({ min: 0, max: Math.min(50, historyMax) }), fc.integer({ min: 0, max: historyMax })),
    history: fc.array(fc.constantFrom(...ids), { maxLength: 8 }),
    concurrent: fc.integer({ min: 1, max: concurrentMax }),
  });
}

/** The prior runs of an order: the corpus in turn, so their count alone names them. */
export const priorIds = (ids: readonly string[], n: number): string[] => Array.from({ length: n }, (_, i) => ids[i % ids.length] as string);

/** The runs open at once: the target and `concurrent - 1` others, chosen by the order alone. */
export const groupOf = (ids: readonly string[], o: Order): string[] => [o.target, ...Array.from({ length: o.concurrent - 1 }, (_, i) => ids[(i + o.concurrent) % ids.length] as string)];

/** `ids` named first: the two extremes every search tries before drawing. */
export function extremeOrders(ids: readonly string[], historyMax = priorRunsMax): Order[] {
  const first = ids[0] as string;
  const last = ids[ids.length - 1] as string;
  return [
    { target: first, prior: historyMax, history: [], concurrent: 1 },
    { target: last, prior: 0, history: [], concurrent: concurrentMax },
  ];
}

/** fast-check takes a 32-bit seed (as harness/generated.ts's fcSeed). */
const fcSeed = (seed: number): number => seed | 0;

/** What one order showed: the first run that differs from its baseline, else one that matched. */
export type OrderOutcome<C> = { differs?: C; matched?: C };

export type OrderSearch<C> = {
  seed: number;
  /** Orders run, the extremes, the drawn ones and the shrink steps. */
  tried: number;
  /** Prior and history runs given to the instances, all orders together. */
  runs: number;
  /** The smallest order found that shows a difference, and the case it showed. */
  counterexample?: { order: Order; case: C; shrinks: number; path: string | undefined };
  passedExample?: C;
  interrupted: boolean;
};

/**
 * Runs the extremes, then `drawnOrders` drawn from the seed; a difference is shrunk. `evaluate`
 * runs one order in a new instance and says what it showed. `historyMax` bounds the prior history
 * (default the issue's 1,000): only a mutation test proving other requirements asks less.
 *
 * At the time limit fast-check stops waiting for the order it is running but does not stop it: it
 * went on in the background after the search had returned, its instance and its runs still open
 * beside the certification's next jobs (a TypeScript session transformer's 1,000-run order, and a
 * MaxListenersExceededWarning from its runs' listeners, 2026-11-30). `evaluate` gets a signal that is
 * aborted then, or when `parent` is (the job's): it ends its runs on it, and the search returns once
 * that order has closed its instance. Up to 20 runs open at once listen on that signal.
 */
export async function searchOrders<C>(ids: readonly string[], seed: number, timeLimitMs: number, evaluate: (order: Order, signal: AbortSignal) => Promise<OrderOutcome<C>>, historyMax = priorRunsMax, parent?: AbortSignal): Promise<OrderSearch<C>> {
  const stop = new AbortController();
  const signal = parent ? AbortSignal.any([parent, stop.signal]) : stop.signal;
  setMaxListeners(64, signal);
  let inFlight: Promise<unknown> = Promise.resolve();
  let tried = 0;
  let runs = 0;
  let passedExample: C | undefined;
  // Shrinking evaluates smaller and smaller failing orders: the last failure seen is the one reported.
  let lastFailing: { order: Order; case: C } | undefined;
  const property = fc.asyncProperty(orderArbitrary(ids, historyMax), async (order) => {
    tried++;
    runs += order.prior + order.history.length;
    const evaluating = evaluate(order, signal);
    inFlight = evaluating.catch(() => {});
    const outcome = await evaluating;
    if (outcome.differs !== undefined) { lastFailing = { order, case: outcome.differs }; return false; }
    if (outcome.matched !== undefined) passedExample = outcome.matched;
    return true;
  });
  const examples = extremeOrders(ids, historyMax).map((o): [Order] => [o]);
  const details = await fc.check(property, { seed: fcSeed(seed), numRuns: drawnOrders + examples.length, examples, interruptAfterTimeLimit: timeLimitMs, markInterruptAsFailure: false });
  stop.abort();
  await inFlight;
  const found = lastFailing as { order: Order; case: C } | undefined;
  return {
    seed: fcSeed(seed), tried, runs, interrupted: details.interrupted,
    ...(details.failed && found ? { counterexample: { ...found, shrinks: details.numShrinks, path: details.counterexamplePath ?? undefined } } : {}),
    ...(passedExample !== undefined ? { passedExample } : {}),
  };
}
