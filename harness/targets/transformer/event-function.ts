/**
 * A transformer written as a function of one event (issue 31 §3), the shape most app code has:
 *
 *   export function transformEvent(event, context) { return briefing | briefing[] | null; }
 *   export function endOfStream(context) { return briefing | briefing[] | null; }   // optional
 *
 * A per-event function cannot know when a run is over: in the app, the client around it decides
 * (EOF, an error frame, `[DONE]`, or the final-answer and idle rules of a held-open connection).
 * Here the kit plays that client with the same completion engine its reference uses
 * (reference-impl/completion.ts, docs/completion.md), so a faithful wrapper needs none of the app's
 * client logic: the function sees each ADK event (and error frame) as an object, and `endOfStream`
 * is called exactly once, with the reason, when the run is over. Everything the function returns is
 * judged as the transformer's output, exactly as a stream transformer's would be.
 */
import { createCompletionDetector, type CompletionDecision } from '../../../reference-impl/completion.ts';
import { classifyData } from '../../../reference-impl/transformer/frames.ts';
import type { ModuleFactory } from './drive.ts';
import { exportOf } from '../load-module.ts';

export type EventContext = {
  /** The run's session id (the correlation a briefing carries, seed 002 §4.2), when the harness gives one. */
  sessionId?: string;
  /** The stream is seed 000's `/run_sse_enhanced` (events carry `_audit_metadata`; it ends with `[DONE]`). */
  enhanced: boolean;
  /** 0 for the run's first event, then 1, 2, ... */
  index: number;
  /** One object per run, kept from event to event, for what the function remembers within a run. */
  run: Record<string, unknown>;
};

export type EndContext = EventContext & {
  /** Why the run ended: `eof`, `error-frame`, `done-sentinel`, `final-answer`, `idle`, ... (docs/completion.md). */
  reason: string;
};

type Output = unknown;
export type EventFunction = (event: Record<string, unknown>, context: EventContext) => Output;
export type EndFunction = (context: EndContext) => Output;

/** The module shape this adapter takes, or undefined when the module has neither export. */
export function eventFunctionsOf(loaded: Record<string, unknown>): { transformEvent: EventFunction; endOfStream?: EndFunction } | undefined {
  const transformEvent = exportOf(loaded, 'transformEvent');
  if (typeof transformEvent !== 'function') return undefined;
  const endOfStream = exportOf(loaded, 'endOfStream');
  return { transformEvent: transformEvent as EventFunction, ...(typeof endOfStream === 'function' ? { endOfStream: endOfStream as EndFunction } : {}) };
}

/** A briefing, a list of them, or nothing: each briefing reaches `onEvent` in order. */
function emitAll(output: Output, onEvent: (event: unknown) => void): void {
  if (output === null || output === undefined) return;
  if (Array.isArray(output)) { for (const item of output) if (item !== null && item !== undefined) onEvent(item); return; }
  onEvent(output);
}

/** The module contract's factory over a per-event function: what the harness certifies. */
export function fromEventFunction(transformEvent: EventFunction, endOfStream?: EndFunction): ModuleFactory {
  return (options) => {
    const detector = createCompletionDetector({ idleMs: options.idleMs });
    const context: EventContext = { ...(options.sessionId ? { sessionId: options.sessionId } : {}), enhanced: options.enhanced === true, index: 0, run: {} };
    let timer: NodeJS.Timeout | undefined;
    let ended = false;

    const finish = (reason: string): void => {
      clearTimeout(timer);
      if (ended) return;
      ended = true;
      if (endOfStream) emitAll(endOfStream({ ...context, reason }), options.onEvent);
    };
    const decide = (decision: CompletionDecision): void => {
      clearTimeout(timer);
      if (ended) return;
      if (decision.done) { finish(decision.reason); return; }
      timer = setTimeout(() => decide(detector.timeout()), decision.waitMs);
      timer.unref();
    };
    decide(detector.start());

    return {
      push(line: string) {
        if (ended || line === '') return;
        const frame = classifyData(line);
        // What the app's function is given: ADK events and error frames, as objects. A `[DONE]`
        // marker or a line that is not JSON is the client's business, not the function's.
        if (frame.kind === 'event' || frame.kind === 'error') {
          const payload = (frame.kind === 'event' ? frame.event : frame.error) as Record<string, unknown>;
          emitAll(transformEvent(payload, context), options.onEvent);
          context.index += 1;
        }
        decide(detector.feed(frame));
      },
      end() { finish('eof'); },
      dispose() { clearTimeout(timer); },
    };
  };
}
