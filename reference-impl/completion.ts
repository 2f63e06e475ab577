/**
 * When is a `/run_sse` run over? The real server sends no completion marker: EOF is the only
 * reliable signal (adk-wire-format §5 "Completion", adk-python-facts §3.2). This engine decides for
 * the cases where EOF does not come: a terminal frame, a `[DONE]` sentinel, and a connection held
 * open after the answer (adk-python-facts §4 item 3, G#4216). It owns no timers: each decision
 * says how long to wait for the next frame, and the owner calls `timeout()` when that wait passed.
 * docs/completion.md has the rule table, one test per row in completion.test.ts.
 */
import { authorOf, finishReasonOf, isAnswerEvent, isMetadataOnly } from './transformer/adk-event.ts';
import type { ClientFrame, EndReason } from './transformer/frames.ts';
import type { AdkEvent } from './transformer/types.ts';

export type CompletionConfig = {
  /** Seed 001 "Fallback: No events for 10 seconds after last event → close stream". */
  idleMs?: number;
  /** How long a held-open connection may stay silent after the root agent's final answer. */
  graceMs?: number;
  /** Silence allowed while a function call has no response yet (a tool or AgentTool runs; seed 004's 300 s). */
  callIdleMs?: number;
};

export type CompletionDecision =
  /**
   * `answered`: the frame is some agent's final answer with every call settled (a sub-agent's
   * included, which waits the idle window): a stream that ends right after it is a whole run.
   */
  | { done: false; waitMs: number; candidate: boolean; answered?: boolean }
  | { done: true; reason: EndReason };

export type CompletionDetector = {
  /** The response headers arrived: how long to wait for the first frame. */
  start: () => CompletionDecision;
  /** The next frame arrived. */
  feed: (frame: ClientFrame) => CompletionDecision;
  /** The wait of the last decision passed with no frame. */
  timeout: () => CompletionDecision;
  /** The body ended. */
  end: () => CompletionDecision;
  reset: () => void;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** longRunningIdsOf(event).includes(id), without the array. */
const longRunning = (event: AdkEvent, id: string): boolean => Array.isArray(event.longRunningToolIds) && event.longRunningToolIds.includes(id);

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`createCompletionDetector: ${name} must be a positive number of milliseconds, got ${String(value)}`);
  return value;
}

export function createCompletionDetector(config: CompletionConfig = {}): CompletionDetector {
  const idleMs = positive('idleMs', config.idleMs ?? 10_000);
  const graceMs = positive('graceMs', config.graceMs ?? Math.min(2_000, idleMs));
  const callIdleMs = positive('callIdleMs', config.callIdleMs ?? Math.max(300_000, idleMs));

  let rootAuthor: string | undefined;
  let candidate: { eventId: unknown } | undefined;
  const pendingCalls = new Set<string>();
  let anonymousCalls = 0;

  const waiting = (): Extract<CompletionDecision, { done: false }> => ({
    done: false,
    candidate: candidate !== undefined,
    waitMs: candidate ? graceMs : pendingCalls.size + anonymousCalls > 0 ? callIdleMs : idleMs,
  });

  function feed(frame: ClientFrame): CompletionDecision {
    switch (frame.kind) {
      // adk-python-facts §1.3 step 9: "The error frame is the last frame, then EOF"; seed 004's
      // TIMEOUT, status and STREAM_ERROR frames end the gateway's stream the same way.
      case 'error': return { done: true, reason: 'error-frame' };
      // Seed 000 §2.2B: the enhanced stream ends with `data: [DONE]`.
      case 'done': return { done: true, reason: 'done-sentinel' };
      case 'end': return { done: true, reason: frame.reason };
      // An invalid payload or a framing issue is activity, not an answer: keep waiting.
      case 'invalid':
      case 'issue':
        return waiting();
      case 'event': break;
    }
    const event = frame.event;
    // Python splits an event with content and an artifactDelta into two frames with the same id
    // (adk-python-facts §1.3 step 7): the actions-only half does not reopen the run.
    if (candidate && isMetadataOnly(event) && event.id !== undefined && event.id === candidate.eventId) return waiting();
    // Anything after a final answer means the run went on: adk-js re-invokes the coordinator after
    // a transfer, and a multi-agent run has one final response per agent (adk-python-facts §4 item 15).
    candidate = undefined;
    const author = authorOf(event);
    rootAuthor ??= author;
    trackCalls(event);
    // Seed 001 Option A, corrected: finishReason STOP on an answer event, which excludes partial
    // chunks (the last adk-js chunk already says STOP), function-call events (they say STOP too),
    // metadata-only events and long-running calls (adk-wire-format §5).
    if (isAnswerEvent(event) && finishReasonOf(event) === 'STOP' && pendingCalls.size + anonymousCalls === 0) {
      // Only the root agent's answer gets the short grace: a sub-agent's final answer is routinely
      // followed by the coordinator's re-invocation (adk-wire-format §5e), so it waits the idle window.
      if (author === rootAuthor) candidate = { eventId: event.id };
      else return { done: false, candidate: false, waitMs: idleMs, answered: true };
      return { ...waiting(), answered: true };
    }
    return waiting();
  }

  function trackCalls(event: AdkEvent): void {
    if (event.partial === true) return; // Python's partial call previews never run (adk-python-facts §3.2)
    // The parts are read in place (callsOf and responsesOf in order, without their arrays): this
    // runs on every event a tap judges.
    const parts = event.content?.parts;
    if (!Array.isArray(parts)) return;
    for (const part of parts) {
      const call = isRecord(part) ? part.functionCall : undefined;
      if (!isRecord(call)) continue;
      const id = typeof call.id === 'string' ? call.id : undefined;
      // A long-running call is answered by a later request, not in this stream (adk-python-facts §1.6).
      if (id !== undefined && longRunning(event, id)) continue;
      if (id === undefined) anonymousCalls++;
      else pendingCalls.add(id);
    }
    for (const part of parts) {
      const response = isRecord(part) ? part.functionResponse : undefined;
      if (!isRecord(response)) continue;
      const id = typeof response.id === 'string' ? response.id : undefined;
      if (id !== undefined && pendingCalls.delete(id)) continue;
      if (anonymousCalls > 0) anonymousCalls--;
    }
  }

  function timeout(): CompletionDecision {
    // The wait of a candidate is the grace window: seed 001's rule, confirmed by silence.
    if (candidate) return { done: true, reason: 'final-rule' };
    // Seed 001's idle fallback (or the longer window while calls are outstanding).
    return { done: true, reason: 'idle' };
  }

  // EOF is the standard end of a run (G#2920: "connection closure is the standard way").
  const end = (): CompletionDecision => ({ done: true, reason: 'eof' });

  function reset(): void {
    rootAuthor = undefined;
    candidate = undefined;
    pendingCalls.clear();
    anonymousCalls = 0;
  }

  return { start: waiting, feed, timeout, end, reset };
}
