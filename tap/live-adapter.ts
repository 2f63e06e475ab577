/**
 * The bridge from the tap core's observer callbacks to the live sinks (`--otlp`, `--ui`): each run,
 * frame, run-level finding and run end becomes one LiveEvent (tap/live-events.ts). It keeps only
 * the frame and finding counts of open runs; the sinks bound what they keep themselves.
 */
import { Buffer } from 'node:buffer';
import { capFrameData, type LiveEvent, type LiveSink } from './live-events.ts';
import type { RunEnding, TapObserver, TapRun } from './types.ts';
import type { Finding } from '../harness/model.ts';
import { curlReplay } from './replay-curl.ts';
import { createRunState } from './run-state.ts';

const endings: Record<RunEnding, Extract<LiveEvent, { kind: 'run-end' }>['ending']> = {
  eof: 'complete',
  'client-closed': 'client-disconnected',
  'upstream-cut': 'upstream-disconnected',
  'upstream-failed': 'error',
  stopped: 'error',
};

/** The request body kept per run for its replay line; a longer one is replayed cut, and says so. */
const maxReplayBody = 16 * 1024;

type Seen = { findings: number; first?: Finding; body: Buffer[]; bodyBytes: number; cut: boolean };

/**
 * `tap` names this tap in every event (`front`, `back`), so the taps of a pair can share a sink.
 * Only runs (POST /run_sse, /run_sse_enhanced) are published; other requests are forwarded only.
 * `tapUrl` (once the tap listens) gives a failing run's end its curl replay line (tap/replay-curl.ts).
 */
export function createLiveObserver(sinks: readonly LiveSink[], tap: string, tapUrl: () => string | undefined = () => undefined): TapObserver {
  // Per run on the run itself, not in a Map every run churns (tap/run-state.ts).
  const seenOf = createRunState<Seen>('live findings');
  const findingsOf = {
    get: (run: TapRun) => seenOf.get(run)?.findings,
    set: (run: TapRun, n: number, first?: Finding) => { const s = seenOf.get(run); if (s) { s.findings = n; if (first && !s.first) s.first = first; } },
  };
  const publish = (event: LiveEvent) => { for (const sink of sinks) sink.publish(event); };
  return {
    onRunStart(run) {
      if (run.kind !== 'run') return;
      seenOf.set(run, { findings: 0, body: [], bodyBytes: 0, cut: false });
      publish({ kind: 'run-start', runId: run.name, at: Date.parse(run.startedAt), method: run.method, path: run.url, tap, ...(run.dialect !== 'unknown' ? { dialect: run.dialect } : {}) });
    },
    onRequestBody(run, body, truncated) {
      const s = seenOf.get(run);
      if (!s || s.bodyBytes >= maxReplayBody) { if (s) s.cut = true; return; }
      s.body.push(Buffer.from(body.subarray(0, maxReplayBody - s.bodyBytes)));
      s.bodyBytes += Math.min(body.length, maxReplayBody - s.bodyBytes);
      if (truncated || body.length > maxReplayBody) s.cut = true;
    },
    onFrame(run, frame, findings) {
      const seen = findingsOf.get(run);
      if (seen === undefined) return;
      findingsOf.set(run, seen + findings.length, findings[0]);
      publish({ kind: 'frame', runId: run.name, index: frame.index, at: Date.now(), bytes: Buffer.byteLength(frame.data), data: capFrameData(frame.data), ...(frame.event !== undefined ? { event: frame.event } : {}), findings: [...findings] });
    },
    onFindings(run, findings) {
      const seen = findingsOf.get(run);
      if (seen === undefined) return;
      findingsOf.set(run, seen + findings.length, findings[0]);
      const at = Date.now();
      for (const finding of findings) publish({ kind: 'finding', runId: run.name, at, finding });
    },
    onRunEnd(run, summary) {
      const seen = seenOf.get(run);
      if (seen === undefined) return;
      seenOf.clear(run);
      const findings = [...summary.judged.values()].reduce((n, f) => n + f.length, 0) + summary.droppedFindings;
      // A failing run's end carries what to read first and how to send it again (the page shows them above its frames).
      const first = summary.failed ? seen.first ?? [...summary.judged.values()].find((f) => f.length > 0)?.[0] : undefined;
      const url = tapUrl();
      const replay = summary.failed && url !== undefined ? `${curlReplay(url, { method: run.method, url: run.url, headers: run.requestHeaders }, Buffer.concat(seen.body).toString('utf8'))}${seen.cut ? '   # the body was cut at 16 KB' : ''}` : undefined;
      publish({ kind: 'run-end', runId: run.name, at: Date.now(), ending: endings[summary.ending], ...(summary.status !== undefined ? { status: summary.status } : {}), frames: summary.frames, findings, verdict: summary.failed ? 'failed' : 'passed', ...(first ? { firstFinding: first } : {}), ...(replay ? { replay } : {}) });
    },
    async close() {
      await Promise.all(sinks.map((s) => s.close()));
    },
  };
}
