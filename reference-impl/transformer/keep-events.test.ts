/**
 * A streaming consumer's transformer (keepEvents: false) and the bounds that keep a long run's
 * memory flat (docs/performance.md, "transformer: flat memory"), counted by what is retained,
 * never by timing.
 */
import { describe, expect, it } from 'vitest';
import { createTransformer } from './create-transformer.ts';
import { createEvictionRing } from './eviction-ring.ts';
import type { BriefingEvent } from './types.ts';

const fixed = () => {
  let n = 0;
  return { now: () => 1_795_318_500_000, uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
};

/** One tool round of a run: the model calls `lookup`, the tool answers. */
function round(i: number): string[] {
  const call = { invocationId: 'inv-1', author: 'coordinator', id: `e-call-${i}`, content: { role: 'model', parts: [{ functionCall: { id: `call-${i}`, name: 'lookup', args: { n: i } } }] }, actions: {} };
  const answer = { invocationId: 'inv-1', author: 'coordinator', id: `e-resp-${i}`, content: { role: 'user', parts: [{ functionResponse: { id: `call-${i}`, name: 'lookup', response: { result: `value ${i}` } } }] }, actions: {} };
  return [JSON.stringify(call), JSON.stringify(answer)];
}
const finalAnswer = JSON.stringify({ invocationId: 'inv-1', author: 'coordinator', id: 'e-final', content: { role: 'model', parts: [{ text: 'All looked up.' }] }, finishReason: 'STOP', actions: {} });

describe('transformer for streaming consumers', () => {
  it('with keepEvents false every event still reaches onEvent, events() stays empty and end() returns what it emitted', () => {
    const data = [...round(1), ...round(2), finalAnswer];
    const kept = createTransformer({ sessionId: 's', ...fixed() });
    for (const d of data) kept.pushData(d);
    const beforeEnd = kept.events().length;
    const all = kept.end();

    const seen: BriefingEvent[] = [];
    const streaming = createTransformer({ sessionId: 's', ...fixed(), keepEvents: false, onEvent: (e) => seen.push(e) });
    for (const d of data) streaming.pushData(d);
    const fromEnd = streaming.end();
    expect(seen).toEqual(all);
    expect(streaming.events()).toEqual([]);
    expect(fromEnd).toEqual(all.slice(beforeEnd));
    expect(fromEnd.at(-1)?.state).toBe('COMPLETE');
    expect(streaming.end()).toEqual([]);
  });

  it('keepEvents false without onEvent is refused, naming the option that is missing', () => {
    expect(() => createTransformer({ sessionId: 's', keepEvents: false })).toThrow(/needs the onEvent option/);
  });

  it('a run of 1,000 tool rounds lists its most recent steps and says how many it left out', () => {
    let last: BriefingEvent | undefined;
    const t = createTransformer({ sessionId: 's', ...fixed(), keepEvents: false, onEvent: (e) => { last = e; } });
    for (let i = 0; i < 1000; i++) for (const d of round(i)) t.pushData(d);
    t.pushData(finalAnswer);
    t.end();
    const chain = last?.proof_layer?.reasoning_chain ?? [];
    expect(last?.state).toBe('COMPLETE');
    expect(chain.length).toBeLessThanOrEqual(257);
    expect(chain[0]).toBe('(1744 earlier steps not listed)');
    expect(chain.at(-1)).toBe('lookup returned');
  });
});

describe('eviction ring', () => {
  it('eviction ring hands over the oldest key once more than limit keys were noted', () => {
    const evicted: string[] = [];
    const note = createEvictionRing(3, (k) => evicted.push(k));
    for (const k of ['a', 'b', 'c', 'd', 'e']) note(k);
    expect(evicted).toEqual(['a', 'b']);
  });

  it('eviction ring refuses a limit that is not a positive integer', () => {
    expect(() => createEvictionRing(0, () => {})).toThrow(/limit must be a positive integer/);
  });
});
