/**
 * Block-index normaliser (seed 003): the events of one agent turn (several Anthropic Messages
 * streams whose block `index` restarts at 0 in each message, plus tool execution records between
 * them) in, seed 003's frontend vocabulary out, with one unique, sequential index per conceptual
 * block.
 *
 * A pure streaming engine in eventsource-parser style: `feed` one input event at a time, `end`
 * when the turn is over, `reset` to forget everything. Bad input never throws: it becomes an
 * `error` output event naming the reason and carrying the offending input, and the engine goes on.
 *
 * @see ../../shared/seeds/003_61dfee1c80b8328a.txt §3.1 (core logic), §3.2 (example flow)
 */

/** The frontend vocabulary of seed 003 §3.1, plus `error` for input the normaliser refuses. */
export type BlockEventType =
  | 'message_start' | 'text_block_start' | 'text_delta' | 'tool_use_start' | 'tool_use_input_delta'
  | 'content_block_stop' | 'tool_use_input_complete' | 'tool_result' | 'tool_execution_error'
  | 'message_delta' | 'llm_call_completed' | 'ping' | 'stream_end' | 'error';

/** One output event: `{event_type, data}`, as seed 003 §3.1 yields it. Block events carry `data.index`. */
export type BlockStreamEvent = { event_type: BlockEventType; data: Record<string, unknown> };

/** Why the normaliser refused an input event (the `reason` of an `error` output event). */
export type NormalizerErrorReason =
  | 'malformed_event' | 'unknown_event_type' | 'unsupported_block_type' | 'unknown_block_index'
  | 'block_already_stopped' | 'delta_type_mismatch' | 'invalid_tool_input' | 'duplicate_tool_use_id'
  | 'unknown_tool_use_id' | 'duplicate_tool_result' | 'block_not_stopped' | 'upstream_error';

export type BlockNormalizerConfig = { onEvent: (event: BlockStreamEvent) => void };

export type BlockNormalizer = {
  /** Feed the next input event of the turn (an Anthropic stream event or a tool record), parsed JSON. */
  feed: (input: unknown) => void;
  /** The turn is over: report blocks left open, emit `stream_end`, and start afresh. */
  end: () => void;
  /** Forget everything, for a new turn, without emitting anything. */
  reset: () => void;
};

type BlockKind = 'text' | 'thinking' | 'tool_use';
type OpenBlock = { index: number; kind: BlockKind; toolUseId?: string; name?: string; startInput?: unknown; json: string };
type ToolEntry = { index: number; resolved: boolean };

const deltaKind: Record<string, BlockKind> = { text_delta: 'text', thinking_delta: 'thinking', input_json_delta: 'tool_use', signature_delta: 'thinking' };

export function createBlockNormalizer(config: BlockNormalizerConfig): BlockNormalizer {
  if (typeof config !== 'object' || config === null || typeof config.onEvent !== 'function') {
    throw new TypeError(`createBlockNormalizer: config must be an object with an onEvent function, got ${typeof config === 'function' ? 'a function (did you mean createBlockNormalizer({onEvent: fn})?)' : JSON.stringify(config)}`);
  }
  const { onEvent } = config;

  // "frontend_sse_index_allocator = 0 ... incremented for each new conceptual block sent to the frontend."
  let allocator = 0;
  // "Key: LLM's original block index ... unique *per block instance within that message*": so the
  // map lives for one message, and blocks whose stop was seen are remembered to name the reason.
  let open = new Map<number, OpenBlock>();
  let stopped = new Set<number>();
  // Blocks of a type we do not translate get no frontend index; kept only to name the type in errors.
  let unsupported = new Map<number, string>();
  // "since a tool_use_id is unique per call, we also need to map tool_use_id to its assigned frontend_sse_index"
  let tools = new Map<string, ToolEntry>();
  let messageId: string | undefined;
  let stopReason: unknown = null;

  const emit = (event_type: BlockEventType, data: Record<string, unknown>) => onEvent({ event_type, data });
  const refuse = (reason: NormalizerErrorReason, message: string, input: unknown, extra: Record<string, unknown> = {}) =>
    emit('error', input === undefined ? { reason, message, ...extra } : { reason, message, ...extra, input });

  function clearMessage(): void {
    open = new Map();
    stopped = new Set();
    unsupported = new Map();
  }

  function reset(): void {
    allocator = 0;
    clearMessage();
    tools = new Map();
    messageId = undefined;
    stopReason = null;
  }

  /** The open block an indexed delta or stop refers to, or undefined after reporting why there is none. */
  function lookup(llmIndex: number, input: unknown): OpenBlock | undefined {
    const block = open.get(llmIndex);
    if (block) return block;
    // "Else (should ideally not happen if start event was processed): Log a warning. Fallback to
    // frontend_sse_index_allocator - 1 or handle as an error." We handle it as an error: the
    // fallback guesses, and a wrong guess is exactly the content mixing seed 003 §2 set out to end.
    const type = unsupported.get(llmIndex);
    if (type !== undefined) {
      refuse('unknown_block_index', `the block at LLM index ${llmIndex} of this message has the unsupported type '${type}', so it has no frontend index`, input, { llm_index: llmIndex });
    } else if (stopped.has(llmIndex)) {
      refuse('block_already_stopped', `the block at LLM index ${llmIndex} of this message was already stopped; a new content_block_start must come first`, input, { llm_index: llmIndex });
    } else {
      refuse('unknown_block_index', `no content_block_start was seen for LLM index ${llmIndex} in this message`, input, { llm_index: llmIndex });
    }
    return undefined;
  }

  function onBlockStart(input: Record<string, unknown>): void {
    const llmIndex = input.index;
    const block = input.content_block;
    if (!isIndex(llmIndex) || !isObject(block) || typeof block.type !== 'string') {
      return refuse('malformed_event', 'content_block_start needs an integer index >= 0 and a content_block object with a type', input);
    }
    if (block.type !== 'text' && block.type !== 'thinking' && block.type !== 'tool_use') {
      unsupported.set(llmIndex, block.type);
      open.delete(llmIndex);
      return refuse('unsupported_block_type', `content_block.type '${block.type}' is not one of text, thinking, tool_use; the block gets no index`, input, { llm_index: llmIndex });
    }
    if (block.type === 'tool_use' && (typeof block.id !== 'string' || typeof block.name !== 'string')) {
      return refuse('malformed_event', 'a tool_use content_block needs a string id and a string name', input);
    }
    // "On text_block_start or tool_use_start from LLM: These events signify a new conceptual block."
    // "assigned_frontend_idx = frontend_sse_index_allocator ... frontend_sse_index_allocator += 1";
    // a start at an LLM index already in use is "a new block start" too (§3.2 step 6).
    const index = allocator++;
    unsupported.delete(llmIndex);
    stopped.delete(llmIndex);
    if (block.type === 'tool_use') {
      const toolUseId = block.id as string;
      const name = block.name as string;
      open.set(llmIndex, { index, kind: 'tool_use', toolUseId, name, startInput: block.input, json: '' });
      // "If it's a tool_use_start, also map its tool_id"; a second block with the same id keeps the first mapping.
      if (tools.has(toolUseId)) {
        refuse('duplicate_tool_use_id', `tool_use id '${toolUseId}' was already used by the block at index ${tools.get(toolUseId)?.index}; tool results keep going to that block`, input, { index });
      } else {
        tools.set(toolUseId, { index, resolved: false });
      }
      return emit('tool_use_start', { index, tool_id: toolUseId, name });
    }
    open.set(llmIndex, { index, kind: block.type, json: '' });
    const initial = block.type === 'text' ? block.text : block.thinking;
    const data: Record<string, unknown> = { index, block_type: block.type };
    if (typeof initial === 'string' && initial.length > 0) data.text = initial;
    emit('text_block_start', data);
  }

  function onBlockDelta(input: Record<string, unknown>): void {
    const delta = input.delta;
    if (!isIndex(input.index) || !isObject(delta) || typeof delta.type !== 'string') {
      return refuse('malformed_event', 'content_block_delta needs an integer index >= 0 and a delta object with a type', input);
    }
    const expectedKind = deltaKind[delta.type];
    if (expectedKind === undefined) {
      return refuse('malformed_event', `delta.type '${delta.type}' is not one of text_delta, thinking_delta, input_json_delta, signature_delta`, input);
    }
    const block = lookup(input.index, input);
    if (block === undefined) return;
    if (block.kind !== expectedKind) {
      return refuse('delta_type_mismatch', `a ${delta.type} cannot extend the ${block.kind} block at index ${block.index}`, input, { index: block.index });
    }
    // "On text_delta, content_block_stop (for a text block), tool_use_input_delta: ... sse_event_data["index"] = llm_internal_index_to_frontend_sse_index[llm_original_idx]"
    if (delta.type === 'text_delta' || delta.type === 'thinking_delta') {
      const text = delta.type === 'text_delta' ? delta.text : delta.thinking;
      if (typeof text !== 'string') return refuse('malformed_event', `a ${delta.type} needs a string ${delta.type === 'text_delta' ? 'text' : 'thinking'}`, input, { index: block.index });
      return emit('text_delta', { index: block.index, text });
    }
    if (delta.type === 'input_json_delta') {
      if (typeof delta.partial_json !== 'string') return refuse('malformed_event', 'an input_json_delta needs a string partial_json', input, { index: block.index });
      block.json += delta.partial_json;
      return emit('tool_use_input_delta', { index: block.index, partial_json: delta.partial_json });
    }
    // signature_delta: an integrity token for sending thinking back to the API, not display
    // content; its index was checked above, and nothing is shown.
  }

  function onBlockStop(input: Record<string, unknown>): void {
    if (!isIndex(input.index)) return refuse('malformed_event', 'content_block_stop needs an integer index >= 0', input);
    const block = lookup(input.index, input);
    if (block === undefined) return;
    open.delete(input.index);
    stopped.add(input.index);
    // "On content_block_stop (for a tool_use block ...): Yield the content_block_stop with this assigned_frontend_idx."
    emit('content_block_stop', { index: block.index });
    if (block.kind !== 'tool_use') return;
    // "When executing the tool and yielding tool_use_input_complete ...: Use the assigned_frontend_idx."
    let parsed: unknown = block.startInput ?? {};
    if (block.json.length > 0) {
      try {
        parsed = JSON.parse(block.json);
      } catch (error) {
        return refuse('invalid_tool_input', `the input_json_delta fragments of tool_use '${block.toolUseId}' do not form JSON: ${(error as Error).message}`, input, { index: block.index, tool_use_id: block.toolUseId, partial_json: block.json });
      }
    }
    emit('tool_use_input_complete', { index: block.index, tool_use_id: block.toolUseId, name: block.name, input: parsed });
  }

  function onToolRecord(input: Record<string, unknown>, kind: 'tool_result' | 'tool_execution_error'): void {
    const toolUseId = input.tool_use_id;
    if (typeof toolUseId !== 'string') return refuse('malformed_event', `a ${kind} record needs a string tool_use_id`, input);
    if (kind === 'tool_execution_error' && typeof input.error !== 'string') return refuse('malformed_event', 'a tool_execution_error record needs a string error', input);
    // "Use the assigned_frontend_idx (retrieved via tool_id_to_frontend_idx using the tool_use_id)".
    const entry = tools.get(toolUseId);
    if (!entry) return refuse('unknown_tool_use_id', `no tool_use block with id '${toolUseId}' was started in this turn`, input, { tool_use_id: toolUseId });
    if (entry.resolved) return refuse('duplicate_tool_result', `tool_use '${toolUseId}' (index ${entry.index}) already has a result`, input, { index: entry.index, tool_use_id: toolUseId });
    entry.resolved = true;
    if (kind === 'tool_result') return emit('tool_result', { index: entry.index, tool_use_id: toolUseId, content: input.content ?? null });
    emit('tool_execution_error', { index: entry.index, tool_use_id: toolUseId, error: input.error });
  }

  function feed(input: unknown): void {
    if (!isObject(input) || typeof input.type !== 'string') {
      return refuse('malformed_event', 'an input event must be a JSON object with a string "type"', input);
    }
    switch (input.type) {
      case 'content_block_start': return onBlockStart(input);
      case 'content_block_delta': return onBlockDelta(input);
      case 'content_block_stop': return onBlockStop(input);
      case 'tool_result': return onToolRecord(input, 'tool_result');
      case 'tool_execution_error': return onToolRecord(input, 'tool_execution_error');
      // "For events not tied to a specific block index (e.g., message_start, message_delta,
      // llm_call_completed, stream_end from ATP, ping): These can be yielded without modifying their index."
      case 'message_start': {
        const message = isObject(input.message) ? input.message : {};
        // Block indices restart in each message, so the per-message map starts empty.
        clearMessage();
        messageId = typeof message.id === 'string' ? message.id : undefined;
        stopReason = null;
        return emit('message_start', { message_id: messageId ?? null, model: typeof message.model === 'string' ? message.model : null });
      }
      case 'message_delta': {
        const delta = isObject(input.delta) ? input.delta : {};
        stopReason = delta.stop_reason ?? null;
        const data: Record<string, unknown> = { stop_reason: stopReason, stop_sequence: delta.stop_sequence ?? null };
        if (isObject(input.usage)) data.usage = input.usage;
        return emit('message_delta', data);
      }
      case 'message_stop': {
        const data = { message_id: messageId ?? null, stop_reason: stopReason };
        clearMessage();
        return emit('llm_call_completed', data);
      }
      case 'ping': return emit('ping', {});
      case 'error': {
        const error = isObject(input.error) ? input.error : {};
        return refuse('upstream_error', `the LLM stream reported an error: ${typeof error.message === 'string' ? error.message : JSON.stringify(input.error)}`, input);
      }
      default:
        return refuse('unknown_event_type', `'${input.type}' is not an Anthropic stream event type nor a tool record (tool_result, tool_execution_error)`, input);
    }
  }

  function end(): void {
    for (const block of open.values()) {
      refuse('block_not_stopped', `the turn ended with the ${block.kind} block at index ${block.index} never stopped`, undefined, { index: block.index });
    }
    emit('stream_end', {});
    reset();
  }

  return { feed, end, reset };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
