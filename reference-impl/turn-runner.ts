/**
 * Runs ONE agent turn against an Anthropic-compatible `POST /v1/messages` upstream: call the
 * model, execute the tools it asks for, call it again with the results, until it stops for any
 * reason but `tool_use`. Every stream event and every tool record goes through the block-index
 * normaliser, so the caller sees seed 003's frontend events with unique, sequential indices.
 *
 * This is the loop seed 003 §3.1 calls `stream_turn_response`: "Iterate through events from
 * self.llm.stream_message(...)", with the tool executions "when executing the tool and yielding
 * tool_use_input_complete, tool_result, or tool_execution_error" between the messages.
 */
import { createSseReader } from '../core/sse.ts';
import { createBlockNormalizer, type BlockStreamEvent } from './block-normalizer.ts';

export type RunTurnOptions = {
  /** Base URL of the upstream (the mock: `http://127.0.0.1:PORT`); `/v1/messages` is appended. */
  upstreamUrl: string;
  /** The `model` sent upstream; on the mock it names the `anthropic-turn` scenario to replay. */
  scenarioModel: string;
  /** Base URL of the tool backend; the tool_use id is appended. Default: the mock's `{upstreamUrl}/_mock/anthropic/{model}/tools`. */
  toolsUrl?: string;
  signal?: AbortSignal;
  onEvent: (event: BlockStreamEvent) => void;
  /** The user message that opens the turn. */
  message?: string;
  /** LLM calls allowed in one turn before it is cut with a `max_calls_exceeded` error. Default 25. */
  maxCalls?: number;
  maxTokens?: number;
  fetch?: typeof fetch;
};

export type TurnOutcome = {
  /** complete: the model stopped by itself; error: an `error` event ended the turn; aborted: the signal fired (no `stream_end`). */
  outcome: 'complete' | 'error' | 'aborted';
  calls: number;
  /** The last message's stop_reason. */
  stopReason: string | null;
};

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown; json: string };

type Message = { role: 'user' | 'assistant'; content: unknown };

/** What one /v1/messages stream came to. */
type CallResult = { blocks: ContentBlock[]; stopReason: string | null; stopped: boolean; failed: boolean };

export async function runTurn(options: RunTurnOptions): Promise<TurnOutcome> {
  const { upstreamUrl, scenarioModel, signal, onEvent } = options;
  if (typeof upstreamUrl !== 'string' || !/^https?:\/\//.test(upstreamUrl)) throw new TypeError(`runTurn: upstreamUrl must be an http(s) URL, got ${JSON.stringify(upstreamUrl)}`);
  if (typeof scenarioModel !== 'string' || scenarioModel === '') throw new TypeError('runTurn: scenarioModel must be a non-empty string (on the mock, the id of an anthropic-turn scenario)');
  if (typeof onEvent !== 'function') throw new TypeError('runTurn: onEvent must be a function receiving the normalised events');
  const base = upstreamUrl.replace(/\/+$/, '');
  const toolsBase = (options.toolsUrl ?? `${base}/_mock/anthropic/${encodeURIComponent(scenarioModel)}/tools`).replace(/\/+$/, '');
  const maxCalls = options.maxCalls ?? 25;
  const doFetch = options.fetch ?? fetch;

  const normalizer = createBlockNormalizer({ onEvent });
  const fail = (reason: string, message: string, extra: Record<string, unknown> = {}) => onEvent({ event_type: 'error', data: { reason, message, ...extra } });
  const messages: Message[] = [{ role: 'user', content: options.message ?? 'Begin.' }];
  let calls = 0;
  let stopReason: string | null = null;

  try {
    while (true) {
      if (calls >= maxCalls) {
        fail('max_calls_exceeded', `the turn made ${maxCalls} LLM calls without the model stopping; it was cut there`, { calls });
        normalizer.end();
        return { outcome: 'error', calls, stopReason };
      }
      calls++;
      const result = await callModel(messages);
      stopReason = result.stopReason;
      if (result.failed || !result.stopped) {
        if (!result.failed) fail('upstream_stream_cut', `the /v1/messages stream of call ${calls} ended before message_stop`, { call: calls });
        normalizer.end();
        return { outcome: 'error', calls, stopReason };
      }
      if (stopReason !== 'tool_use') break;
      messages.push({ role: 'assistant', content: result.blocks.map(toRequestBlock) });
      const results: unknown[] = [];
      for (const block of result.blocks) {
        if (block.type === 'tool_use') results.push(await executeTool(block));
      }
      messages.push({ role: 'user', content: results });
    }
  } catch (error) {
    if (signal?.aborted) return { outcome: 'aborted', calls, stopReason };
    throw error;
  }
  normalizer.end();
  return { outcome: 'complete', calls, stopReason };

  async function callModel(history: Message[]): Promise<CallResult> {
    const result: CallResult = { blocks: [], stopReason: null, stopped: false, failed: false };
    let response: Response;
    try {
      response = await doFetch(`${base}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: scenarioModel, max_tokens: options.maxTokens ?? 4096, stream: true, messages: history }),
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      fail('upstream_unreachable', `POST ${base}/v1/messages failed: ${(error as Error).message}`);
      return { ...result, failed: true };
    }
    if (!response.ok || response.body === null) {
      const body = await response.text().catch(() => '');
      fail('upstream_http_error', `POST ${base}/v1/messages answered ${response.status}`, { status: response.status, body: body.slice(0, 2000) });
      return { ...result, failed: true };
    }
    const byIndex = new Map<number, ContentBlock>();
    const reader = createSseReader({
      onFrame(frame) {
        let event: unknown;
        try {
          event = JSON.parse(frame.data);
        } catch (error) {
          fail('upstream_invalid_json', `a /v1/messages frame is not JSON: ${(error as Error).message}`, { data: frame.data.slice(0, 2000) });
          result.failed = true;
          return;
        }
        collect(event, byIndex, result);
        normalizer.feed(event);
      },
    });
    const body = response.body.getReader();
    try {
      for (let read = await body.read(); !read.done; read = await body.read()) reader.feed(read.value);
    } catch (error) {
      if (signal?.aborted) throw error;
      fail('upstream_stream_error', `reading the /v1/messages stream of call ${calls} failed: ${(error as Error).message}`, { call: calls });
      return { ...result, failed: true };
    }
    reader.end();
    return result;
  }

  async function executeTool(block: Extract<ContentBlock, { type: 'tool_use' }>): Promise<unknown> {
    const record = await callTool(block);
    normalizer.feed(record);
    return record.type === 'tool_result'
      ? { type: 'tool_result', tool_use_id: block.id, content: record.content }
      : { type: 'tool_result', tool_use_id: block.id, content: record.error, is_error: true };
  }

  async function callTool(block: Extract<ContentBlock, { type: 'tool_use' }>): Promise<{ type: 'tool_result'; tool_use_id: string; content: unknown } | { type: 'tool_execution_error'; tool_use_id: string; error: string }> {
    const url = `${toolsBase}/${encodeURIComponent(block.id)}`;
    const failed = (error: string) => ({ type: 'tool_execution_error' as const, tool_use_id: block.id, error });
    let response: Response;
    try {
      response = await doFetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: block.name, input: block.input }), signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      return failed(`the tool backend at ${url} is unreachable: ${(error as Error).message}`);
    }
    const text = await response.text();
    let body: unknown;
    try { body = JSON.parse(text); } catch { body = undefined; }
    const json = typeof body === 'object' && body !== null ? body as Record<string, unknown> : {};
    // The mock marks a result the tool reported as failed with isError (Anthropic's is_error): that is an execution error too.
    if (response.ok && 'content' in json && json.isError === true) return failed(typeof json.content === 'string' ? json.content : JSON.stringify(json.content));
    if (response.ok && 'content' in json) return { type: 'tool_result', tool_use_id: block.id, content: json.content };
    if (!response.ok && typeof json.error === 'string') return failed(json.error);
    return failed(`the tool backend answered ${response.status} without ${response.ok ? 'a content field' : 'an error field'}: ${text.slice(0, 200)}`);
  }
}

/** Rebuild the assistant message's content blocks from the stream, as the next request must repeat them. */
function collect(event: unknown, byIndex: Map<number, ContentBlock>, result: CallResult): void {
  const e = asObject(event);
  const index = typeof e.index === 'number' ? e.index : undefined;
  if (e.type === 'content_block_start' && index !== undefined) {
    const b = asObject(e.content_block);
    const block: ContentBlock | undefined =
      b.type === 'text' ? { type: 'text', text: asString(b.text) }
      : b.type === 'thinking' ? { type: 'thinking', thinking: asString(b.thinking), signature: asString(b.signature) }
      : b.type === 'tool_use' ? { type: 'tool_use', id: asString(b.id), name: asString(b.name), input: b.input ?? {}, json: '' }
      : undefined;
    if (block) { byIndex.set(index, block); result.blocks.push(block); }
  } else if (e.type === 'content_block_delta' && index !== undefined) {
    const block = byIndex.get(index);
    const d = asObject(e.delta);
    if (block?.type === 'text' && d.type === 'text_delta') block.text += asString(d.text);
    else if (block?.type === 'thinking' && d.type === 'thinking_delta') block.thinking += asString(d.thinking);
    else if (block?.type === 'thinking' && d.type === 'signature_delta') block.signature += asString(d.signature);
    else if (block?.type === 'tool_use' && d.type === 'input_json_delta') block.json += asString(d.partial_json);
  } else if (e.type === 'content_block_stop' && index !== undefined) {
    const block = byIndex.get(index);
    if (block?.type === 'tool_use' && block.json !== '') {
      // Fragments that are not JSON are the normaliser's to report; the tool still runs, on the start's input.
      try { block.input = JSON.parse(block.json); } catch { /* reported as invalid_tool_input */ }
    }
    byIndex.delete(index);
  } else if (e.type === 'message_delta') {
    const stop = asObject(e.delta).stop_reason;
    result.stopReason = typeof stop === 'string' ? stop : null;
  } else if (e.type === 'message_stop') {
    result.stopped = true;
  } else if (e.type === 'error') {
    result.failed = true;
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
}

function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function toRequestBlock(block: ContentBlock): unknown {
  if (block.type === 'tool_use') return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
  return block;
}
