/** Mutant: message_start, message_delta, llm_call_completed, ping and stream_end carry the last started block's index. */
import { withIndex, wrapReference } from './wrap.ts';

const indexFree = new Set(['message_start', 'message_delta', 'llm_call_completed', 'ping', 'stream_end']);

export const createBlockNormalizer = wrapReference((event, state) => {
  if (!indexFree.has(event.event_type)) return [event];
  return [withIndex(event, Math.max(0, state.started - 1))];
});
