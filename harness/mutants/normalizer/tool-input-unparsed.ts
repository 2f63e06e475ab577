/** Mutant: tool_use_input_complete carries the joined input_json_delta fragments as a string, not the JSON they form. */
import { wrapReference } from './wrap.ts';

export const createBlockNormalizer = wrapReference((() => {
  const fragments = new Map<unknown, string>();
  return (event) => {
    if (event.event_type === 'tool_use_start') fragments.set(event.data.index, '');
    if (event.event_type === 'tool_use_input_delta') fragments.set(event.data.index, (fragments.get(event.data.index) ?? '') + String(event.data.partial_json));
    if (event.event_type !== 'tool_use_input_complete') return [event];
    const joined = fragments.get(event.data.index);
    return [joined ? { event_type: event.event_type, data: { ...event.data, input: joined } } : event];
  };
})());
