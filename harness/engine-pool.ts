/**
 * The engine's job pool (issue 14 "concurrent scenarios"): up to `limit` jobs at once, started in
 * order, their results handed to `commit` in job order, so a report lists the same results in the
 * same order whatever the limit. An `alone` job (a probe that measures the process) runs alone: it
 * waits for the jobs before it to finish and nothing starts beside it, so it is timed against its
 * own start, undisturbed by neighbours. A `timed` job (a scenario whose checks read wall-clock
 * windows) waits for the shared jobs before it and starts beside other timed jobs only
 * (harness/engine-gate.ts says why). `commit` returning false stops the
 * pool (fail fast): jobs already started are cancelled and awaited, so no work outlives it.
 *
 * A background job (a probe whose load is a process of its own, counted by runs: Probe.background)
 * starts with the first jobs, outside the limit and the admission rules, and is committed in its
 * place like any other: listed last, it runs beside the whole part and is reported last.
 */
import { canJoin, type Admission, type Holders } from './engine-gate.ts';

export type PoolOptions<J> = {
  limit: number;
  /** How the job shares the pool with its neighbours (engine-gate.ts `canJoin`). */
  admission: (job: J) => Admission;
  background?: (job: J) => boolean;
  /** Asked to stop a started job whose result will not be committed; it must still settle. */
  cancel: (index: number) => void;
};

/** Returns how many jobs were committed (all of them unless `commit` stopped the pool). */
export async function runInOrder<J, R>(jobs: readonly J[], options: PoolOptions<J>, start: (job: J, index: number) => Promise<R>, commit: (job: J, index: number, result: R) => boolean): Promise<number> {
  if (!Number.isInteger(options.limit) || options.limit < 1) throw new RangeError(`runInOrder: limit must be an integer >= 1, got ${options.limit}`);
  const started: Array<Promise<R>> = [];
  const background = new Map<number, Promise<R>>();
  const running: Holders = { shared: 0, timed: 0, alone: 0 };
  const total = () => running.shared + running.timed + running.alone;
  let stopped = false;

  const fill = (): void => {
    while (!stopped && started.length < jobs.length && total() < options.limit) {
      const index = started.length;
      const job = jobs[index] as J;
      const early = background.get(index);
      if (early) { started.push(early); continue; }
      const admission = options.admission(job);
      if (!canJoin(running, admission)) return;
      running[admission] += 1;
      // `start` never rejects (the engine turns errors into results); `finally` keeps the count right regardless.
      started.push(start(job, index).finally(() => {
        running[admission] -= 1;
        fill();
      }));
    }
  };

  jobs.forEach((job, index) => { if (options.background?.(job)) background.set(index, start(job, index)); });
  fill();
  for (let index = 0; index < jobs.length; index++) {
    // Every job before this one has settled (and called fill), so this one has started.
    const result = await (started[index] as Promise<R>);
    if (!commit(jobs[index] as J, index, result)) {
      stopped = true;
      for (let later = index + 1; later < jobs.length; later++) if (later < started.length || background.has(later)) options.cancel(later);
      await Promise.allSettled([...started.slice(index + 1), ...[...background].filter(([i]) => i > index).map(([, p]) => p)]);
      return index + 1;
    }
  }
  return jobs.length;
}
