/**
 * The counters behind `GET /_mock/streams`: how many scenario replays are still open, and totals,
 * so a harness can check that a gateway aborted its upstream when its own client left (or when its
 * own timeout fired). A "stream" is every scenario replay on a run route (/run_sse,
 * /run_sse_enhanced, /v1/messages), whatever its status; the mock's own dialect answers (session
 * 404, bad JSON) are not streams.
 *
 * `?sessionId=` gives the same counters for the streams of one session only, so a harness running
 * many streams at once can tell which one was closed by its client. The newest sessions are kept
 * (a bounded map), so a long run cannot grow memory without limit.
 */
import type { ReplayOutcome } from '../replay.ts';

export type StreamCounts = { open: number; opened: number; closedByClient: number; completed: number };

export type StreamStats = {
  opened: (sessionId?: string) => void;
  /** `by` distinguishes a client leaving from the mock closing (which counts in neither total). */
  closed: (outcome: ReplayOutcome, by: 'client' | 'app' | 'plan', sessionId?: string) => void;
  /** Every stream, or the streams of one session (all zero for a session the mock never streamed). */
  snapshot: (sessionId?: string) => StreamCounts;
};

/** Sessions whose counters are kept, newest first out last. */
export const maxTrackedSessions = 10_000;

const zero = (): StreamCounts => ({ open: 0, opened: 0, closedByClient: 0, completed: 0 });

function count(counts: StreamCounts, outcome: ReplayOutcome, by: 'client' | 'app' | 'plan'): void {
  counts.open = Math.max(0, counts.open - 1);
  if (outcome === 'aborted') { if (by === 'client') counts.closedByClient += 1; }
  else counts.completed += 1;
}

export function createStreamStats(): StreamStats {
  const counts = zero();
  const bySession = new Map<string, StreamCounts>();
  return {
    opened(sessionId) {
      counts.open += 1;
      counts.opened += 1;
      if (sessionId === undefined) return;
      const mine = bySession.get(sessionId) ?? zero();
      // Re-inserted, so the map's order is "least recently opened first".
      bySession.delete(sessionId);
      bySession.set(sessionId, mine);
      mine.open += 1;
      mine.opened += 1;
      if (bySession.size > maxTrackedSessions) bySession.delete(bySession.keys().next().value as string);
    },
    closed(outcome, by, sessionId) {
      count(counts, outcome, by);
      const mine = sessionId === undefined ? undefined : bySession.get(sessionId);
      if (mine) count(mine, outcome, by);
    },
    snapshot(sessionId) {
      if (sessionId === undefined) return { ...counts };
      return { ...(bySession.get(sessionId) ?? zero()) };
    },
  };
}
