/**
 * The kit's module contract (docs/harness.md "Module mode") around adkEventTransformer.ts, with
 * no logic of its own beyond what the app's SSE hook does: each data field is JSON-parsed and
 * transformed (a field that is not JSON is skipped, as the hook's try/catch does), and the seed 001
 * fallback closes the run after 10 s without events, or when the stream ends.
 */
import { AdkEventTransformer, type ADKEvent } from './adkEventTransformer.ts';

const IDLE_FALLBACK_MS = 10_000; // seed 001: "No events for 10 seconds after last event"

export function createTransformer(options: { onEvent: (event: object) => void; idleMs: number; sessionId?: string }) {
  const transformer = new AdkEventTransformer(options.sessionId);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const close = () => {
    if (!transformer.done) options.onEvent(transformer.handleCompletion());
  };
  return {
    push(line: string): void {
      clearTimeout(timer);
      let event: ADKEvent;
      try {
        event = JSON.parse(line) as ADKEvent;
      } catch {
        return;
      }
      for (const briefing of transformer.transform(event)) options.onEvent(briefing);
      timer = setTimeout(close, IDLE_FALLBACK_MS);
    },
    end(): void {
      clearTimeout(timer);
      close();
    },
    dispose(): void {
      clearTimeout(timer);
    },
  };
}
