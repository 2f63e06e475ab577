/**
 * The counters behind `GET /_mock/streams`: how many scenario replays are still open, and totals,
 * so a harness can check that a gateway aborted its upstream when its own client left.
 * A "stream" is every scenario replay on a run route (/run_sse, /run_sse_enhanced, /v1/messages),
 * whatever its status; the mock's own dialect answers (session 404, bad JSON) are not streams.
 */
import type { ReplayOutcome } from '../replay.ts';

export type StreamCounts = { open: number; opened: number; closedByClient: number; completed: number };

export type StreamStats = {
  opened: () => void;
  /** `by` distinguishes a client leaving from the mock closing (which counts in neither total). */
  closed: (outcome: ReplayOutcome, by: 'client' | 'app' | 'plan') => void;
  snapshot: () => StreamCounts;
};

export function createStreamStats(): StreamStats {
  const counts: StreamCounts = { open: 0, opened: 0, closedByClient: 0, completed: 0 };
  return {
    opened() { counts.open += 1; counts.opened += 1; },
    closed(outcome, by) {
      counts.open = Math.max(0, counts.open - 1);
      if (outcome === 'aborted') { if (by === 'client') counts.closedByClient += 1; }
      else counts.completed += 1;
    },
    snapshot() { return { ...counts }; },
  };
}
