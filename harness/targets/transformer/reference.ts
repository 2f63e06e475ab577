/**
 * The reference transformer under the module contract (docs/harness.md "Module contract"): the
 * engine of reference-impl/transformer fed one data-field text per `push`, with the completion
 * detector of reference-impl/completion.ts owning the idle timer, so a held-open connection ends
 * by the final-answer rule or the idle fallback (docs/completion.md) without waiting for `end()`.
 * This is the module `adk-conformance run` certifies when no target flag is given.
 */
import { createCompletionDetector, type CompletionDecision } from '../../../reference-impl/completion.ts';
import { classifyData, createTransformer as createEngine, type BriefingEvent } from '../../../reference-impl/transformer/index.ts';

export type ModuleTransformerOptions = {
  /** Called with every AgentBriefingEvent, in order. */
  onEvent: (event: BriefingEvent) => void;
  /** Silence after which the run is declared over (seed 001 "Fallback"). */
  idleMs: number;
  /** The run's session id: the correlation_id. */
  sessionId?: string;
  /** The stream is /run_sse_enhanced's (it ends with `[DONE]`). */
  enhanced?: boolean;
};

export type ModuleTransformer = { push: (line: string) => void; end: () => void; dispose: () => void };

export function createTransformer(options: ModuleTransformerOptions): ModuleTransformer {
  if (typeof options?.onEvent !== 'function') throw new TypeError('createTransformer: options.onEvent must be a function receiving each AgentBriefingEvent');
  if (!Number.isFinite(options.idleMs) || options.idleMs <= 0) throw new TypeError(`createTransformer: options.idleMs must be a positive number of milliseconds, got ${String(options.idleMs)}`);
  const engine = createEngine({
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    ...(options.enhanced ? { enhanced: true } : {}),
    onEvent: options.onEvent,
  });
  const detector = createCompletionDetector({ idleMs: options.idleMs });
  let timer: NodeJS.Timeout | undefined;
  let lines = 0;

  const decide = (decision: CompletionDecision): void => {
    clearTimeout(timer);
    if (engine.done()) return;
    if (decision.done) { engine.end({ reason: decision.reason }); return; }
    timer = setTimeout(() => decide(detector.timeout()), decision.waitMs);
    // A forgotten instance must not keep its process alive (the call-idle wait is 300 s).
    timer.unref();
  };
  decide(detector.start());

  return {
    push(line) {
      lines++;
      if (engine.done() || line === '') return;
      const frame = classifyData(line);
      engine.pushFrame(frame, `line ${lines}`);
      decide(detector.feed(frame));
    },
    end() {
      clearTimeout(timer);
      engine.end({ reason: 'eof' });
    },
    dispose() {
      clearTimeout(timer);
    },
  };
}
