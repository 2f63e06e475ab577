/**
 * Which of a front run's ADK findings the ADK server caused. A gateway must pass the upstream's
 * events through unchanged (GW-PASS-001), so a non-conformant ADK server makes the front tap see
 * the same fault as the back tap; blaming the gateway for it would fail a gateway that did its job.
 * Such a finding stays on the back run (the ADK server's) and leaves the front run (the gateway's):
 *
 * - the back run has a finding of the same requirement, code and path (the frame index or byte
 *   offset is the same on both sides only when the gateway passed the bytes before it unchanged;
 *   a gateway that added or dropped anything keeps the finding, which is then its own);
 * - the upstream broke mid-event (the back run ended `upstream-cut`): seed 004 asks the gateway to
 *   close the broken event, which the client then reads as an event that is not JSON. That
 *   ADK-EVT-001 `not-an-event` at the frame after the back's last whole frame is the cut's, not
 *   the gateway's; how the gateway closed it is judged by GW-ERR-002..004;
 * - a `[DONE]` the front tap blames on the gateway (GW-PASS-004 `event-added`, judged from the
 *   client's bytes alone) moves when the back tap saw the ADK server send it at the same frame
 *   (ADK-SSE-002 `done-sentinel`).
 *
 * Nothing else moves: other GW-* findings are the gateway's own, CLI-REQ-* the client's.
 */
import type { Finding } from '../harness/model.ts';
import { frameAt } from './judge-adk.ts';
import type { TapRunSummary } from './types.ts';

const key = (f: Finding) => `${f.requirement}\u0000${f.code}\u0000${f.path}`;

/** The findings of `front` (a front run's judged map) that the back run's ADK server caused. */
export function upstreamCaused(front: ReadonlyMap<string, readonly Finding[]>, back: TapRunSummary | undefined): Set<Finding> {
  const moved = new Set<Finding>();
  if (back === undefined) return moved;
  const seenUpstream = new Set<string>();
  for (const list of back.judged.values()) for (const f of list) seenUpstream.add(key(f));
  const closedCut = back.ending === 'upstream-cut' ? frameAt(back.frames) : undefined;
  for (const [id, list] of front) {
    if (id === 'GW-PASS-004') {
      for (const f of list) if (f.code === 'event-added' && seenUpstream.has(`ADK-SSE-002\u0000done-sentinel\u0000${f.path}`)) moved.add(f);
      continue;
    }
    if (!id.startsWith('ADK-')) continue;
    for (const f of list) {
      if (seenUpstream.has(key(f)) || (closedCut !== undefined && id === 'ADK-EVT-001' && f.code === 'not-an-event' && f.path === closedCut)) moved.add(f);
    }
  }
  return moved;
}
