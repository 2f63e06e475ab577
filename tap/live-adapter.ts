/**
 * The bridge from the tap core's observer callbacks to the live sinks (`--otlp`, `--ui`): each run,
 * frame, run-level finding and run end becomes one LiveEvent (tap/live-events.ts). It keeps only
 * the frame and finding counts of open runs; the sinks bound what they keep themselves.
 */
import { Buffer } from 'node:buffer';
import { capFrameData, type LiveEvent, type LiveSink } from './live-events.ts';
import type { RunEnding, TapObserver } from './types.ts';
import { createRunState } from './run-state.ts';

const endings: Record<RunEnding, Extract<LiveEvent, { kind: 'run-end' }>['ending']> = {
  eof: 'complete',
  'client-closed': 'client-disconnected',
  'upstream-cut': 'upstream-disconnected',
  'upstream-failed': 'error',
  stopped: 'error',
};

/**
 * `tap` names this tap in every event (`front`, `back`), so the taps of a pair can share a sink.
 * Only runs (POST /run_sse, /run_sse_enhanced) are published; other requests are forwarded only.
 */
export function createLiveObserver(sinks: readonly LiveSink[], tap: string): TapObserver {
  // Per run on the run itself, not in a Map every run churns (tap/run-state.ts).
  const findingsOf = createRunState<number>('live findings');
  const publish = (event: LiveEvent) => { for (const sink of sinks) sink.publish(event); };
  return {
    onRunStart(run) {
      if (run.kind !== 'run') return;
      findingsOf.set(run, 0);
      publish({ kind: 'run-start', runId: run.name, at: Date.parse(run.startedAt), method: run.method, path: run.url, tap, ...(run.dialect !== 'unknown' ? { dialect: run.dialect } : {}) });
    },
    onFrame(run, frame, findings) {
      const seen = findingsOf.get(run);
      if (seen === undefined) return;
      findingsOf.set(run, seen + findings.length);
      publish({ kind: 'frame', runId: run.name, index: frame.index, at: Date.now(), bytes: Buffer.byteLength(frame.data), data: capFrameData(frame.data), ...(frame.event !== undefined ? { event: frame.event } : {}), findings: [...findings] });
    },
    onFindings(run, findings) {
      const seen = findingsOf.get(run);
      if (seen === undefined) return;
      findingsOf.set(run, seen + findings.length);
      const at = Date.now();
      for (const finding of findings) publish({ kind: 'finding', runId: run.name, at, finding });
    },
    onRunEnd(run, summary) {
      if (findingsOf.get(run) === undefined) return;
      findingsOf.clear(run);
      const findings = [...summary.judged.values()].reduce((n, f) => n + f.length, 0) + summary.droppedFindings;
      publish({ kind: 'run-end', runId: run.name, at: Date.now(), ending: endings[summary.ending], ...(summary.status !== undefined ? { status: summary.status } : {}), frames: summary.frames, findings, verdict: summary.failed ? 'failed' : 'passed' });
    },
    async close() {
      await Promise.all(sinks.map((s) => s.close()));
    },
  };
}
