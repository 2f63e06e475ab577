import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { createBlockNormalizer, type BlockStreamEvent } from './block-normalizer.ts';
import { validate } from '../schemas/registry.ts';

const SEED = 3003;

/** Every output event must be a valid block-stream-event; the first offending one fails the test with its issues. */
function checked(out: BlockStreamEvent[]) {
  return (e: BlockStreamEvent) => {
    const result = validate('block-stream-event', e);
    if (!result.valid) throw new Error(`invalid block-stream-event ${JSON.stringify(e)}: ${JSON.stringify(result.errors)}`);
    out.push(e);
  };
}

function run(inputs: unknown[], withEnd = true): BlockStreamEvent[] {
  const out: BlockStreamEvent[] = [];
  const n = createBlockNormalizer({ onEvent: checked(out) });
  for (const input of inputs) n.feed(input);
  if (withEnd) n.end();
  return out;
}

const indexed = (events: BlockStreamEvent[]) =>
  events.filter((e) => typeof e.data.index === 'number' && e.event_type !== 'error').map((e) => [e.event_type, e.data.index]);

const msgStart = (id: string) => ({ type: 'message_start', message: { id, type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5', stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
const start = (index: number, content_block: Record<string, unknown>) => ({ type: 'content_block_start', index, content_block });
const delta = (index: number, d: Record<string, unknown>) => ({ type: 'content_block_delta', index, delta: d });
const stop = (index: number) => ({ type: 'content_block_stop', index });
const msgDelta = (stop_reason: string) => ({ type: 'message_delta', delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } });
const msgStop = { type: 'message_stop' };

// Seed 003 §3.2, step by step: thinking at LLM index 0, tool T1 at LLM index 1, the tool runs, the final JSON at LLM index 0 again.
const seedFlow = [
  msgStart('msg_1'),
  start(0, { type: 'thinking', thinking: '' }),
  delta(0, { type: 'thinking_delta', thinking: 'I should look this up.' }),
  stop(0),
  start(1, { type: 'tool_use', id: 'T1', name: 'lookup', input: {} }),
  stop(1),
  msgDelta('tool_use'),
  msgStop,
  { type: 'tool_result', tool_use_id: 'T1', content: 'found' },
  msgStart('msg_2'),
  start(0, { type: 'text', text: '' }),
  delta(0, { type: 'text_delta', text: '{"answer": 42}' }),
  stop(0),
  msgDelta('end_turn'),
  msgStop,
];

describe('seed 003 §3.2 example flow', () => {
  test('thinking gets index 0, the tool index 1 and the final JSON index 2, exactly as §3.2 lists them', () => {
    const out = indexed(run(seedFlow)).filter(([type]) => type !== 'tool_use_input_complete');
    expect(out).toEqual([
      ['text_block_start', 0], // 1.
      ['text_delta', 0], // 2.
      ['content_block_stop', 0], // 3.
      ['tool_use_start', 1], // 4.
      ['content_block_stop', 1], // 5.
      ['tool_result', 1], // 5. (tool executes)
      ['text_block_start', 2], // 6.
      ['text_delta', 2], // 7.
      ['content_block_stop', 2], // 8.
    ]);
  });

  test('the tool_use_input_complete of T1 carries the tool block index 1 and the parsed input', () => {
    const complete = run(seedFlow).find((e) => e.event_type === 'tool_use_input_complete');
    expect(complete).toEqual({ event_type: 'tool_use_input_complete', data: { index: 1, tool_use_id: 'T1', name: 'lookup', input: {} } });
  });

  test('a reused LLM index within one message after its stop also opens a new block', () => {
    const out = run([msgStart('m'), start(0, { type: 'thinking' }), stop(0), start(0, { type: 'text' }), delta(0, { type: 'text_delta', text: 'x' }), stop(0), msgStop]);
    expect(indexed(out)).toEqual([['text_block_start', 0], ['content_block_stop', 0], ['text_block_start', 1], ['text_delta', 1], ['content_block_stop', 1]]);
    expect(out.filter((e) => e.event_type === 'text_block_start').map((e) => e.data.block_type)).toEqual(['thinking', 'text']);
  });

  test('index-free events pass through without an index and end() emits stream_end last', () => {
    const out = run(seedFlow);
    const free = out.filter((e) => e.data.index === undefined).map((e) => e.event_type);
    expect(free).toEqual(['message_start', 'message_delta', 'llm_call_completed', 'message_start', 'message_delta', 'llm_call_completed', 'stream_end']);
    expect(out.find((e) => e.event_type === 'llm_call_completed')?.data).toEqual({ message_id: 'msg_1', stop_reason: 'tool_use' });
  });
});

describe('tool input and tool records', () => {
  test('input_json_delta fragments become tool_use_input_delta events and one parsed tool_use_input_complete', () => {
    const out = run([msgStart('m'), start(0, { type: 'tool_use', id: 'toolu_1', name: 'get_fire', input: {} }), delta(0, { type: 'input_json_delta', partial_json: '{"fire":' }), delta(0, { type: 'input_json_delta', partial_json: ' "cedar"}' }), stop(0)]);
    expect(out.filter((e) => e.event_type === 'tool_use_input_delta').map((e) => e.data)).toEqual([{ index: 0, partial_json: '{"fire":' }, { index: 0, partial_json: ' "cedar"}' }]);
    expect(out.find((e) => e.event_type === 'tool_use_input_complete')?.data).toEqual({ index: 0, tool_use_id: 'toolu_1', name: 'get_fire', input: { fire: 'cedar' } });
  });

  test('tool fragments that are not JSON give an invalid_tool_input error instead of an input', () => {
    const out = run([msgStart('m'), start(0, { type: 'tool_use', id: 't', name: 'n' }), delta(0, { type: 'input_json_delta', partial_json: '{"a":' }), stop(0)]);
    expect(out.some((e) => e.event_type === 'tool_use_input_complete')).toBe(false);
    expect(out.find((e) => e.event_type === 'error')?.data).toMatchObject({ reason: 'invalid_tool_input', index: 0, tool_use_id: 't', partial_json: '{"a":' });
  });

  test('a tool_execution_error record carries the tool block index', () => {
    const out = run([msgStart('m'), start(0, { type: 'text' }), stop(0), start(1, { type: 'tool_use', id: 'a', name: 'n' }), stop(1), start(2, { type: 'tool_use', id: 'b', name: 'n' }), stop(2), msgStop, { type: 'tool_execution_error', tool_use_id: 'b', error: 'boom' }, { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'ok' }] }]);
    expect(out.filter((e) => e.event_type === 'tool_execution_error' || e.event_type === 'tool_result').map((e) => e.data)).toEqual([
      { index: 2, tool_use_id: 'b', error: 'boom' },
      { index: 1, tool_use_id: 'a', content: [{ type: 'text', text: 'ok' }] },
    ]);
  });

  test('a tool result for an unknown tool_use_id is an error, never attached to a guessed block', () => {
    const out = run([msgStart('m'), start(0, { type: 'tool_use', id: 'a', name: 'n' }), stop(0), { type: 'tool_result', tool_use_id: 'zzz', content: 'x' }]);
    expect(out.some((e) => e.event_type === 'tool_result')).toBe(false);
    expect(out.find((e) => e.event_type === 'error')?.data).toMatchObject({ reason: 'unknown_tool_use_id', tool_use_id: 'zzz', input: { type: 'tool_result', tool_use_id: 'zzz', content: 'x' } });
  });

  test('a second result for the same tool_use is a duplicate_tool_result error', () => {
    const out = run([msgStart('m'), start(0, { type: 'tool_use', id: 'a', name: 'n' }), stop(0), { type: 'tool_result', tool_use_id: 'a', content: 1 }, { type: 'tool_result', tool_use_id: 'a', content: 2 }]);
    expect(out.filter((e) => e.event_type === 'tool_result')).toHaveLength(1);
    expect(out.find((e) => e.event_type === 'error')?.data).toMatchObject({ reason: 'duplicate_tool_result', index: 0 });
  });

  test('a tool_use id used twice keeps tool results on the first block and reports the duplicate', () => {
    const out = run([msgStart('m'), start(0, { type: 'tool_use', id: 'a', name: 'n' }), stop(0), start(1, { type: 'tool_use', id: 'a', name: 'n' }), stop(1), { type: 'tool_result', tool_use_id: 'a', content: 1 }]);
    expect(out.find((e) => e.event_type === 'error')?.data).toMatchObject({ reason: 'duplicate_tool_use_id', index: 1 });
    expect(out.find((e) => e.event_type === 'tool_result')?.data.index).toBe(0);
  });
});

describe('input the normaliser refuses', () => {
  test('a delta for an LLM index never started in this message is an unknown_block_index error, not a guess', () => {
    const out = run([msgStart('m'), start(0, { type: 'text' }), delta(3, { type: 'text_delta', text: 'lost' })]);
    expect(out.filter((e) => e.event_type === 'text_delta')).toHaveLength(0);
    expect(out.find((e) => e.event_type === 'error')?.data).toMatchObject({ reason: 'unknown_block_index', llm_index: 3, input: delta(3, { type: 'text_delta', text: 'lost' }) });
  });

  test('an LLM index from the previous message is unknown in the next one', () => {
    const out = run([msgStart('m1'), start(0, { type: 'text' }), msgStop, msgStart('m2'), delta(0, { type: 'text_delta', text: 'x' })]);
    expect(out.find((e) => e.event_type === 'error')?.data.reason).toBe('unknown_block_index');
  });

  test('a delta or stop after the block stopped is a block_already_stopped error', () => {
    const out = run([msgStart('m'), start(0, { type: 'text' }), stop(0), delta(0, { type: 'text_delta', text: 'late' }), stop(0)]);
    expect(out.filter((e) => e.event_type === 'error').map((e) => e.data.reason)).toEqual(['block_already_stopped', 'block_already_stopped']);
    expect(out.filter((e) => e.event_type === 'content_block_stop')).toHaveLength(1);
  });

  test('a text delta on a tool_use block is a delta_type_mismatch error', () => {
    const out = run([msgStart('m'), start(0, { type: 'tool_use', id: 'a', name: 'n' }), delta(0, { type: 'text_delta', text: 'x' })]);
    expect(out.find((e) => e.event_type === 'error')?.data).toMatchObject({ reason: 'delta_type_mismatch', index: 0 });
  });

  test('a block of an unsupported type gets no index, and its delta and stop are refused as unknown_block_index', () => {
    const out = run([msgStart('m'), start(0, { type: 'redacted_thinking', data: 'xx' }), delta(0, { type: 'text_delta', text: 'x' }), stop(0), start(1, { type: 'text', text: '' })], false);
    expect(out.filter((e) => e.event_type === 'error').map((e) => e.data.reason)).toEqual(['unsupported_block_type', 'unknown_block_index', 'unknown_block_index']);
    expect(out.filter((e) => e.event_type === 'error').every((e) => e.data.index === undefined)).toBe(true);
    expect(indexed(out)).toEqual([['text_block_start', 0]]);
  });

  test('non-objects, missing types and unknown types are reported with the offending input', () => {
    const out = run([42, null, [], { no: 'type' }, { type: 'mystery' }, { type: 'content_block_start', index: -1, content_block: { type: 'text' } }], false);
    expect(out.map((e) => e.data.reason)).toEqual(['malformed_event', 'malformed_event', 'malformed_event', 'malformed_event', 'unknown_event_type', 'malformed_event']);
    expect(out[0]?.data.input).toBe(42);
  });

  test('an Anthropic error event becomes an upstream_error carrying the message', () => {
    const out = run([{ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }], false);
    expect(out).toEqual([{ event_type: 'error', data: { reason: 'upstream_error', message: 'the LLM stream reported an error: Overloaded', input: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } } }]);
  });

  test('end() reports blocks left open before stream_end', () => {
    const out = run([msgStart('m'), start(0, { type: 'text' })]);
    expect(out.slice(-2).map((e) => [e.event_type, e.data.reason ?? null])).toEqual([['error', 'block_not_stopped'], ['stream_end', null]]);
  });

  test('signature deltas are checked for their block and produce no output', () => {
    const out = run([msgStart('m'), start(0, { type: 'thinking' }), delta(0, { type: 'signature_delta', signature: 'sig' }), stop(0)], false);
    expect(out.map((e) => e.event_type)).toEqual(['message_start', 'text_block_start', 'content_block_stop']);
  });

  test('a config without onEvent is a TypeError saying how to call it', () => {
    expect(() => createBlockNormalizer((() => undefined) as never)).toThrow(/createBlockNormalizer\(\{onEvent: fn\}\)/);
  });
});

// ---- laws ----

type GenBlock = { kind: 'text' | 'thinking' | 'tool_use'; deltas: string[] };
type GenMessage = { blocks: GenBlock[] };

const blockArb: fc.Arbitrary<GenBlock> = fc.record({
  kind: fc.constantFrom('text' as const, 'thinking' as const, 'tool_use' as const),
  deltas: fc.array(fc.string({ maxLength: 6 }), { maxLength: 4 }),
});
const turnArb = fc.array(fc.record({ blocks: fc.array(blockArb, { minLength: 1, maxLength: 5 }) }), { minLength: 1, maxLength: 5 });

/** A valid turn as input events, each tagged with the conceptual block (global ordinal) it belongs to. */
function renderTurn(messages: GenMessage[]): Array<{ input: unknown; block: number | null }> {
  const out: Array<{ input: unknown; block: number | null }> = [];
  let ordinal = 0;
  let tool = 0;
  messages.forEach((message, m) => {
    out.push({ input: msgStart(`msg_${m}`), block: null });
    const toolIds: Array<[string, number]> = [];
    message.blocks.forEach((b, i) => {
      const mine = ordinal++;
      if (b.kind === 'tool_use') {
        const id = `toolu_${tool++}`;
        toolIds.push([id, mine]);
        out.push({ input: start(i, { type: 'tool_use', id, name: 'f', input: {} }), block: mine });
        // JSON split at arbitrary points: the fragments join to a valid object.
        const json = JSON.stringify({ parts: b.deltas });
        const cut = Math.min(b.deltas.length, json.length);
        for (let k = 0; k < cut; k++) out.push({ input: delta(i, { type: 'input_json_delta', partial_json: json.slice(k * Math.ceil(json.length / cut), (k + 1) * Math.ceil(json.length / cut)) }), block: mine });
        if (cut === 0) out.push({ input: delta(i, { type: 'input_json_delta', partial_json: json }), block: mine });
      } else {
        out.push({ input: start(i, b.kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' }), block: mine });
        for (const d of b.deltas) out.push({ input: delta(i, b.kind === 'text' ? { type: 'text_delta', text: d } : { type: 'thinking_delta', thinking: d }), block: mine });
      }
      out.push({ input: stop(i), block: mine });
    });
    out.push({ input: msgDelta(toolIds.length > 0 ? 'tool_use' : 'end_turn'), block: null });
    out.push({ input: msgStop, block: null });
    for (const [id, mine] of toolIds) out.push({ input: { type: 'tool_result', tool_use_id: id, content: 'ok' }, block: mine });
  });
  return out;
}

const isAnthropic = (input: unknown) => !['tool_result', 'tool_execution_error'].includes((input as { type: string }).type);

describe(`normaliser laws (fast-check seeds ${SEED} and ${SEED + 1})`, () => {
  test('block starts get unique indices, sequential from 0, and every delta, stop and tool record carries its block index', () => {
    console.log(`block-normalizer laws: fast-check seeds ${SEED} and ${SEED + 1}`);
    fc.assert(fc.property(turnArb, (messages) => {
      const tagged = renderTurn(messages);
      const out: BlockStreamEvent[] = [];
      const n = createBlockNormalizer({ onEvent: checked(out) });
      for (const { input, block } of tagged) {
        if (isAnthropic(input)) expect(validate('block-stream-event#/definitions/anthropicEvent', input).errors).toEqual([]);
        const before = out.length;
        n.feed(input);
        for (const e of out.slice(before)) {
          expect(e.event_type).not.toBe('error');
          if (block === null) expect(e.data.index).toBeUndefined();
          else expect(e.data.index).toBe(block);
        }
      }
      n.end();
      const starts = out.filter((e) => e.event_type === 'text_block_start' || e.event_type === 'tool_use_start').map((e) => e.data.index);
      expect(starts).toEqual(starts.map((_, i) => i));
      expect(starts).toHaveLength(messages.reduce((sum, m) => sum + m.blocks.length, 0));
    }), { seed: SEED, numRuns: 200 });
  });

  test('the normaliser is deterministic and a reset normaliser gives the same output for the same turn', () => {
    fc.assert(fc.property(turnArb, fc.boolean(), (messages, viaEnd) => {
      const inputs = renderTurn(messages).map((t) => t.input);
      const first = run(inputs);
      expect(run(inputs)).toEqual(first);
      const again: BlockStreamEvent[] = [];
      const n = createBlockNormalizer({ onEvent: (e) => again.push(e) });
      for (const input of inputs) n.feed(input);
      // end() starts afresh on its own; reset() drops a half-fed turn.
      if (viaEnd) n.end(); else n.reset();
      again.length = 0;
      for (const input of inputs) n.feed(input);
      n.end();
      expect(again).toEqual(first);
    }), { seed: SEED + 1, numRuns: 150 });
  });
});
