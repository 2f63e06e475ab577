/**
 * ABE-MEM-001: a long-lived transformer keeps less than `boundBytesPerRun` (512 bytes) of memory
 * per finished run (seed 000 §7, "Memory usage bounded (no audit event leaks)"). Judged by the
 * gateway's statistics (harness/checks/memory-retention.ts): a module's V8 heap after a forced
 * collection by its slope, a session process's RSS by its floors.
 */
import type { CheckOutcome } from '../../model.ts';
import { judgeRetention, memoryTrail, type MemoryObservation } from '../memory-retention.ts';
import { finding, judge, untested } from './outcome.ts';

export const memoryRequirement = 'ABE-MEM-001';

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** How a part words the verdict: who kept the memory, what a finished run gives, which requirement judges runs that did not finish. */
export type RetentionWords = { requirement: string; who: string; unfinished: string; judgedBy: string };

const transformerWords: RetentionWords = { requirement: memoryRequirement, who: 'the transformer', unfinished: 'gave no terminal briefing', judgedBy: 'ABE-TERM-001' };

/** `instance`: what served the runs ("one session process", "one module instance"). */
export function checkRetention(probe: string, instance: string, o: MemoryObservation | { error: string }): CheckOutcome[] {
  return retentionOutcomes(transformerWords, probe, instance, o);
}

/** The verdict on a long-lived instance's memory, in a part's words (ABE-MEM-001, CLI-MEM-001). */
export function retentionOutcomes(words: RetentionWords, probe: string, instance: string, o: MemoryObservation | { error: string }): CheckOutcome[] {
  const req = words.requirement;
  if ('error' in o) return [untested(req, probe, o.error)];
  const bound = o.settings.boundBytesPerRun;
  const trail = memoryTrail(o.samples);
  const runs = `${o.runs} runs of ${instance} after ${o.warmupRuns} warm-up runs`;
  const v = judgeRetention(o);
  if (v.kind === 'pass') return [judge(req, probe, [])];
  if (v.kind === 'untested') {
    if (v.why === 'failed-runs') return [untested(req, probe, `${o.failedRuns} of ${o.warmupRuns + o.runs} memory runs ${words.unfinished} (${o.firstFailure ?? 'no message'}), so the memory of finished runs was not exercised (${words.judgedBy} judges such runs)`)];
    if (v.why === 'timed-out') return [untested(req, probe, `timed out: only ${o.runs} runs were measured before the probe's bound ran out (${trail}); a garbage-collected runtime needs up to ${o.settings.runs}: raise the bound with --timeout-ms`)];
    return [untested(req, probe, `too few memory readings (${o.samples.length}) to estimate the memory kept per run`)];
  }
  const per = Math.round(v.perRun);
  const expected = `< ${bound} B/run`;
  const actual = `${per} B/run`;
  if (v.how === 'fast-growth') return [judge(req, probe, [finding(req, 'retained-per-run', 'rss', `${words.who}'s RSS grew ${per} bytes per finished run over ${runs} (${trail}), faster than any collection explains; the bound is ${bound} bytes per run`, expected, actual)])];
  if (v.how === 'heap') return [judge(req, probe, [finding(req, 'retained-per-run', 'heap', `${words.who} kept about ${per} bytes per finished run: the V8 heap in use plus external memory, read right after a forced full collection, grew over ${runs} (${trail}); the bound is ${bound} bytes per run`, expected, actual)])];
  const unseen = v.unseenCollection ? ' No collection was seen before the time cap: retained or not yet collected, the memory grew with every run.' : '';
  return [judge(req, probe, [finding(req, 'retained-per-run', 'rss', `${words.who} kept about ${per} bytes per finished run: the lowest RSS of the last third of ${runs} is ${mb(v.lastFloor)}, against ${mb(v.firstFloor)} in the first third (${trail}); the bound is ${bound} bytes per run.${unseen}`, expected, actual)])];
}
