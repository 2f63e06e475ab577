/**
 * The engine's job pool (issue 14 "concurrent scenarios"): up to `limit` jobs at once, started in
 * order, their results handed to `commit` in job order, so a report lists the same results in the
 * same order whatever the limit. An exclusive job (a scenario whose checks read wall-clock timing,
 * a probe) runs alone: it waits for the jobs before it to finish and nothing starts beside it, so
 * it is timed against its own start, undisturbed by neighbours. `commit` returning false stops the
 * pool (fail fast): jobs already started are cancelled and awaited, so no work outlives it.
 *
 * A background job (a probe whose load is a process of its own, counted by runs: Probe.background)
 * starts with the first jobs, outside the limit and the exclusive rule, and is committed in its
 * place like any other: listed last, it runs beside the whole part and is reported last.
 */
export type PoolOptions<J> = {
  limit: number;
  exclusive: (job: J) => boolean;
  background?: (job: J) => boolean;
  /** Asked to stop a started job whose result will not be committed; it must still settle. */
  cancel: (index: number) => void;
};

/** Returns how many jobs were committed (all of them unless `commit` stopped the pool). */
export async function runInOrder<J, R>(jobs: readonly J[], options: PoolOptions<J>, start: (job: J, index: number) => Promise<R>, commit: (job: J, index: number, result: R) => boolean): Promise<number> {
  if (!Number.isInteger(options.limit) || options.limit < 1) throw new RangeError(`runInOrder: limit must be an integer >= 1, got ${options.limit}`);
  const started: Array<Promise<R>> = [];
  const background = new Map<number, Promise<R>>();
  let running = 0;
  let exclusiveRunning = false;
  let stopped = false;

  const fill = (): void => {
    while (!stopped && started.length < jobs.length && running < options.limit) {
      const index = started.length;
      const job = jobs[index] as J;
      const early = background.get(index);
      if (early) { started.push(early); continue; }
      const exclusive = options.exclusive(job);
      if (exclusiveRunning || (exclusive && running > 0)) return;
      running += 1;
      if (exclusive) exclusiveRunning = true;
      // `start` never rejects (the engine turns errors into results); `finally` keeps the count right regardless.
      started.push(start(job, index).finally(() => {
        running -= 1;
        if (exclusive) exclusiveRunning = false;
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
