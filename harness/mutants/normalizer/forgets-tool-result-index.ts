/** Mutant: tool_result and tool_execution_error forget the tool_use_id map and carry the last started block's index. */
import { withIndex, wrapReference } from './wrap.ts';

export const createBlockNormalizer = wrapReference((event, state) => {
  if (event.event_type !== 'tool_result' && event.event_type !== 'tool_execution_error') return [event];
  return [withIndex(event, Math.max(0, state.started - 1))];
});
