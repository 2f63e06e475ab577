/**
 * GW-MEM-002: seed 004 § Response Lifecycle, "7. Connection closes when: ..." every run ends and
 * leaves nothing behind: the gateway retains less than `boundBytesPerRun` (512 bytes) of memory
 * per finished run. A bound on the slope, not on total growth: 16 KB per run passed a 64 MB bound
 * over 2,000 runs (GW-MEM-001, retired).
 *
 * A Node gateway is measured exactly: the harness forces a full collection through the V8 inspector
 * after every batch of runs and reads the heap in use plus external memory (metric `heap`; the
 * slope of a few thousand runs decides). Any other process is measured from outside, on the
 * resident memory (RSS) of its processes after every batch of short runs, by count, never by time. RSS is noisy in a garbage-collected runtime: V8 lets
 * some 2 KB of garbage per run pile up for 10,000 runs and more before its first full collection,
 * then reuses the freed pages, so a healthy Node gateway grows like a leaking one for a while and
 * then stops. So the verdict compares floors, not ends: the lowest RSS of the first third of the
 * measured runs against the lowest RSS of the last third (after collections), divided by the runs
 * between the two thirds' middles. Garbage is collected by the last third and drops out; retained
 * bytes stay in the floor. A runtime that frees at once (CPython's reference counting) is flat from
 * the start and is judged early on the same estimate.
 */
import type { CheckOutcome } from '../../model.ts';
import { fail, finding, pass, untested } from './types.ts';

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
   * What was read: `rss`, the resident memory of the gateway's processes; or `heap`, a V8
   * process's heap in use plus its memory outside the heap (Buffers) right after a full collection
   * the harness forced through the inspector (harness/targets/gateway-inspector.ts): exact, no
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
  stoppedBy: 'runs' | 'flat' | 'floor-flat' | 'fast-growth' | 'time';
  /** A failure message of one failed run, for the report. */
  firstFailure?: string | undefined;
};

/** Least-squares slope of RSS over runs, in bytes per run (0 with fewer than two samples). */
export function regressionSlope(samples: MemorySample[]): number {
  if (samples.length < 2) return 0;
  const mx = samples.reduce((s, p) => s + p.afterRuns, 0) / samples.length;
  const my = samples.reduce((s, p) => s + p.rssBytes, 0) / samples.length;
  let num = 0;
  let den = 0;
  for (const p of samples) { num += (p.afterRuns - mx) * (p.rssBytes - my); den += (p.afterRuns - mx) ** 2; }
  return den === 0 ? 0 : num / den;
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

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export function checkMemory(probe: string, o: MemoryObservation | { error: string }): CheckOutcome[] {
  const req = 'GW-MEM-002';
  if ('error' in o) return [untested(req, probe, o.error)];
  const total = o.warmupRuns + o.runs;
  if (o.failedRuns > total / 10) return [untested(req, probe, `${o.failedRuns} of ${total} runs failed (${o.firstFailure ?? 'no message'}), so the memory of completed runs was not exercised`)];
  const bound = o.settings.boundBytesPerRun;
  const trail = o.samples.filter((_, i) => i % Math.max(1, Math.ceil(o.samples.length / 12)) === 0 || i === o.samples.length - 1).map((p) => `${p.afterRuns}: ${mb(p.rssBytes)}`).join(', ');
  if (o.stoppedBy === 'fast-growth') {
    const slope = regressionSlope(o.samples);
    return [fail(req, probe, [finding(req, 'retained-per-run', 'rss', `the gateway's RSS grew ${Math.round(slope)} bytes per finished run over ${o.runs} runs after ${o.warmupRuns} warm-up runs (${trail}), faster than any collection explains; the bound is ${bound} bytes per run`, `< ${bound} B/run`, `${Math.round(slope)} B/run`)])];
  }
  if (o.stoppedBy === 'time' && o.runs < o.settings.earlyPassRuns && collected(o.samples, o.settings.dropBytes) || (o.stoppedBy === 'time' && o.runs < o.settings.minRuns)) {
    return [untested(req, probe, `timed out: only ${o.runs} runs were measured before the memory runs' bound ran out (${trail}); a garbage-collected runtime needs up to ${o.settings.runs}: raise the bound with --timeout-ms (it is the longer of 45 s and --timeout-ms less 3 s)`)];
  }
  if (o.metric === 'heap') {
    if (o.samples.length < 3) return [untested(req, probe, `too few memory readings (${o.samples.length}) to estimate the memory kept per run`)];
    const slope = regressionSlope(o.samples);
    if (slope < bound) return [pass(req, probe)];
    return [fail(req, probe, [finding(req, 'retained-per-run', 'heap', `the gateway kept about ${Math.round(slope)} bytes per finished run: its V8 heap in use plus external memory, read right after a forced full collection, grew over ${o.runs} runs after ${o.warmupRuns} warm-up runs (${trail}); the bound is ${bound} bytes per run`, `< ${bound} B/run`, `${Math.round(slope)} B/run`)])];
  }
  const estimate = retainedPerRun(o.samples, o.settings.jumpBytes);
  if (!estimate) return [untested(req, probe, `too few RSS samples (${o.samples.length}) to estimate the memory kept per run`)];
  if (estimate.perRun < bound) return [pass(req, probe)];
  const unseen = o.stoppedBy === 'time' && !collected(o.samples, o.settings.dropBytes) ? ' No collection was seen before the time cap: retained or not yet collected, the memory grew with every run.' : '';
  return [fail(req, probe, [finding(req, 'retained-per-run', 'rss', `the gateway kept about ${Math.round(estimate.perRun)} bytes per finished run: the lowest RSS of the last third of ${o.runs} runs (after ${o.warmupRuns} warm-up runs) is ${mb(estimate.lastFloor)}, against ${mb(estimate.firstFloor)} in the first third (${trail}); the bound is ${bound} bytes per run.${unseen}`, `< ${bound} B/run`, `${Math.round(estimate.perRun)} B/run`)])];
}
