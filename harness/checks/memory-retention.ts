/**
 * Memory retained per finished run, from readings taken after every batch of runs of one
 * long-lived process or instance: the statistics every memory probe shares (GW-MEM-002 for
 * gateways, ABE-MEM-001 for transformers), so that they judge alike. Counted by runs, never by time.
 *
 * Two metrics. `heap`: a V8 heap in use plus external memory read right after a forced full
 * collection: exact, no garbage in it, so the least-squares slope over all readings is the
 * estimate. `rss`: the resident memory of a process seen from outside, noisy in a garbage-collected
 * runtime: V8 lets some 2 KB of garbage per run pile up for 10,000 runs and more before its first
 * full collection, then reuses the freed pages, so a healthy runtime grows like a leaking one for a
 * while and then stops. So `rss` compares floors, not ends: the lowest RSS of the first third of
 * the measured runs against the lowest RSS of the last third (after collections), divided by the
 * runs between the two thirds' middles. Garbage is collected by the last third and drops out;
 * retained bytes stay in the floor. A runtime that frees at once (CPython's reference counting) is
 * flat from the start and is judged early on the same estimate.
 */

export type MemorySample = { afterRuns: number; rssBytes: number };

export type MemorySettings = {
  /** The bound: retained bytes per finished run (the requirement's 512). */
  boundBytesPerRun: number;
  /** Runs measured after warm-up when nothing stops them earlier. */
  runs: number;
  /** From this many runs on, a runtime that collected and whose floor has not risen passes. */
  earlyPassRuns: number;
  /** A rise of RSS of at least this much in one batch is a one-time jump (see retainedPerRun). */
  jumpBytes: number;
  /** Fewest measured runs before an early verdict. */
  minRuns: number;
  /** A slope at or above this over `minFastRuns` runs is a leak no collection explains: stop. */
  fastBytesPerRun: number;
  minFastRuns: number;
  /** A fall of RSS of at least this much is a collection (the runtime gives memory back). */
  dropBytes: number;
};

export const memoryDefaults: MemorySettings = { boundBytesPerRun: 512, runs: 48_000, earlyPassRuns: 18_000, jumpBytes: 6 * 1024 * 1024, minRuns: 2000, fastBytesPerRun: 8 * 1024, minFastRuns: 4000, dropBytes: 1024 * 1024 };

export type MemoryObservation = {
  /**
   * What was read: `rss`, the resident memory of the process(es) under test; or `heap`, a V8
   * process's heap in use plus its memory outside the heap (Buffers) right after a full collection
   * the harness forced (through the inspector for a gateway, harness/targets/gateway/inspector.ts; with
   * global.gc in the harness's own process for a module): exact, no
   * garbage in it, so the slope over all samples is the verdict.
   */
  metric?: 'rss' | 'heap';
  warmupRuns: number;
  /** Measured runs (after warm-up) and how many of them failed. */
  runs: number;
  failedRuns: number;
  /** RSS after the warm-up (afterRuns 0), then after every batch. */
  samples: MemorySample[];
  settings: MemorySettings;
  /** Why the runs stopped: all done, an early verdict, or the time cap. */
  stoppedBy: 'runs' | 'flat' | 'floor-flat' | 'fast-growth' | 'heap-clear' | 'time';
  /** A failure message of one failed run, for the report. */
  firstFailure?: string | undefined;
  /** How far the runs' bound moved for CPU time the machine withheld, in ms (fair-timer.ts fairDeadline). */
  boundMovedMs?: number;
  /** How the runs reached the implementation, when a probe has more than one way (the report's note). */
  via?: string;
};

/** The least-squares line of memory over runs: its slope, the means it passes through, and the spread of the runs (sxx). */
function leastSquares(samples: MemorySample[]): { slope: number; mx: number; my: number; sxx: number } {
  const mx = samples.reduce((s, p) => s + p.afterRuns, 0) / samples.length;
  const my = samples.reduce((s, p) => s + p.rssBytes, 0) / samples.length;
  let sxy = 0;
  let sxx = 0;
  for (const p of samples) { sxy += (p.afterRuns - mx) * (p.rssBytes - my); sxx += (p.afterRuns - mx) ** 2; }
  return { slope: sxx === 0 ? 0 : sxy / sxx, mx, my, sxx };
}

/** Least-squares slope of RSS over runs, in bytes per run (0 with fewer than two samples). */
export function regressionSlope(samples: MemorySample[]): number {
  return samples.length < 2 ? 0 : leastSquares(samples).slope;
}

/** Whether RSS ever fell by `dropBytes` or more below an earlier sample (a collection gave memory back). */
export function collected(samples: MemorySample[], dropBytes: number): boolean {
  let high = -Infinity;
  for (const p of samples) {
    if (p.rssBytes <= high - dropBytes) return true;
    high = Math.max(high, p.rssBytes);
  }
  return false;
}

/**
 * Retained bytes per run: the floor of the last third of the runs against the floor of the first
 * third, over the runs between the thirds' middles. The first third starts after its last one-time
 * jump (`jumpBytes` or more in one batch: V8 growing its young generation), which is no retention.
 */
export function retainedPerRun(samples: MemorySample[], jumpBytes = memoryDefaults.jumpBytes): { perRun: number; firstFloor: number; lastFloor: number } | undefined {
  const last = samples.at(-1);
  if (!last || samples.length < 4) return undefined;
  const n = last.afterRuns;
  let from = 0;
  for (let i = 1; i < samples.length && (samples[i]?.afterRuns ?? 0) <= n / 3; i++) {
    if ((samples[i]?.rssBytes ?? 0) - (samples[i - 1]?.rssBytes ?? 0) >= jumpBytes) from = i;
  }
  const first = samples.slice(from).filter((p) => p.afterRuns <= n / 3);
  const end = samples.filter((p) => p.afterRuns >= (2 * n) / 3);
  if (first.length === 0 || end.length === 0) return undefined;
  const firstFloor = Math.min(...first.map((p) => p.rssBytes));
  const lastFloor = Math.min(...end.map((p) => p.rssBytes));
  const middle = (ps: MemorySample[]) => ps.reduce((s, p) => s + p.afterRuns, 0) / ps.length;
  return { perRun: (lastFloor - firstFloor) / (middle(end) - middle(first)), firstFloor, lastFloor };
}

/** After each batch: go on, or stop because the verdict is already clear (or all runs are done). */
export function memoryProgress(samples: MemorySample[], s: MemorySettings): 'continue' | 'runs' | 'flat' | 'floor-flat' | 'fast-growth' {
  const n = samples.at(-1)?.afterRuns ?? 0;
  const slope = regressionSlope(samples);
  if (n >= s.minFastRuns && slope >= s.fastBytesPerRun) return 'fast-growth';
  // Flat from the start and never gave anything back: nothing accumulates that a collection would
  // free later, so the floor estimate is final. A runtime that collected is judged on every run,
  // since a leak hides for thousands of runs after a collection.
  if (n >= s.minRuns && !collected(samples, s.dropBytes) && slope <= s.boundBytesPerRun / 2) return 'flat';
  // A runtime that collected, and whose floor rose less than half the bound: garbage, not retention
  // (a 1 KB leak's floor rose 900 bytes per run and more by then in every measurement).
  if (n >= s.earlyPassRuns && collected(samples, s.dropBytes) && (retainedPerRun(samples, s.jumpBytes)?.perRun ?? Infinity) <= s.boundBytesPerRun / 2) return 'floor-flat';
  return n >= s.runs ? 'runs' : 'continue';
}

/**
 * The least count a heap reading's scatter about the slope's line is taken to be, in bytes: the
 * reference gateway's readings after a forced collection lay within 300 KB of their line and their
 * residual deviation was 17 to 132 KB (three runs of 6,000 runs read every 250, 2026-11-29).
 */
export const heapScatterBytes = 256 * 1024;

/**
 * Whether exact heap readings (after forced collections) already decide the bound, so the runs can
 * stop: the least-squares slope three standard errors clear of `bound`, on one side or the other,
 * after at least `minRuns` runs. The standard error takes the readings' residual deviation, and
 * never less than heapScatterBytes, since a few readings can lie on a line by chance. A slope
 * near the bound decides nothing, and the runs go on to their count.
 */
export function heapVerdictClear(samples: MemorySample[], bound: number, minRuns: number): boolean {
  const n = samples.length;
  if (n < 4 || (samples.at(-1)?.afterRuns ?? 0) < minRuns) return false;
  const { slope, mx, my, sxx } = leastSquares(samples);
  const residual = samples.reduce((s, p) => s + (p.rssBytes - (my + slope * (p.afterRuns - mx))) ** 2, 0);
  const se = Math.max(Math.sqrt(residual / (n - 2)), heapScatterBytes) / Math.sqrt(sxx);
  return slope + 3 * se < bound || slope - 3 * se > bound;
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** A few readings, evenly spread, for a report: `runs: MB, ...`. */
export function memoryTrail(samples: MemorySample[], points = 12): string {
  return samples.filter((_, i) => i % Math.max(1, Math.ceil(samples.length / points)) === 0 || i === samples.length - 1).map((p) => `${p.afterRuns}: ${mb(p.rssBytes)}`).join(', ');
}

/**
 * The verdict on one observation, in numbers; each requirement words it for its part. `untested`
 * carries the reason's facts (`why`), `fail` the estimate and how it was reached: `fast-growth`
 * (the slope, at a rate no collection explains), `heap` (the slope after forced collections) or
 * `floor` (the RSS floors of the first and last thirds).
 */
export type RetentionVerdict =
  | { kind: 'pass'; perRun: number }
  | { kind: 'untested'; why: 'failed-runs' | 'timed-out' | 'too-few-samples' }
  | { kind: 'fail'; how: 'fast-growth'; perRun: number }
  | { kind: 'fail'; how: 'heap'; perRun: number }
  | { kind: 'fail'; how: 'floor'; perRun: number; firstFloor: number; lastFloor: number; unseenCollection: boolean };

export function judgeRetention(o: MemoryObservation): RetentionVerdict {
  const total = o.warmupRuns + o.runs;
  if (o.failedRuns > total / 10) return { kind: 'untested', why: 'failed-runs' };
  const bound = o.settings.boundBytesPerRun;
  if (o.stoppedBy === 'fast-growth') return { kind: 'fail', how: 'fast-growth', perRun: regressionSlope(o.samples) };
  if (o.stoppedBy === 'time' && o.runs < o.settings.earlyPassRuns && collected(o.samples, o.settings.dropBytes) || (o.stoppedBy === 'time' && o.runs < o.settings.minRuns)) return { kind: 'untested', why: 'timed-out' };
  if (o.metric === 'heap') {
    if (o.samples.length < 3) return { kind: 'untested', why: 'too-few-samples' };
    const slope = regressionSlope(o.samples);
    return slope < bound ? { kind: 'pass', perRun: slope } : { kind: 'fail', how: 'heap', perRun: slope };
  }
  const estimate = retainedPerRun(o.samples, o.settings.jumpBytes);
  if (!estimate) return { kind: 'untested', why: 'too-few-samples' };
  if (estimate.perRun < bound) return { kind: 'pass', perRun: estimate.perRun };
  return { kind: 'fail', how: 'floor', ...estimate, unseenCollection: o.stoppedBy === 'time' && !collected(o.samples, o.settings.dropBytes) };
}
