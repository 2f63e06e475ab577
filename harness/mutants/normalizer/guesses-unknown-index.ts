/** Mutant: a delta for an unknown index goes to the last started block (seed 003 §3.1's "frontend_sse_index_allocator - 1" fallback). */
import { refusedDelta, wrapReference } from './wrap.ts';

export const createBlockNormalizer = wrapReference((event, state) => {
  const reason = event.data.reason;
  if (event.event_type !== 'error' || (reason !== 'unknown_block_index' && reason !== 'block_already_stopped') || state.started === 0) return [event];
  const guessed = refusedDelta(event, state.started - 1);
  return guessed ? [guessed] : [];
});
