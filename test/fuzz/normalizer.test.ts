/**
 * Fuzzing the block-index normaliser (`createBlockNormalizer`, seed 003) and its stdio filter
 * (`adk-conformance normalize`, docs/normalizer.md): arbitrary JSON values and Anthropic-shaped
 * events with wrong types, unknown indices, stray stops and results, split JSON. Nothing throws
 * out; every output is a valid block-stream event; every refused input becomes an `error` event
 * with its reason and message; a turn always ends with `stream_end`.
 */
import fc from 'fast-check';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run as normalizeCli } from '../../cli/commands/normalize.ts';
import { createBlockNormalizer, type BlockStreamEvent } from '../../reference-impl/block-normalizer.ts';
import { validate } from '../../schemas/registry.ts';
import { checkLaw, describeParams, lawParams, lawTimeout } from '../laws/law-runner.ts';

const file = 'test/fuzz/normalizer.test.ts';
const params = lawParams(300);
const timeout = lawTimeout(params, 10);

const reasons = ['malformed_event', 'unknown_event_type', 'unsupported_block_type', 'unknown_block_index', 'block_already_stopped', 'delta_type_mismatch', 'invalid_tool_input', 'duplicate_tool_use_id', 'unknown_tool_use_id', 'duplicate_tool_result', 'block_not_stopped', 'upstream_error'];

const anyField: fc.Arbitrary<unknown> = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -2, max: 5 }), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.nat(3), { maxLength: 2 }), fc.constant({}));
const toolId = fc.oneof(fc.constantFrom('toolu_1', 'toolu_2'), anyField);

/** Anthropic Messages stream events and tool records, right-shaped or not, in any order. */
const anthropicishArb: fc.Arbitrary<unknown> = fc.record({
  type: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping', 'error', 'tool_result', 'tool_execution_error') }, { weight: 1, arbitrary: anyField }),
  index: fc.oneof({ weight: 4, arbitrary: fc.nat(3) }, { weight: 1, arbitrary: anyField }),
  message: fc.oneof(fc.record({ id: fc.oneof(fc.constantFrom('msg_1', 'msg_2'), anyField), model: anyField }), anyField),
  content_block: fc.oneof(fc.record({ type: fc.oneof(fc.constantFrom('text', 'thinking', 'tool_use', 'image', 'redacted_thinking'), anyField), id: toolId, name: fc.oneof(fc.constantFrom('classify_damage'), anyField), text: anyField, input: fc.oneof(fc.constant({}), anyField) }, { requiredKeys: ['type'] }), anyField),
  delta: fc.oneof(fc.record({ type: fc.oneof(fc.constantFrom('text_delta', 'thinking_delta', 'input_json_delta', 'signature_delta'), anyField), text: anyField, thinking: anyField, partial_json: fc.oneof(fc.constantFrom('{"fire_id":', '"cc"}', '{}', '', '}'), anyField), stop_reason: anyField, signature: anyField }, { requiredKeys: ['type'] }), anyField),
  tool_use_id: toolId,
  content: anyField,
  error: fc.oneof(fc.record({ message: anyField }), anyField),
  usage: anyField,
}, { requiredKeys: ['type'] });

type Block = { kind: 'text' | 'thinking' | 'tool_use'; pieces: string[]; split: number[]; result: 'ok' | 'error' | 'none' };

/** One agent turn as a real stream writes it: messages whose block indices restart at 0, tool records between them (seed 003 §3.2). */
function turnEvents(messages: Block[][]): unknown[] {
  const events: unknown[] = [];
  messages.forEach((blocks, m) => {
    events.push({ type: 'message_start', message: { id: `msg_${m}`, model: 'claude-sonnet-4-5' } });
    const tools: Array<{ id: string; result: Block['result'] }> = [];
    blocks.forEach((b, index) => {
      const id = `toolu_${m}_${index}`;
      const start = b.kind === 'tool_use' ? { type: 'tool_use', id, name: 'classify_damage', input: {} } : b.kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' };
      events.push({ type: 'content_block_start', index, content_block: start });
      if (b.kind === 'tool_use') {
        const json = JSON.stringify({ fire_id: b.pieces.join('') });
        const cuts = [...new Set(b.split.map((c) => c % (json.length + 1)))].sort((x, y) => x - y);
        [0, ...cuts].forEach((from, k) => events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(from, cuts[k] ?? json.length) } }));
        tools.push({ id, result: b.result });
      } else {
        for (const piece of b.pieces) events.push({ type: 'content_block_delta', index, delta: b.kind === 'text' ? { type: 'text_delta', text: piece } : { type: 'thinking_delta', thinking: piece } });
      }
      events.push({ type: 'content_block_stop', index });
    });
    events.push({ type: 'message_delta', delta: { stop_reason: tools.length > 0 ? 'tool_use' : 'end_turn' }, usage: { output_tokens: 12 } });
    events.push({ type: 'message_stop' });
    for (const t of tools) {
      if (t.result === 'ok') events.push({ type: 'tool_result', tool_use_id: t.id, content: { ok: true } });
      if (t.result === 'error') events.push({ type: 'tool_execution_error', tool_use_id: t.id, error: 'fixture missing' });
    }
  });
  return events;
}

const blockArb: fc.Arbitrary<Block> = fc.record({ kind: fc.constantFrom('text', 'thinking', 'tool_use'), pieces: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }), split: fc.array(fc.nat(), { maxLength: 3 }), result: fc.constantFrom('ok', 'error', 'none') });
const turnArb = fc.array(fc.array(blockArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }).map(turnEvents);

/** Small edits that break a real turn: drop, repeat or swap events, change an index, replace a field. */
type Edit = { op: 'drop' | 'repeat' | 'swap' | 'reindex' | 'replace'; at: number; value: unknown };
const editsArb = fc.array(fc.record({ op: fc.constantFrom('drop', 'repeat', 'swap', 'reindex', 'replace'), at: fc.nat(), value: anyField }), { maxLength: 3 });

function applyEdits(events: unknown[], edits: Edit[]): unknown[] {
  const out = [...events];
  for (const e of edits) {
    if (out.length === 0) break;
    const i = e.at % out.length;
    const event = out[i] as Record<string, unknown>;
    if (e.op === 'drop') out.splice(i, 1);
    else if (e.op === 'repeat') out.splice(i, 0, event);
    else if (e.op === 'swap' && i + 1 < out.length) [out[i], out[i + 1]] = [out[i + 1], out[i]];
    else if (e.op === 'reindex') out[i] = { ...event, index: e.value };
    else if (e.op === 'replace') { const keys = Object.keys(event); out[i] = { ...event, [keys[e.at % keys.length] ?? 'type']: e.value }; }
  }
  return out;
}

/** A JSON value as it arrives from JSON.parse. */
const wire = (v: unknown): unknown => JSON.parse(JSON.stringify(v) ?? 'null');
const inputsArb = fc.oneof(
  fc.tuple(turnArb, editsArb).map(([events, edits]) => applyEdits(events, edits)),
  fc.array(fc.oneof({ weight: 4, arbitrary: anthropicishArb }, { weight: 1, arbitrary: fc.jsonValue() }), { maxLength: 25 }),
).map((vs) => vs.map(wire));

function checkEvents(events: readonly BlockStreamEvent[]): void {
  for (const e of events) expect(validate('block-stream-event', e).errors).toEqual([]);
  for (const e of events.filter((x) => x.event_type === 'error')) {
    expect(typeof e.data.message).toBe('string');
    expect((e.data.message as string).length).toBeGreaterThan(0);
  }
}

async function runCli(input: string | Buffer): Promise<{ code: number; events: Array<{ event_type: string; data: Record<string, unknown> }> }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.resume();
  const done = normalizeCli([], { stdin, stdout, stderr });
  stdin.end(input);
  const code = await done;
  const text = Buffer.concat(out).toString('utf8');
  return { code, events: text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { event_type: string; data: Record<string, unknown> }) };
}

describe(`fuzzing the block-index normaliser (${describeParams(params)})`, () => {
  it('feed takes any JSON values without throwing; each refusal is an error event with its reason; end emits stream_end', async () => {
    await checkLaw(file, 'feed takes any JSON values without throwing; each refusal is an error event with its reason; end emits stream_end', fc.property(inputsArb, (inputs) => {
      const events: BlockStreamEvent[] = [];
      const normalizer = createBlockNormalizer({ onEvent: (e) => events.push(e) });
      for (const input of inputs) {
        const before = events.length;
        normalizer.feed(input);
        const emitted = events.slice(before);
        const malformed = input === null || typeof input !== 'object' || Array.isArray(input) || typeof (input as { type?: unknown }).type !== 'string';
        // "an input event must be a JSON object with a string type": one error naming that, nothing else.
        if (malformed) expect(emitted.map((e) => [e.event_type, e.data.reason])).toEqual([['error', 'malformed_event']]);
        for (const e of emitted.filter((x) => x.event_type === 'error')) expect(reasons).toContain(e.data.reason);
      }
      normalizer.end();
      checkEvents(events);
      expect(events.at(-1)?.event_type).toBe('stream_end');
      expect(events.filter((e) => e.event_type === 'stream_end')).toHaveLength(1);
      // Frontend indices are unique per conceptual block: no two block starts share one.
      const starts = events.filter((e) => e.event_type === 'text_block_start' || e.event_type === 'tool_use_start').map((e) => e.data.index);
      expect(new Set(starts).size).toBe(starts.length);
    }), params);
  }, timeout);

  it('a whole turn gets unique sequential indices and no error; the same turn edited still never throws', async () => {
    await checkLaw(file, 'a whole turn gets unique sequential indices and no error; the same turn edited still never throws', fc.property(turnArb, editsArb, (events, edits) => {
      const out: BlockStreamEvent[] = [];
      const normalizer = createBlockNormalizer({ onEvent: (e) => out.push(e) });
      for (const e of events) normalizer.feed(wire(e));
      normalizer.end();
      checkEvents(out);
      expect(out.filter((e) => e.event_type === 'error')).toEqual([]);
      const starts = out.filter((e) => e.event_type === 'text_block_start' || e.event_type === 'tool_use_start').map((e) => e.data.index);
      expect(starts).toEqual(starts.map((_, i) => i));
      const edited: BlockStreamEvent[] = [];
      const again = createBlockNormalizer({ onEvent: (e) => edited.push(e) });
      for (const e of applyEdits(events, edits)) again.feed(wire(e));
      again.end();
      checkEvents(edited);
      expect(edited.at(-1)?.event_type).toBe('stream_end');
    }), params);
  }, timeout);

  it('the normalize filter reads any lines, exits 0, names each line that is not JSON, and ends with stream_end', async () => {
    const lineArb = fc.oneof(inputsArb.map((vs) => vs.map((v) => JSON.stringify(v))), fc.array(fc.string().map((t) => t.replace(/[\r\n]/g, ' ')), { maxLength: 5 }));
    await checkLaw(file, 'the normalize filter reads any lines, exits 0, names each line that is not JSON, and ends with stream_end', fc.asyncProperty(fc.tuple(lineArb, lineArb).map(([a, b]) => [...a, ...b]), async (lines) => {
      const { code, events } = await runCli(lines.join('\n') + '\n');
      expect(code).toBe(0);
      const notJson = lines.map((l, i) => [l, i + 1] as const).filter(([l]) => {
        if (l.trim() === '') return false;
        try { JSON.parse(l); return false; } catch { return true; }
      }).map(([, n]) => n);
      expect(events.filter((e) => e.data.reason === 'invalid_json').map((e) => e.data.line)).toEqual(notJson);
      for (const e of events.filter((x) => x.event_type === 'error')) expect(typeof e.data.message).toBe('string');
      expect(events.at(-1)?.event_type).toBe('stream_end');
    }), { ...params, numRuns: Math.max(1, Math.ceil(params.numRuns / 3)) });
  }, timeout);

  it('the normalize filter reads arbitrary bytes, exits 0 and ends with stream_end', async () => {
    await checkLaw(file, 'the normalize filter reads arbitrary bytes, exits 0 and ends with stream_end', fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (bytes) => {
      const { code, events } = await runCli(Buffer.from(bytes));
      expect(code).toBe(0);
      expect(events.at(-1)?.event_type).toBe('stream_end');
    }), { ...params, numRuns: Math.max(1, Math.ceil(params.numRuns / 3)) });
  }, timeout);
});
