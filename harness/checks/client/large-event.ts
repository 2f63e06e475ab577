/**
 * CLI-LARGE-002 (SHOULD): a client reads a multi-megabyte line in time linear in its pieces. The
 * same 3 MiB reach the client twice in the same 1 KiB pieces: once as a hundred events of 32 KB,
 * once as one line (harness/targets/client/large-event.ts). A reader that searches its whole
 * buffer at every piece (`buffer += chunk; buffer.split('\n\n')`, Python's `iter_lines`
 * prepending its pending line) reads the 32 KB events about as fast as a correct one and the line in time
 * quadratic in its pieces: the defect of eventsource-parser #19 and #28, EventSource #130 and
 * eventsource-stream #11, met with Gemini's multi-megabyte image events. Both reads are measured in
 * the client's CPU time on the same machine in the same run, so the verdict is a ratio, not the machine's speed: CLI-LARGE-001
 * judges the event's wholeness in pieces of up to 32 KiB, where such a reader is still quick.
 *
 * SHOULD, not MUST: no seed sentence names a reader's cost, and the field reports are of clients
 * that froze, not of wrong events.
 */
import type { CheckOutcome } from '../../model.ts';
import { finding, judge, untested } from '../transformer/outcome.ts';

export const clientLargeEventId = 'CLI-LARGE-002';

/** The line may take this many times the events' time before it fails, */
export const largeEventRatio = 3;
/**
 * and must be over them by this much too: one large allocation, JSON parse and record of 3 MiB
 * (measured in CPU time, where the machine's load adds nothing), or a few scheduler slices more
 * where only wall time can be had. A `str.find` reader in a Python process whose allocator is warm
 * spent 359 ms of CPU on the line against 51 ms on the events, so the margin is not the ratio's.
 */
export const largeEventSlackMs = (cpu: boolean): number => (cpu ? 100 : 250);

/** The most the line may take: 3 times the events' time, and the slack over them if that is more. */
export const largeEventLimitMs = (eventsMs: number, cpu: boolean): number => Math.max(largeEventRatio * eventsMs, eventsMs + largeEventSlackMs(cpu));

/**
 * The most the line is given, in the events' unit (CPU time where measured: then the line's CPU budget):
 * past the rule's limit (twice it, at least 1 s, at most the run's bound) it cannot pass, so it is stopped.
 */
export function lineBoundMs(eventsMs: number, cpu: boolean, runBoundMs: number): number {
  return Math.min(runBoundMs, Math.max(1000, 2 * largeEventLimitMs(eventsMs, cpu)));
}

/**
 * One timing of both reads, in the CPU time the client used from the first piece to its end record
 * (`cpu`: a session process's tree, or the harness's process, where a module runs), else in wall
 * time. `stoppedAtMs`: the line was stopped (its bound or CPU budget) with no end record that long into it (wall
 * time), `lineMs` its time by then.
 */
export type LargeEventPair = {
  eventsMs: number;
  lineMs: number;
  stoppedAtMs?: number;
  cpu?: boolean;
};

/** Why a pair cannot be judged (the small events gave no end record, or the client failed outright), else undefined. */
export type LargeEventReading = { pairs: LargeEventPair[] } | { error: string };

const limitOf = (p: LargeEventPair): number => largeEventLimitMs(p.eventsMs, p.cpu === true);
export const pairFails = (p: LargeEventPair): boolean => p.lineMs > limitOf(p);

function describe(p: LargeEventPair): string {
  const unit = p.cpu ? 'ms of CPU' : 'ms';
  const line = p.stoppedAtMs !== undefined ? `had used ${p.lineMs} ${unit} on the line, still reading it, when it was stopped ${p.stoppedAtMs} ms into it` : `read the line in ${p.lineMs} ${unit}`;
  return `read 3 MiB as 32 KB events in ${p.eventsMs} ${unit} and ${line}`;
}

/**
 * The verdict: a failing pair is timed again (a timing finding is confirmed before it is reported),
 * and the requirement fails only when every pair measured fails.
 */
export function checkLargeEventPace(probe: string, reading: LargeEventReading): CheckOutcome {
  if ('error' in reading) return untested(clientLargeEventId, probe, `could not evaluate: ${reading.error}`);
  const { pairs } = reading;
  if (pairs.length === 0) return untested(clientLargeEventId, probe, 'could not evaluate: no pair of reads was timed');
  if (!pairs.every(pairFails)) return judge(clientLargeEventId, probe, []);
  const worst = pairs[pairs.length - 1] as LargeEventPair;
  return judge(clientLargeEventId, probe, [finding(clientLargeEventId, 'quadratic-line-read', 'probe/large-event/line',
    `the client ${describe(worst)}: over ${largeEventRatio} times the events' time and ${largeEventSlackMs(worst.cpu === true)} ms over it (${limitOf(worst)} ms), ${pairs.length === 1 ? 'once' : `in each of ${pairs.length} timings`}. The same bytes in the same 1 KiB pieces cost it more as one line: its reading searches or copies the whole pending line at every piece (buffer += chunk then split or find from the start), which a multi-megabyte event turns into seconds of CPU (eventsource-parser #19). Keep the pending line as pieces and join them once its end arrives, or search only the new piece`,
    `at most ${limitOf(worst)} ms for the line`, pairs.map((p) => ({ eventsMs: p.eventsMs, lineMs: p.lineMs, ...(p.stoppedAtMs !== undefined ? { lineStoppedAtMs: p.stoppedAtMs } : {}), measured: p.cpu ? 'cpu' : 'wall' })))]);
}
