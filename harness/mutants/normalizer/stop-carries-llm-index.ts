/** Mutant: content_block_stop passes the LLM's own index through instead of its block's index. */
import { withIndex, wrapReference } from './wrap.ts';

export const createBlockNormalizer = wrapReference((event, state) => {
  if (event.event_type !== 'content_block_stop' || typeof state.input?.index !== 'number') return [event];
  return [withIndex(event, state.input.index)];
});
