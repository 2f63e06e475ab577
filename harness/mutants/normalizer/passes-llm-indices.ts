/**
 * Mutant: the pre-seed-003 pass-through. Every block event keeps the LLM's own index (tool records
 * the index their tool_use started at), and a delta for an unknown index is passed on as it came.
 */
import { refusedDelta, withIndex, wrapReference } from './wrap.ts';

export const createBlockNormalizer = wrapReference((event, state) => {
  const type = event.event_type;
  if (type === 'error') {
    const llm = event.data.llm_index;
    const passed = typeof llm === 'number' ? refusedDelta(event, llm) : undefined;
    return passed ? [passed] : [event];
  }
  if (type === 'tool_result' || type === 'tool_execution_error') {
    const llm = state.toolLlmIndex.get(String(event.data.tool_use_id));
    return [llm === undefined ? event : withIndex(event, llm)];
  }
  if (typeof event.data.index === 'number' && typeof state.input?.index === 'number') return [withIndex(event, state.input.index)];
  return [event];
});
