/**
 * Seed 003's upstream: one agent turn of several LLM calls, each one Anthropic Messages stream
 * (`POST /v1/messages`, `stream: true`). Every message numbers its content blocks from 0 again,
 * which is the index reuse seed 003 §2 describes and the block normaliser must undo.
 *
 * Event shapes and order follow the Messages streaming format: message_start, then per block
 * content_block_start / content_block_delta… / content_block_stop (a `ping` right after the
 * first block start, where the API sends one), message_delta (stop_reason, usage), message_stop. Ids
 * derive from the scenario id alone, so a turn's tool_use ids are the same in every call.
 */
import { encodeSse } from '../../core/sse.ts';
import type { Scenario } from '../../schemas/types.ts';
import { splitWords } from './dialects/turn.ts';
import { frameOf, utf8 } from './frames.ts';
import { base62Id, createRng } from './ids.ts';
import type { PlanChunk, RenderedFrame, ReplayPlan } from './types.ts';
import { HTTP_DATE } from './types.ts';

type BlockInput = { type: 'thinking' | 'text' | 'tool_use'; text?: string; thinking?: string; id?: string; name?: string; input?: Record<string, unknown>; deltas?: string[]; signature?: string };
type ToolResultInput = { toolUseId: string; content?: unknown; isError?: boolean; error?: string };
type MessageInput = { id?: string; blocks: BlockInput[]; stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence'; toolResults?: ToolResultInput[] };
type TurnUpstreamInput = { kind: 'anthropic-turn'; model?: string; messages: MessageInput[] };

function turnOf(scenario: Scenario): TurnUpstreamInput {
  const up = scenario?.upstream as { kind?: unknown } | undefined;
  if (up?.kind !== 'anthropic-turn') {
    throw new TypeError(`scenario ${scenario?.id ?? '(no id)'} is not an anthropic-turn (upstream.kind is ${JSON.stringify(up?.kind)}); render it with render()`);
  }
  const turn = up as unknown as TurnUpstreamInput;
  if (!Array.isArray(turn.messages) || turn.messages.some((m) => !Array.isArray(m?.blocks))) {
    throw new TypeError(`scenario ${scenario.id}: upstream.messages must be an array of {blocks: [...]}`);
  }
  return turn;
}

/** The tool_use id of a block: pinned, or drawn from the scenario id and the block's place in the turn. */
function toolUseId(scenario: Scenario, messageIndex: number, blockIndex: number, block: BlockInput): string {
  return block.id ?? base62Id(createRng(`${scenario.id}:toolu:${messageIndex}:${blockIndex}`), 'toolu_01', 22);
}

function inputDeltas(block: BlockInput, where: string): string[] {
  if (block.deltas !== undefined) {
    const joined = block.deltas.join('');
    try { JSON.parse(joined); } catch {
      throw new TypeError(`${where}.deltas must join to the tool input's JSON text; they join to ${JSON.stringify(joined.slice(0, 60))}`);
    }
    return block.deltas;
  }
  const json = JSON.stringify(block.input ?? {});
  // The API opens a tool_use block with an empty partial_json, then sends the text in small pieces.
  const pieces = [''];
  for (let i = 0; i < json.length; i += 16) pieces.push(json.slice(i, i + 16));
  return pieces;
}

function textDeltas(block: BlockInput, text: string, where: string): string[] {
  if (block.deltas === undefined) return splitWords(text);
  if (block.deltas.join('') !== text) throw new TypeError(`${where}.deltas must join to its ${block.type === 'thinking' ? 'thinking' : 'text'} exactly`);
  return block.deltas;
}

/** Response headers of api.anthropic.com for a stream, in wire order (request-id is drawn). */
function headers(requestId: string): Array<[string, string]> {
  return [
    ['date', HTTP_DATE], ['content-type', 'text/event-stream; charset=utf-8'], ['connection', 'keep-alive'],
    ['cache-control', 'no-cache'], ['anthropic-version', '2023-06-01'], ['request-id', requestId], ['x-robots-tag', 'none'], ['server', 'cloudflare'],
  ];
}

/** One LLM call of the turn, as the `/v1/messages` stream the API writes. `callIndex` counts from 0. */
export function renderAnthropicCall(scenario: Scenario, callIndex: number): ReplayPlan {
  const turn = turnOf(scenario);
  if (!Number.isInteger(callIndex) || callIndex < 0 || callIndex >= turn.messages.length) {
    throw new RangeError(`scenario ${scenario.id} scripts ${turn.messages.length} LLM calls (0..${turn.messages.length - 1}); call ${callIndex} is not one of them`);
  }
  const message = turn.messages[callIndex]!;
  const rng = createRng(`${scenario.id}:anthropic:${callIndex}`);
  const messageId = message.id ?? base62Id(rng, 'msg_01', 22);
  const requestId = base62Id(rng, 'req_011C', 20);
  const frames: RenderedFrame[] = [];
  const chunks: PlanChunk[] = [];
  const send = (type: string, payload: Record<string, unknown>): void => {
    const data = type === 'ping' ? '{"type": "ping"}' : JSON.stringify({ type, ...payload });
    frames.push(frameOf(data, type));
    chunks.push({ bytes: utf8(encodeSse({ event: type, data })), delayMs: 0, frame: frames.length - 1 });
  };

  let outputChars = 0;
  const inputTokens = 412 + 157 * callIndex;
  send('message_start', {
    message: { id: messageId, type: 'message', role: 'assistant', model: turn.model ?? 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 } },
  });
  message.blocks.forEach((block, index) => {
    const where = `upstream.messages[${callIndex}].blocks[${index}]`;
    const start = (contentBlock: Record<string, unknown>): void => {
      send('content_block_start', { index, content_block: contentBlock });
      if (index === 0) send('ping', {});
    };
    switch (block.type) {
      case 'thinking': {
        const thinking = block.thinking ?? block.text ?? '';
        start({ type: 'thinking', thinking: '', signature: '' });
        for (const t of textDeltas(block, thinking, where)) send('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: t } });
        const signature = block.signature ?? `Eq${base62Id(createRng(`${scenario.id}:sig:${callIndex}:${index}`), '', 86)}==`;
        send('content_block_delta', { index, delta: { type: 'signature_delta', signature } });
        outputChars += thinking.length;
        break;
      }
      case 'text': {
        const text = block.text ?? '';
        start({ type: 'text', text: '' });
        for (const t of textDeltas(block, text, where)) send('content_block_delta', { index, delta: { type: 'text_delta', text: t } });
        outputChars += text.length;
        break;
      }
      case 'tool_use': {
        if (typeof block.name !== 'string' || block.name.length === 0) throw new TypeError(`${where}.name must name the tool`);
        start({ type: 'tool_use', id: toolUseId(scenario, callIndex, index, block), name: block.name, input: {} });
        for (const p of inputDeltas(block, where)) send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } });
        outputChars += JSON.stringify(block.input ?? {}).length;
        break;
      }
      default:
        throw new TypeError(`${where}.type must be thinking, text or tool_use, got ${JSON.stringify((block as { type: unknown }).type)}`);
    }
    send('content_block_stop', { index });
  });
  const stopReason = message.stopReason ?? (message.blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: Math.max(1, Math.ceil(outputChars / 4)) } });
  send('message_stop', {});
  return { status: 200, headers: headers(requestId), chunks, end: 'eof', frames };
}

/**
 * The scripted result of one tool call of the turn, for the mock's tool backend route:
 * 200 `{content}` (with `isError: true` when the tool reported an error as content), 500
 * `{error}` for a failing tool, 404 `{error}` for an id the turn never scripted.
 */
export function anthropicToolResult(scenario: Scenario, toolUseIdWanted: string): { status: number; json: Record<string, unknown> } {
  const turn = turnOf(scenario);
  for (const message of turn.messages) {
    for (const result of message.toolResults ?? []) {
      if (result.toolUseId !== toolUseIdWanted) continue;
      if (result.error !== undefined) return { status: 500, json: { error: result.error } };
      const json: Record<string, unknown> = { content: result.content ?? null };
      if (result.isError === true) json.isError = true;
      return { status: 200, json };
    }
  }
  const known = turn.messages.flatMap((m) => (m.toolResults ?? []).map((r) => r.toolUseId));
  return { status: 404, json: { error: `scenario ${scenario.id} scripts no result for tool_use ${toolUseIdWanted}; scripted: ${known.join(', ') || 'none'}` } };
}
