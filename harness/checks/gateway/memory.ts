/**
 * GW-MEM-001: seed 004 § Response Lifecycle, "7. Connection closes when: ..." every run ends and
 * leaves nothing behind: the gateway's resident memory grows less than a documented bound over
 * thousands of short runs. Judged by count (runs), never by time: RSS is read from the process
 * after a warm-up and again after the runs.
 */
import type { CheckOutcome } from '../../model.ts';
import { fail, finding, pass, untested } from './types.ts';

export type MemoryObservation = {
  runs: number;
  failedRuns: number;
  /** RSS in bytes after the warm-up, then after every `runs / samples.length` runs. */
  baselineBytes: number;
  samples: Array<{ afterRuns: number; rssBytes: number }>;
  boundBytes: number;
  /** A failure message of one failed run, for the report. */
  firstFailure?: string | undefined;
};

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export function checkMemory(probe: string, o: MemoryObservation | { error: string }): CheckOutcome[] {
  const req = 'GW-MEM-001';
  if ('error' in o) return [untested(req, probe, o.error)];
  if (o.failedRuns > o.runs / 10) return [untested(req, probe, `${o.failedRuns} of ${o.runs} runs failed (${o.firstFailure ?? 'no message'}), so the memory of completed runs was not exercised`)];
  const last = o.samples.at(-1);
  if (!last) return [untested(req, probe, 'no RSS sample was taken')];
  const growth = last.rssBytes - o.baselineBytes;
  if (growth < o.boundBytes) return [pass(req, probe)];
  const trail = o.samples.map((s) => `${s.afterRuns}: ${mb(s.rssBytes)}`).join(', ');
  return [fail(req, probe, [finding(req, 'rss-growth', 'rss', `the gateway's RSS grew ${mb(growth)} over ${o.runs} runs (from ${mb(o.baselineBytes)}; ${trail}), more than the ${mb(o.boundBytes)} bound`, `< ${mb(o.boundBytes)}`, mb(growth))])];
}
