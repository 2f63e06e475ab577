/**
 * An order of runs in one long-lived instance, as the isolation requirements (ABE-ISO-001,
 * CLI-ISO-001) name it in a finding: `prior` runs of the probe's corpus in turn, then a drawn
 * `history`, then the target with `concurrent - 1` others open beside it, all in a NEW instance.
 * The probes draw and shrink orders in harness/targets/isolation-orders.ts.
 */

export type Order = { target: string; prior: number; history: string[]; concurrent: number };

/** `what`: the run's kind as a report names it ("run", "byte case"). */
export function describeOrder(o: Order, what = 'run'): string {
  const parts: string[] = [];
  if (o.prior > 0) parts.push(`${o.prior} prior run(s) (the probe's corpus in turn)`);
  if (o.history.length > 0) parts.push(`a drawn history of ${o.history.length} run(s) (${o.history.join(', ')})`);
  const before = parts.length === 0 ? 'first in a new long-lived instance' : `after ${parts.join(', then ')} in a new long-lived instance`;
  return `${what} ${o.target} ${before}${o.concurrent > 1 ? `, with ${o.concurrent - 1} other run(s) open beside it` : ''}`;
}

/** The one that differed, in its order: the target itself, or one of the runs open beside it. */
export function describeRunInOrder(run: string, o: Order, what = 'run'): string {
  return run === o.target && o.concurrent === 1 ? describeOrder(o, what) : `${what} ${run}, one of ${o.concurrent} open at once in the order: ${describeOrder(o, what)}`;
}
