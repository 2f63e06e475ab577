/**
 * Seed 003's upstream: each LLM call of an anthropic-turn is one Messages stream whose block
 * indices restart at 0, with thinking, text and tool_use blocks and deterministic ids.
 */
import { describe, expect, it } from 'vitest';
import { readSse } from '../../core/sse.ts';
import { anthropicToolResult, renderAnthropicCall } from './anthropic.ts';
import { body, scenarioWith } from './test-scenarios.ts';

const turn = scenarioWith({
  kind: 'anthropic-turn',
  messages: [
    {
      blocks: [
        { type: 'thinking', thinking: 'Load the trail fixture, then answer in JSON.' },
        { type: 'tool_use', name: 'load_trail_damage', input: { fire_id: 'cedar-creek-2022' } },
      ],
      toolResults: [{ toolUseId: 'placeholder', content: { trails: 5 } }],
    },
    { id: 'msg_01SeedB', blocks: [{ type: 'text', text: '{"trails": 5}', deltas: ['{"trails"', ': 5}'] }], stopReason: 'end_turn' },
  ],
}, 'index_reuse_fixture');

describe('renderAnthropicCall', () => {
  const first = renderAnthropicCall(turn, 0);
  const read = readSse(body(first)).frames;

  it('writes named events in the Messages stream order', () => {
    expect(read.map((f) => f.event)).toEqual([
      // 3 thinking deltas (3 to 4 words each) and the signature; an empty partial_json and 2 pieces of input.
      'message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    expect(read.map((f) => f.data)).toEqual(first.frames.map((f) => f.data));
    expect(first.headers[1]).toEqual(['content-type', 'text/event-stream; charset=utf-8']);
  });

  it('streams thinking, its signature, and tool input as partial JSON that joins to the input', () => {
    const deltas = first.frames.filter((f) => f.event === 'content_block_delta').map((f) => (f.json as { delta: Record<string, string> }).delta);
    expect(deltas.filter((d) => d.type === 'thinking_delta').map((d) => d.thinking).join('')).toBe('Load the trail fixture, then answer in JSON.');
    expect(deltas.filter((d) => d.type === 'signature_delta')).toHaveLength(1);
    const partial = deltas.filter((d) => d.type === 'input_json_delta').map((d) => d.partial_json);
    expect(partial[0]).toBe('');
    expect(JSON.parse(partial.join(''))).toEqual({ fire_id: 'cedar-creek-2022' });
    expect(first.frames.at(-2)!.json).toMatchObject({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null } });
  });

  it('restarts block indices at 0 in every message', () => {
    const indices = (plan: ReturnType<typeof renderAnthropicCall>): number[] => plan.frames.filter((f) => f.event === 'content_block_start').map((f) => (f.json as { index: number }).index);
    expect(indices(first)).toEqual([0, 1]);
    expect(indices(renderAnthropicCall(turn, 1))).toEqual([0]);
  });

  it('draws message and tool_use ids from the scenario alone, and keeps pinned ones', () => {
    const again = renderAnthropicCall(turn, 0);
    expect(again.frames.map((f) => f.data)).toEqual(first.frames.map((f) => f.data));
    const start = first.frames[0]!.json as { message: { id: string; model: string } };
    expect(start.message.id).toMatch(/^msg_01[0-9A-Za-z]{22}$/);
    expect(start.message.model).toBe('claude-sonnet-4-5');
    const toolStart = first.frames.find((f) => (f.json as { content_block?: { type: string } }).content_block?.type === 'tool_use')!;
    expect((toolStart.json as { content_block: { id: string } }).content_block.id).toMatch(/^toolu_01[0-9A-Za-z]{22}$/);
    expect((renderAnthropicCall(turn, 1).frames[0]!.json as { message: { id: string } }).message.id).toBe('msg_01SeedB');
  });

  it('refuses a call the turn does not script and deltas that do not join', () => {
    expect(() => renderAnthropicCall(turn, 2)).toThrow(/scripts 2 LLM calls \(0\.\.1\); call 2/);
    const bad = scenarioWith({ kind: 'anthropic-turn', messages: [{ blocks: [{ type: 'tool_use', name: 't', input: {}, deltas: ['{"a"'] }] }] });
    expect(() => renderAnthropicCall(bad, 0)).toThrow(/blocks\[0\]\.deltas must join to the tool input's JSON/);
    expect(() => renderAnthropicCall(scenarioWith({ kind: 'run', steps: [] }), 0)).toThrow(/not an anthropic-turn/);
  });
});

describe('anthropicToolResult', () => {
  const tools = scenarioWith({
    kind: 'anthropic-turn',
    messages: [{ blocks: [], toolResults: [{ toolUseId: 'T1', content: { trails: 5 } }, { toolUseId: 'E1', isError: true, error: 'MTBS service unavailable (HTTP 503)' }, { toolUseId: 'R1', content: 'rate limited', isError: true }] }],
  });

  it('answers scripted results, failing tools and unknown ids', () => {
    expect(anthropicToolResult(tools, 'T1')).toEqual({ status: 200, json: { content: { trails: 5 } } });
    expect(anthropicToolResult(tools, 'E1')).toEqual({ status: 500, json: { error: 'MTBS service unavailable (HTTP 503)' } });
    expect(anthropicToolResult(tools, 'R1')).toEqual({ status: 200, json: { content: 'rate limited', isError: true } });
    expect(anthropicToolResult(tools, 'nope')).toMatchObject({ status: 404, json: { error: expect.stringContaining('scripted: T1, E1, R1') } });
  });
});
