/**
 * Generated agent turns for the normaliser (fast-check, fixed seed): several Anthropic messages
 * whose block indices restart at 0, thinking / text / tool_use blocks with their deltas, the tool
 * results between messages in a shuffled order (parallel tools), pings, and sometimes deltas for
 * an LLM index no open block has (never started in the message, or already stopped). What real
 * streams also carry is mixed in: empty blocks and empty deltas, a tool input given whole on its
 * start, a record for a tool nobody called, the LLM's own `error` event, a turn cut before its
 * last blocks stopped and, on stdio, blank lines and lines that are not JSON. The checks compute
 * the expected output with their own model (harness/checks/normalizer/expected-model.ts).
 */
import fc from 'fast-check';
import { RawLine } from '../../checks/normalizer/expected-model.ts';

type BlockSpec = { kind: 'thinking' | 'text' | 'tool_use'; deltas: string[]; input: Record<string, unknown>; cuts: number[]; wholeInput?: boolean };
type OrphanSpec = { stopped: boolean; after: number; far: number };
type ToolOutcome = { key: number; error: boolean; content: unknown };
type MessageSpec = { blocks: BlockSpec[]; ping: boolean; orphans: OrphanSpec[]; outcomes: ToolOutcome[]; stray: boolean; llmError: boolean };
type NoiseSpec = { at: number; text: string };
type TurnSpec = { messages: MessageSpec[]; cut: boolean; noise: NoiseSpec[] };

// An empty delta or an empty block is rare in a real stream, and exactly what a filter drops by mistake.
const text = fc.oneof({ weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 8 }) }, { weight: 1, arbitrary: fc.constant('') });
const blockArb: fc.Arbitrary<BlockSpec> = fc.record({
  kind: fc.constantFrom('thinking' as const, 'text' as const, 'tool_use' as const),
  deltas: fc.oneof({ weight: 6, arbitrary: fc.array(text, { minLength: 1, maxLength: 3 }) }, { weight: 1, arbitrary: fc.constant<string[]>([]) }),
  input: fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxKeys: 3 }),
  cuts: fc.array(fc.nat(), { maxLength: 2 }),
  wholeInput: fc.boolean(),
});
const messageArb = (orphans: boolean): fc.Arbitrary<MessageSpec> => fc.record({
  blocks: fc.array(blockArb, { minLength: 1, maxLength: 4 }),
  ping: fc.boolean(),
  orphans: orphans ? fc.array(fc.record({ stopped: fc.boolean(), after: fc.nat(), far: fc.integer({ min: 1, max: 4 }) }), { maxLength: 2 }) : fc.constant([]),
  outcomes: fc.array(fc.record({ key: fc.nat(), error: fc.boolean(), content: fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.constant(null)) }), { minLength: 4, maxLength: 4 }),
  stray: fc.constantFrom(false, false, false, true),
  llmError: fc.constantFrom(false, false, false, false, false, false, false, true),
});
// A line that is blank, only whitespace, or not JSON: counted in the line numbers, never an input event.
const noiseArb: fc.Arbitrary<NoiseSpec> = fc.record({ at: fc.nat(), text: fc.constantFrom('', '   ', 'not json', '{"type": "ping"') });
const turnArb = (orphans: boolean, noise: boolean): fc.Arbitrary<TurnSpec> => fc.record({
  messages: fc.array(messageArb(orphans), { minLength: 1, maxLength: 4 }),
  cut: fc.constantFrom(false, false, false, true),
  noise: noise ? fc.array(noiseArb, { maxLength: 2 }) : fc.constant([]),
});

function jsonPieces(block: BlockSpec): string[] {
  const json = JSON.stringify(block.input);
  const cuts = [...new Set(block.cuts.map((c) => c % (json.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const cut of [...cuts, json.length]) { pieces.push(json.slice(from, cut)); from = cut; }
  return pieces;
}

/** One turn as its input events, in the order a turn runner feeds them. */
function buildTurn(turnSpec: TurnSpec, turn: number): unknown[] {
  const spec = turnSpec.messages;
  const events: unknown[] = [];
  let orphanCount = 0;
  spec.forEach((message, m) => {
    const last = m === spec.length - 1;
    // Only the last message ends the turn; the others stop for their tools.
    const blocks = message.blocks.map((b) => (last && b.kind === 'tool_use' ? { ...b, kind: 'text' as const } : b));
    if (!last && !blocks.some((b) => b.kind === 'tool_use')) blocks.push({ kind: 'tool_use', deltas: [], input: { m }, cuts: [] });
    const toolIds: string[] = [];
    const body: unknown[] = [];
    const stopsAt: number[] = [];
    blocks.forEach((b, index) => {
      const id = `toolu_gen_${turn}_${m}_${index}`;
      const start = b.kind === 'tool_use' ? { type: 'tool_use', id, name: `tool_${index}`, input: b.wholeInput ? b.input : {} } : b.kind === 'thinking' ? { type: 'thinking', thinking: '', signature: '' } : { type: 'text', text: '' };
      body.push({ type: 'content_block_start', index, content_block: start });
      if (index === 0 && message.ping) body.push({ type: 'ping' });
      if (b.kind === 'tool_use') {
        toolIds.push(id);
        if (!b.wholeInput) for (const p of jsonPieces(b)) body.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: p } });
      } else {
        for (const d of b.deltas) body.push({ type: 'content_block_delta', index, delta: b.kind === 'text' ? { type: 'text_delta', text: d } : { type: 'thinking_delta', thinking: d } });
        if (b.kind === 'thinking') body.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: `sig_${turn}_${m}_${index}` } });
      }
      body.push({ type: 'content_block_stop', index });
      stopsAt.push(body.length);
    });
    // Orphans, inserted from the back so earlier positions stay valid.
    const inserts = message.orphans.map((o) => {
      const payload = `orphan-${turn}-${++orphanCount}`;
      if (o.stopped) {
        const b = o.after % blocks.length;
        return { at: stopsAt[b]!, event: { type: 'content_block_delta', index: b, delta: { type: 'text_delta', text: payload } } };
      }
      return { at: 1 + (o.after % body.length), event: { type: 'content_block_delta', index: blocks.length + o.far, delta: { type: 'text_delta', text: payload } } };
    }).sort((a, b) => b.at - a.at);
    for (const i of inserts) body.splice(i.at, 0, i.event);
    events.push({ type: 'message_start', message: { id: `msg_gen_${turn}_${m}`, type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5', stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
    if (message.llmError) body.splice(body.length - 1, 0, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    // A cut turn: the last message ends before its last block stopped (no message_delta, no message_stop).
    if (last && turnSpec.cut) {
      events.push(...body.slice(0, -1));
      return;
    }
    events.push(...body);
    events.push({ type: 'message_delta', delta: { stop_reason: toolIds.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
    events.push({ type: 'message_stop' });
    // Parallel tools finish in any order.
    const order = toolIds.map((id, i) => ({ id, o: message.outcomes[i % message.outcomes.length]! })).sort((a, b) => a.o.key - b.o.key);
    for (const { id, o } of order) {
      events.push(o.error ? { type: 'tool_execution_error', tool_use_id: id, error: `generated failure of ${id}` } : { type: 'tool_result', tool_use_id: id, content: o.content });
    }
    if (message.stray) events.push({ type: 'tool_result', tool_use_id: `toolu_nobody_${turn}_${m}`, content: 'late' });
  });
  // Noise lines, inserted from the back so earlier positions stay valid.
  for (const n of [...turnSpec.noise].sort((a, b) => b.at - a.at)) events.splice(n.at % (events.length + 1), 0, new RawLine(n.text));
  return events;
}

/**
 * `count` turns from `seed`; every other one may hold deltas for unknown indices. `lines`: the turns
 * are fed as stdin lines (command mode), so they may hold lines that are not input events.
 */
export function generateTurns(seed: number, count: number, options: { lines?: boolean } = {}): unknown[][] {
  const noise = options.lines === true;
  const plain = fc.sample(turnArb(false, noise), { seed, numRuns: Math.ceil(count / 2) });
  const orphaned = fc.sample(turnArb(true, noise), { seed: seed + 1, numRuns: Math.floor(count / 2) });
  const turns: TurnSpec[] = [];
  for (let i = 0; i < count; i++) turns.push(i % 2 === 0 ? plain[i / 2]! : orphaned[(i - 1) / 2]!);
  return turns.map((spec, k) => buildTurn(spec, k));
}
