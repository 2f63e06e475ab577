/**
 * GW-MEM-002: seed 004 § Response Lifecycle, "7. Connection closes when: ..." every run ends and
 * leaves nothing behind: the gateway retains less than `boundBytesPerRun` (512 bytes) of memory
 * per finished run. A bound on the slope, not on total growth: 16 KB per run passed a 64 MB bound
 * over 2,000 runs (GW-MEM-001, retired).
 *
 * A Node gateway is measured exactly: the harness forces a full collection through the V8
 * inspector after every batch of runs and reads the heap in use plus external memory (metric
 * `heap`). Any other process is measured from outside, on the resident memory (RSS) of its
 * processes after every batch of short runs, judged on RSS floors. The statistics, and why floors,
 * are harness/checks/memory-retention.ts's, shared with the transformer's ABE-MEM-001.
 */
import type { CheckOutcome } from '../../model.ts';
import { judgeRetention, memoryTrail, regressionSlope, type MemoryObservation } from '../memory-retention.ts';
import { fail, finding, pass, untested } from './types.ts';

export { collected, heapVerdictClear, memoryDefaults, memoryProgress, regressionSlope, retainedPerRun, type MemoryObservation, type MemorySample, type MemorySettings } from '../memory-retention.ts';

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export function checkMemory(probe: string, o: MemoryObservation | { error: string }): CheckOutcome[] {
  const req = 'GW-MEM-002';
  if ('error' in o) return [untested(req, probe, o.error)];
  const total = o.warmupRuns + o.runs;
  const bound = o.settings.boundBytesPerRun;
  const trail = memoryTrail(o.samples);
  const v = judgeRetention(o);
  if (v.kind === 'pass') return [pass(req, probe)];
  if (v.kind === 'untested') {
    if (v.why === 'failed-runs') return [untested(req, probe, `${o.failedRuns} of ${total} runs failed (${o.firstFailure ?? 'no message'}), so the memory of completed runs was not exercised`)];
    if (v.why === 'timed-out') return [untested(req, probe, `timed out: only ${o.runs} runs were measured before the memory runs' bound ran out (${trail}${o.boundMovedMs ? `; it moved ${(o.boundMovedMs / 1000).toFixed(1)} s for CPU time the machine withheld` : ''}); a garbage-collected runtime needs up to ${o.settings.runs}: raise the bound with --timeout-ms (it is the longer of 45 s and --timeout-ms less 3 s)`)];
    return [untested(req, probe, o.metric === 'heap' ? `too few memory readings (${o.samples.length}) to estimate the memory kept per run` : `too few RSS samples (${o.samples.length}) to estimate the memory kept per run`)];
  }
  const per = Math.round(v.perRun);
  if (v.how === 'fast-growth') {
    return [fail(req, probe, [finding(req, 'retained-per-run', 'rss', `the gateway's RSS grew ${Math.round(regressionSlope(o.samples))} bytes per finished run over ${o.runs} runs after ${o.warmupRuns} warm-up runs (${trail}), faster than any collection explains; the bound is ${bound} bytes per run`, `< ${bound} B/run`, `${per} B/run`)])];
  }
  if (v.how === 'heap') {
    return [fail(req, probe, [finding(req, 'retained-per-run', 'heap', `the gateway kept about ${per} bytes per finished run: its V8 heap in use plus external memory, read right after a forced full collection, grew over ${o.runs} runs after ${o.warmupRuns} warm-up runs (${trail}); the bound is ${bound} bytes per run`, `< ${bound} B/run`, `${per} B/run`)])];
  }
  const unseen = v.unseenCollection ? ' No collection was seen before the time cap: retained or not yet collected, the memory grew with every run.' : '';
  return [fail(req, probe, [finding(req, 'retained-per-run', 'rss', `the gateway kept about ${per} bytes per finished run: the lowest RSS of the last third of ${o.runs} runs (after ${o.warmupRuns} warm-up runs) is ${mb(v.lastFloor)}, against ${mb(v.firstFloor)} in the first third (${trail}); the bound is ${bound} bytes per run.${unseen}`, `< ${bound} B/run`, `${per} B/run`)])];
}
