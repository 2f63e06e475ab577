/**
 * What the live page (tap/live-ui.ts) remembers, so a page that connects late sees the last runs
 * first: at most `maxRuns` runs (the oldest evicted), each with at most `maxFramesPerRun` frames
 * and `maxFindingsPerRun` findings. Past a bound things are counted, never kept, so memory stays
 * below roughly maxRuns × (maxFramesPerRun × 4 KiB + maxFindingsPerRun × 6 KiB) whatever the tap
 * sees. Pure: the server decides who hears what.
 */
import type { Finding } from '../harness/model.ts';
import { capFrameData, type LiveEvent } from './live-events.ts';
import { capText, jsonText } from './live-sink-support.ts';

/** What the page is sent: a LiveEvent (the SSE default event), or a note about one run. */
export type PageMessage =
  | { type: 'live'; event: LiveEvent }
  /** Frames and findings of the run this page does not show (counts so far). */
  | { type: 'omitted'; runId: string; frames: number; findings: number }
  /** The run left the store (maxRuns newer runs came): the page drops it too, so it stays bounded. */
  | { type: 'evict'; runId: string };

export type RunStoreLimits = { maxRuns: number; maxFramesPerRun: number; maxFindingsPerRun: number };

export type RunStore = {
  /** Remember one event; returns what live pages are to be sent (nothing for an event of an unknown run). */
  accept(event: LiveEvent): PageMessage[];
  /** Everything remembered, oldest run first, each run in its own order: what a new page is sent. */
  replay(): PageMessage[];
  stats(): { runs: number; ignoredEvents: number; omittedFrames: number; omittedFindings: number; evictedRuns: number };
};

type StartEvent = Extract<LiveEvent, { kind: 'run-start' }>;
type FrameEvent = Extract<LiveEvent, { kind: 'frame' }>;
type FindingEvent = Extract<LiveEvent, { kind: 'finding' }>;
type EndEvent = Extract<LiveEvent, { kind: 'run-end' }>;
type StoredRun = { start: StartEvent; items: Array<FrameEvent | FindingEvent>; frames: number; findings: number; omittedFrames: number; omittedFindings: number; end?: EndEvent };

const maxIdChars = 200;
const maxFieldChars = 1024;
const maxMessageChars = 2048;

/** A finding as small as the page needs: text fields capped, expected/actual kept when their JSON is short, else that JSON cut. */
function pageFinding(f: Finding): Finding {
  const value = (v: unknown) => {
    const text = jsonText(v, maxFieldChars);
    return text.length > maxFieldChars ? text : v;
  };
  const out: Finding = { requirement: capText(f.requirement, maxIdChars), code: capText(f.code, maxIdChars), path: capText(f.path, maxFieldChars), message: capText(f.message, maxMessageChars) };
  if (f.expected !== undefined) out.expected = value(f.expected);
  if (f.actual !== undefined) out.actual = value(f.actual);
  return out;
}

export function createRunStore(limits: RunStoreLimits): RunStore {
  const runs = new Map<string, StoredRun>();
  const totals = { ignoredEvents: 0, omittedFrames: 0, omittedFindings: 0, evictedRuns: 0 };

  /** Keep what fits of these findings, counting the rest against the run. */
  function keepFindings(run: StoredRun, findings: readonly Finding[]): Finding[] {
    const room = Math.max(0, limits.maxFindingsPerRun - run.findings);
    const kept = findings.slice(0, room).map(pageFinding);
    run.findings += kept.length;
    const left = findings.length - kept.length;
    run.omittedFindings += left;
    totals.omittedFindings += left;
    return kept;
  }

  const omitted = (runId: string, run: StoredRun): PageMessage => ({ type: 'omitted', runId, frames: run.omittedFrames, findings: run.omittedFindings });

  function accept(event: LiveEvent): PageMessage[] {
    // Ids are capped like any text from the wire; the capped id is the key, so every message agrees on it.
    const runId = capText(event.runId, maxIdChars);
    if (event.kind === 'run-start') {
      const out: PageMessage[] = [];
      const start: StartEvent = { ...event, runId, method: capText(event.method, maxIdChars), path: capText(event.path, maxFieldChars), tap: capText(event.tap, maxIdChars), ...(event.dialect === undefined ? {} : { dialect: capText(event.dialect, maxIdChars) }) };
      if (runs.has(runId)) { totals.ignoredEvents += 1; return out; }
      while (runs.size >= limits.maxRuns) {
        const oldest = runs.keys().next().value;
        if (oldest === undefined) break;
        runs.delete(oldest);
        totals.evictedRuns += 1;
        out.push({ type: 'evict', runId: oldest });
      }
      runs.set(runId, { start, items: [], frames: 0, findings: 0, omittedFrames: 0, omittedFindings: 0 });
      out.push({ type: 'live', event: start });
      return out;
    }
    const run = runs.get(runId);
    if (!run || run.end) { totals.ignoredEvents += 1; return []; }
    const before = run.omittedFrames + run.omittedFindings;
    const notice = (messages: PageMessage[]) => (before === 0 && run.omittedFrames + run.omittedFindings > 0 ? [...messages, omitted(runId, run)] : messages);

    if (event.kind === 'frame') {
      const findings = keepFindings(run, event.findings);
      let data: string;
      if (run.frames < limits.maxFramesPerRun) {
        data = capFrameData(event.data);
      } else {
        run.omittedFrames += 1;
        totals.omittedFrames += 1;
        // A frame past the bound is shown only for its findings, which must stay in place.
        if (findings.length === 0) return notice([]);
        data = `[frame not kept: this page keeps the first ${limits.maxFramesPerRun} frames of a run]`;
      }
      run.frames += 1;
      const frame: FrameEvent = { kind: 'frame', runId, index: event.index, at: event.at, bytes: event.bytes, data, findings, ...(event.event === undefined ? {} : { event: capText(event.event, maxIdChars) }) };
      run.items.push(frame);
      return notice([{ type: 'live', event: frame }]);
    }
    if (event.kind === 'finding') {
      const [finding] = keepFindings(run, [event.finding]);
      if (!finding) return notice([]);
      const item: FindingEvent = { kind: 'finding', runId, at: event.at, finding };
      run.items.push(item);
      return notice([{ type: 'live', event: item }]);
    }
    run.end = { ...event, runId };
    const final: PageMessage[] = run.omittedFrames + run.omittedFindings > 0 ? [omitted(runId, run)] : [];
    return [...final, { type: 'live', event: run.end }];
  }

  function replay(): PageMessage[] {
    const out: PageMessage[] = [];
    for (const [runId, run] of runs) {
      out.push({ type: 'live', event: run.start });
      for (const item of run.items) out.push({ type: 'live', event: item });
      if (run.omittedFrames + run.omittedFindings > 0) out.push(omitted(runId, run));
      if (run.end) out.push({ type: 'live', event: run.end });
    }
    return out;
  }

  return { accept, replay, stats: () => ({ runs: runs.size, ...totals }) };
}
