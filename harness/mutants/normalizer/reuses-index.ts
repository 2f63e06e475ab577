/** Mutant: indices restart at 0 in every LLM message (the per-message allocation seed 003 §2 describes), consistently. */
import { wrapReference, withIndex } from './wrap.ts';

export const createBlockNormalizer = wrapReference((event, state) => {
  const index = event.data.index;
  if (event.event_type === 'error' || typeof index !== 'number') return [event];
  return [withIndex(event, index - state.startedBeforeMessage)];
});
