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
};

export type ExpectedBlock = { ordinal: number; kind: 'text' | 'thinking' | 'tool_use'; toolUseId?: string; input: number; json: string };

/** An input the normaliser must refuse with an `error` event (seed 003 §3.1 "handle as an error"). */
export type RefusedInput = {
  input: number;
  /** unknown-index: a delta or stop for an LLM index with no open block in its message. */
  kind: 'unknown-index' | 'other';
  /** For a refused delta, the text it carried: an output delta carrying it is a guess. */
  payload?: string;
  deltaType?: 'text_delta' | 'tool_use_input_delta';
  llmIndex?: number;
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
  // "map tool_use_id to its assigned frontend_sse_index", for the whole turn.
  const tools = new Map<string, ExpectedBlock>();
  const resolved = new Set<string>();

  inputs.forEach((raw, input) => {
    const event = obj(raw);
    const type = event?.type;
    if (!event || typeof type !== 'string') { refused.push({ input, kind: 'other' }); return; }
    switch (type) {
      case 'message_start':
        open = new Map();
        events.push({ type: 'message_start', input });
        return;
      case 'message_stop':
        open = new Map();
        events.push({ type: 'llm_call_completed', input });
        return;
      case 'message_delta':
        events.push({ type: 'message_delta', input });
        return;
      case 'ping':
        events.push({ type: 'ping', input });
        return;
      case 'content_block_start': {
        const llm = llmIndexOf(event);
        const cb = obj(event.content_block);
        const kind = cb?.type;
        if (llm === undefined || typeof kind !== 'string' || !blockKinds.has(kind)) { refused.push({ input, kind: 'other' }); return; }
        if (kind === 'tool_use' && (typeof cb?.id !== 'string' || typeof cb.name !== 'string')) { refused.push({ input, kind: 'other' }); return; }
        // "On text_block_start or tool_use_start from LLM: These events signify a new conceptual block."
        const block: ExpectedBlock = { ordinal: blocks.length, kind: kind as ExpectedBlock['kind'], input, json: '', ...(kind === 'tool_use' ? { toolUseId: cb?.id as string } : {}) };
        blocks.push(block);
        open.set(llm, block);
        if (block.toolUseId !== undefined && !tools.has(block.toolUseId)) tools.set(block.toolUseId, block);
        events.push({ type: kind === 'tool_use' ? 'tool_use_start' : 'text_block_start', block: block.ordinal, input, ...(block.toolUseId !== undefined ? { toolUseId: block.toolUseId } : {}) });
        return;
      }
      case 'content_block_delta': {
        const llm = llmIndexOf(event);
        const delta = obj(event.delta);
        const dt = delta?.type;
        const payload = dt === 'text_delta' ? delta?.text : dt === 'thinking_delta' ? delta?.thinking : dt === 'input_json_delta' ? delta?.partial_json : dt === 'signature_delta' ? '' : undefined;
        if (llm === undefined || typeof payload !== 'string') { refused.push({ input, kind: 'other' }); return; }
        const outType = dt === 'input_json_delta' ? 'tool_use_input_delta' : 'text_delta';
        const block = open.get(llm);
        if (!block) {
          // "Fallback to frontend_sse_index_allocator - 1 or handle as an error": BLK-IDX-004 says error.
          refused.push({ input, kind: 'unknown-index', llmIndex: llm, ...(dt === 'signature_delta' ? {} : { payload, deltaType: outType }) });
          return;
        }
        if ((block.kind === 'tool_use') !== (dt === 'input_json_delta') || (dt === 'signature_delta' && block.kind !== 'thinking')) { refused.push({ input, kind: 'other' }); return; }
        // A signature is an integrity token, not display content: nothing is shown for it.
        if (dt === 'signature_delta') return;
        if (dt === 'input_json_delta') block.json += payload;
        events.push({ type: outType, block: block.ordinal, payload, input });
        return;
      }
      case 'content_block_stop': {
        const llm = llmIndexOf(event);
        if (llm === undefined) { refused.push({ input, kind: 'other' }); return; }
        const block = open.get(llm);
        if (!block) { refused.push({ input, kind: 'unknown-index', llmIndex: llm }); return; }
        open.delete(llm);
        events.push({ type: 'content_block_stop', block: block.ordinal, input });
        // Fragments that do not parse are refused (invalid_tool_input) instead of completed.
        if (block.kind === 'tool_use' && !parses(block.json)) { refused.push({ input, kind: 'other' }); return; }
        if (block.kind === 'tool_use') events.push({ type: 'tool_use_input_complete', block: block.ordinal, toolUseId: block.toolUseId!, input });
        return;
      }
      case 'tool_result':
      case 'tool_execution_error': {
        const id = event.tool_use_id;
        const block = typeof id === 'string' ? tools.get(id) : undefined;
        if (typeof id !== 'string' || !block || resolved.has(id)) { refused.push({ input, kind: 'other' }); return; }
        resolved.add(id);
        // "Use the assigned_frontend_idx (retrieved via tool_id_to_frontend_idx using the tool_use_id)".
        events.push({ type, block: block.ordinal, toolUseId: id, input });
        return;
      }
      default:
        refused.push({ input, kind: 'other' });
    }
  });
  events.push({ type: 'stream_end', input: -1 });
  return { blocks, events, refused };
}

function parses(json: string): boolean {
  if (json === '') return true;
  try { JSON.parse(json); return true; } catch { return false; }
}
