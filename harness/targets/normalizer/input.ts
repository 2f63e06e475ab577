/**
 * The input of one normaliser turn, fetched from the mock exactly as a turn runner meets it:
 * for an `anthropic-turn` scenario, one `POST /v1/messages` per LLM message (the call number is
 * the count of assistant messages sent) with the scripted tool results between messages, from
 * `POST /_mock/anthropic/{scenario}/tools/{toolUseId}`, in the order the scenario scripts them
 * (parallel tools may finish in any order); for a byte-scripted Anthropic stream (a `bytes`
 * upstream with `request.endpoint` `/v1/messages`), the frames the mock replays on that route.
 */
import type { Scenario } from '../../../schemas/types.ts';
import type { TimelineEntry } from '../../model.ts';
import { postJson, postSse } from '../mock-sse.ts';

export type CollectedTurn = { inputs: unknown[]; timeline: TimelineEntry[] };

type ToolUse = { id: string; name: string; json: string; input: unknown };
type ScriptedMessage = { toolResults?: Array<{ toolUseId: string }> };

function obj(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function isNormalizerScenario(scenario: Scenario): boolean {
  return scenario.upstream.kind === 'anthropic-turn' || (scenario.request.endpoint === '/v1/messages' && scenario.upstream.kind === 'bytes');
}

export async function collectTurnInputs(scenario: Scenario, mockUrl: string, signal: AbortSignal, now: () => number): Promise<CollectedTurn> {
  const timeline: TimelineEntry[] = [];
  const inputs: unknown[] = [];
  const note = (kind: TimelineEntry['kind'], summary: string) => timeline.push({ t: now(), kind, summary });
  const parse = (data: string, where: string): unknown => {
    try { return JSON.parse(data); } catch (error) { throw new Error(`the mock's ${where} frame is not JSON (${(error as Error).message}): ${data.slice(0, 200)}`); }
  };

  if (scenario.upstream.kind !== 'anthropic-turn') {
    // A scripted (misbehaving) Anthropic stream: the mock replays its bytes on the route it names.
    note('request', `POST /v1/messages (${scenario.id}, byte-scripted Anthropic stream)`);
    const answer = await postSse(`${mockUrl}/v1/messages`, { model: scenario.id, max_tokens: 4096, stream: true, messages: [{ role: 'user', content: scenario.request.message }] }, signal);
    for (const frame of answer.frames) inputs.push(parse(frame.data, '/v1/messages'));
    note('note', `${inputs.length} input events`);
    return { inputs, timeline };
  }

  const scripted = (scenario.upstream as unknown as { messages: ScriptedMessage[] }).messages;
  const history: Array<{ role: 'user' | 'assistant'; content: unknown }> = [{ role: 'user', content: scenario.request.message }];
  for (let call = 0; call < scripted.length; call++) {
    note('request', `POST /v1/messages (call ${call + 1})`);
    const answer = await postSse(`${mockUrl}/v1/messages`, { model: scenario.id, max_tokens: 4096, stream: true, messages: history }, signal);
    const byIndex = new Map<number, ToolUse>();
    const toolUses: ToolUse[] = [];
    const content: unknown[] = [];
    let stopReason: unknown = null;
    for (const frame of answer.frames) {
      const event = obj(parse(frame.data, '/v1/messages'));
      inputs.push(event);
      if (event.type === 'content_block_start') {
        const block = obj(event.content_block);
        if (block.type === 'tool_use' && typeof event.index === 'number') {
          const use: ToolUse = { id: String(block.id), name: String(block.name), json: '', input: block.input ?? {} };
          byIndex.set(event.index, use);
          toolUses.push(use);
        }
      } else if (event.type === 'content_block_delta' && typeof event.index === 'number') {
        const delta = obj(event.delta);
        const use = byIndex.get(event.index);
        if (use && delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') use.json += delta.partial_json;
      } else if (event.type === 'message_delta') {
        stopReason = obj(event.delta).stop_reason ?? null;
      }
    }
    note('note', `call ${call + 1}: ${answer.frames.length} events, stop_reason ${String(stopReason)}`);
    if (stopReason !== 'tool_use') break;
    for (const use of toolUses) {
      if (use.json !== '') use.input = JSON.parse(use.json);
      content.push({ type: 'tool_use', id: use.id, name: use.name, input: use.input });
    }
    history.push({ role: 'assistant', content });
    // The scenario's order first (it is the order the tools finished), then any use it does not script.
    const order = [...(scripted[call]?.toolResults ?? []).map((r) => r.toolUseId), ...toolUses.map((u) => u.id)];
    const results: unknown[] = [];
    for (const id of [...new Set(order)]) {
      const use = toolUses.find((u) => u.id === id);
      if (!use) continue;
      const answerTool = await postJson(`${mockUrl}/_mock/anthropic/${encodeURIComponent(scenario.id)}/tools/${encodeURIComponent(id)}`, { name: use.name, input: use.input }, signal);
      const body = obj(answerTool.json);
      note('request', `POST /_mock/anthropic/${scenario.id}/tools/${id}: ${answerTool.status}`);
      if (answerTool.status === 200 && 'content' in body) {
        inputs.push({ type: 'tool_result', tool_use_id: id, content: body.content });
        results.push({ type: 'tool_result', tool_use_id: id, content: body.content });
      } else if (answerTool.status === 500 && typeof body.error === 'string') {
        inputs.push({ type: 'tool_execution_error', tool_use_id: id, error: body.error });
        results.push({ type: 'tool_result', tool_use_id: id, content: body.error, is_error: true });
      } else {
        throw new Error(`the mock's tool route answered ${answerTool.status} for ${scenario.id}/${id}: ${answerTool.text.slice(0, 200)}`);
      }
    }
    history.push({ role: 'user', content: results });
  }
  note('note', `${inputs.length} input events`);
  return { inputs, timeline };
}
