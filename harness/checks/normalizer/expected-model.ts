/**
 * The harness's own model of seed 003 §3.1, written apart from the reference normaliser so the
 * checks do not trust the code they certify: from the input events of one turn, which conceptual
 * blocks exist (in allocation order), which output each input must give, and which inputs must be
 * refused. Block identity is an ordinal (the n-th block start of the turn); the checks compare the
 * implementation's indices with each other through it, never with the LLM's own indices.
 */

/** Output event types of seed 003's frontend vocabulary the model predicts. */
export type ExpectedType =
  | 'message_start' | 'text_block_start' | 'tool_use_start' | 'text_delta' | 'tool_use_input_delta'
  | 'content_block_stop' | 'tool_use_input_complete' | 'tool_result' | 'tool_execution_error'
  | 'message_delta' | 'llm_call_completed' | 'ping' | 'stream_end';

export type ExpectedEvent = {
  type: ExpectedType;
  /** The block ordinal (0 = the turn's first block start) for block events. */
  block?: number;
  /** text / partial_json of a delta. */
  payload?: string;
  toolUseId?: string;
  /** Position of the input event that causes it (-1: end of input). */
  input: number;
  /** The event's `data` as docs/normalizer.md's mapping gives it, without `index` (the index checks own it). */
  data: Record<string, unknown>;
};

export type ExpectedBlock = { ordinal: number; kind: 'text' | 'thinking' | 'tool_use'; toolUseId?: string; name?: string; startInput?: unknown; input: number; json: string };

/**
 * A stdin line that is not one serialised input event (command mode only): a blank line, or one
 * that is not JSON. Lines are numbered from 1 and every line counts (docs/normalizer.md "Lines").
 */
export class RawLine {
  readonly text: string;
  constructor(text: string) { this.text = text; }
}

/** An input the normaliser must refuse with an `error` event (seed 003 §3.1 "handle as an error"). */
export type RefusedInput = {
  /** Position of the input (-1: end of input, for block_not_stopped). */
  input: number;
  /** unknown-index: a delta or stop for an LLM index with no open block in its message. */
  kind: 'unknown-index' | 'other';
  /** The contract's `data.reason` (docs/normalizer.md "Refused input"). */
  reason: string;
  /** Where among the expected events the error comes: before `events[at]`. */
  at: number;
  /** For a refused delta, the text it carried: an output delta carrying it is a guess. */
  payload?: string;
  deltaType?: 'text_delta' | 'tool_use_input_delta';
  llmIndex?: number;
  /** For block_not_stopped: the block left open. */
  block?: number;
};

export type ExpectedTurn = { blocks: ExpectedBlock[]; events: ExpectedEvent[]; refused: RefusedInput[] };

const blockKinds = new Set(['text', 'thinking', 'tool_use']);

function obj(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function llmIndexOf(event: Record<string, unknown>): number | undefined {
  const i = event.index;
  return typeof i === 'number' && Number.isInteger(i) && i >= 0 ? i : undefined;
}

export function expectTurn(inputs: readonly unknown[]): ExpectedTurn {
  const blocks: ExpectedBlock[] = [];
  const events: ExpectedEvent[] = [];
  const refused: RefusedInput[] = [];
  // "Key: LLM's original block index ... unique per block instance within that message".
  let open = new Map<number, ExpectedBlock>();
  // Per message too: what an LLM index last was, to name the reason a delta or stop is refused.
  let stopped = new Set<number>();
  let unsupported = new Set<number>();
  // "map tool_use_id to its assigned frontend_sse_index", for the whole turn.
  const tools = new Map<string, ExpectedBlock>();
  const resolved = new Set<string>();
  let messageId: unknown = null;
  let stopReason: unknown = null;
  const clearMessage = () => { open = new Map(); stopped = new Set(); unsupported = new Set(); };

  inputs.forEach((given, input) => {
    const refuse = (reason: string, kind: RefusedInput['kind'] = 'other', extra: Partial<RefusedInput> = {}) => { refused.push({ input, kind, reason, at: events.length, ...extra }); };
    // As JSON, which is what the output is (an input's objects may have no prototype, or undefined fields).
    const emit = (e: Omit<ExpectedEvent, 'input'>) => { events.push({ ...e, input, data: JSON.parse(JSON.stringify(e.data)) as Record<string, unknown> }); };
    let raw: unknown = given;
    if (given instanceof RawLine) {
      // "A line that is empty or only whitespace is skipped with no output."
      if (given.text.trim() === '') return;
      try { raw = JSON.parse(given.text); } catch { refuse('invalid_json'); return; }
    }
    const event = obj(raw);
    const type = event?.type;
    if (!event || typeof type !== 'string') { refuse('malformed_event'); return; }
    switch (type) {
      case 'message_start': {
        clearMessage();
        const message = obj(event.message) ?? {};
        messageId = typeof message.id === 'string' ? message.id : null;
        stopReason = null;
        emit({ type: 'message_start', data: { message_id: messageId, model: typeof message.model === 'string' ? message.model : null } });
        return;
      }
      case 'message_stop':
        clearMessage();
        emit({ type: 'llm_call_completed', data: { message_id: messageId, stop_reason: stopReason } });
        return;
      case 'message_delta': {
        const delta = obj(event.delta) ?? {};
        stopReason = delta.stop_reason ?? null;
        emit({ type: 'message_delta', data: { stop_reason: stopReason, stop_sequence: delta.stop_sequence ?? null, ...(obj(event.usage) ? { usage: event.usage } : {}) } });
        return;
      }
      case 'ping':
        emit({ type: 'ping', data: {} });
        return;
      case 'error':
        refuse('upstream_error');
        return;
      case 'content_block_start': {
        const llm = llmIndexOf(event);
        const cb = obj(event.content_block);
        const kind = cb?.type;
        if (llm === undefined || typeof kind !== 'string') { refuse('malformed_event'); return; }
        if (!blockKinds.has(kind)) { unsupported.add(llm); open.delete(llm); refuse('unsupported_block_type'); return; }
        if (kind === 'tool_use' && (typeof cb?.id !== 'string' || typeof cb.name !== 'string')) { refuse('malformed_event'); return; }
        // "On text_block_start or tool_use_start from LLM: These events signify a new conceptual block."
        const block: ExpectedBlock = { ordinal: blocks.length, kind: kind as ExpectedBlock['kind'], input, json: '', ...(kind === 'tool_use' ? { toolUseId: cb?.id as string, name: cb?.name as string, startInput: cb?.input } : {}) };
        blocks.push(block);
        open.set(llm, block);
        unsupported.delete(llm);
        stopped.delete(llm);
        if (block.toolUseId !== undefined) {
          const id = block.toolUseId;
          // A second block with an id already used is refused, gets its own index, and results stay with the first.
          if (tools.has(id)) refuse('duplicate_tool_use_id');
          else tools.set(id, block);
          emit({ type: 'tool_use_start', block: block.ordinal, toolUseId: id, data: { tool_id: id, name: block.name } });
          return;
        }
        const initial = kind === 'text' ? cb?.text : cb?.thinking;
        emit({ type: 'text_block_start', block: block.ordinal, data: { block_type: kind, ...(typeof initial === 'string' && initial.length > 0 ? { text: initial } : {}) } });
        return;
      }
      case 'content_block_delta': {
        const llm = llmIndexOf(event);
        const delta = obj(event.delta);
        const dt = delta?.type;
        const wants = dt === 'text_delta' ? 'text' : dt === 'thinking_delta' ? 'thinking' : dt === 'input_json_delta' ? 'tool_use' : dt === 'signature_delta' ? 'thinking' : undefined;
        if (llm === undefined || wants === undefined) { refuse('malformed_event'); return; }
        const payload = dt === 'text_delta' ? delta?.text : dt === 'thinking_delta' ? delta?.thinking : dt === 'input_json_delta' ? delta?.partial_json : '';
        const outType = dt === 'input_json_delta' ? 'tool_use_input_delta' : 'text_delta';
        const block = open.get(llm);
        if (!block) {
          // "Fallback to frontend_sse_index_allocator - 1 or handle as an error": BLK-IDX-004 says error.
          const reason = !unsupported.has(llm) && stopped.has(llm) ? 'block_already_stopped' : 'unknown_block_index';
          refuse(reason, 'unknown-index', { llmIndex: llm, ...(dt === 'signature_delta' || typeof payload !== 'string' ? {} : { payload, deltaType: outType }) });
          return;
        }
        if (block.kind !== wants) { refuse('delta_type_mismatch'); return; }
        if (typeof payload !== 'string') { refuse('malformed_event'); return; }
        // A signature is an integrity token, not display content: nothing is shown for it.
        if (dt === 'signature_delta') return;
        if (dt === 'input_json_delta') block.json += payload;
        emit({ type: outType, block: block.ordinal, payload, data: outType === 'text_delta' ? { text: payload } : { partial_json: payload } });
        return;
      }
      case 'content_block_stop': {
        const llm = llmIndexOf(event);
        if (llm === undefined) { refuse('malformed_event'); return; }
        const block = open.get(llm);
        if (!block) { refuse(!unsupported.has(llm) && stopped.has(llm) ? 'block_already_stopped' : 'unknown_block_index', 'unknown-index', { llmIndex: llm }); return; }
        open.delete(llm);
        stopped.add(llm);
        emit({ type: 'content_block_stop', block: block.ordinal, data: {} });
        if (block.kind !== 'tool_use') return;
        // `input` = the joined fragments parsed as JSON (no fragments: the start's input, else {}).
        let parsed: unknown = block.startInput ?? {};
        if (block.json !== '') {
          try { parsed = JSON.parse(block.json); } catch { refuse('invalid_tool_input'); return; }
        }
        emit({ type: 'tool_use_input_complete', block: block.ordinal, toolUseId: block.toolUseId!, data: { tool_use_id: block.toolUseId, name: block.name, input: parsed } });
        return;
      }
      case 'tool_result':
      case 'tool_execution_error': {
        const id = event.tool_use_id;
        if (typeof id !== 'string' || (type === 'tool_execution_error' && typeof event.error !== 'string')) { refuse('malformed_event'); return; }
        const block = tools.get(id);
        if (!block) { refuse('unknown_tool_use_id'); return; }
        if (resolved.has(id)) { refuse('duplicate_tool_result'); return; }
        resolved.add(id);
        // "Use the assigned_frontend_idx (retrieved via tool_id_to_frontend_idx using the tool_use_id)".
        emit({ type, block: block.ordinal, toolUseId: id, data: type === 'tool_result' ? { tool_use_id: id, content: event.content ?? null } : { tool_use_id: id, error: event.error } });
        return;
      }
      default:
        refuse('unknown_event_type');
    }
  });
  // "End of input: one error event (block_not_stopped, no line) for each block still open, then stream_end."
  for (const block of open.values()) refused.push({ input: -1, kind: 'other', reason: 'block_not_stopped', at: events.length, block: block.ordinal });
  events.push({ type: 'stream_end', input: -1, data: {} });
  return { blocks, events, refused };
}

function parses(json: string): boolean {
  if (json === '') return true;
  try { JSON.parse(json); return true; } catch { return false; }
}
