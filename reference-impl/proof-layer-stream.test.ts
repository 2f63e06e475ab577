import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { classify, createProofLayerStream, type ProofLayerStreamState } from './proof-layer-stream.ts';

const T0 = Date.UTC(2025, 11, 27, 10, 30, 0);

beforeEach(() => { vi.useFakeTimers({ now: T0 }); });
afterEach(() => { vi.useRealTimers(); });

const step = (sequence: number, text: string) => ({ proof_type: 'reasoning_step', sequence, proof_data: { step: text } });
const citation = (sequence: number, c: Record<string, unknown>) => ({ proof_type: 'citation_accessed', sequence, proof_data: { citation: c } });
const confidence = (sequence: number, value: number) => ({ proof_type: 'confidence_update', sequence, proof_data: { confidence: value } });
let ids = 0;
const briefing = (type: string, extra: Record<string, unknown> = {}) => ({ event_id: `evt-${type}-${++ids}`, correlation_id: 'inv_abc123', type, source_agent: 'trail_assessor', content: { summary: `${type} summary` }, ...extra });

describe('tier 2: buffered progressive (seed 000 §4.5)', () => {
  test('reasoning steps pushed out of order are applied in sequence order at the flush', () => {
    const stream = createProofLayerStream();
    stream.push(step(3, 'third'));
    stream.push(step(1, 'first'));
    stream.push(step(2, 'second'));
    expect(stream.getState().reasoningSteps).toEqual([]);
    vi.advanceTimersByTime(300);
    expect(stream.getState().reasoningSteps.map((s) => [s.sequence, s.text])).toEqual([[1, 'first'], [2, 'second'], [3, 'third']]);
    expect(stream.getState().reasoningSteps[0]?.timestamp).toBe(new Date(T0 + 300).toISOString());
    expect(stream.getState().eventCount).toBe(3);
  });

  test('confidence updates within one flush land in sequence order and the last sets currentConfidence', () => {
    const stream = createProofLayerStream();
    stream.push(confidence(2, 0.9));
    stream.push(confidence(1, 0.7));
    stream.flush();
    expect(stream.getState().confidenceHistory.map((c) => c.confidence)).toEqual([0.7, 0.9]);
    expect(stream.getState().currentConfidence).toBe(0.9);
  });

  test('the buffer window starts at the first buffered event and is not pushed back by later ones', () => {
    const stream = createProofLayerStream({ bufferMs: 300 });
    stream.push(step(1, 'a'));
    vi.advanceTimersByTime(200);
    stream.push(step(2, 'b'));
    vi.advanceTimersByTime(100);
    expect(stream.getState().reasoningSteps).toHaveLength(2);
  });

  test('listeners hear one notification per flush, never a half-applied batch', () => {
    const stream = createProofLayerStream();
    const seen: ProofLayerStreamState[] = [];
    stream.subscribe((s) => seen.push(s));
    for (let i = 5; i >= 1; i--) stream.push(step(i, `s${i}`));
    vi.advanceTimersByTime(300);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.reasoningSteps).toHaveLength(5);
  });

  test('a step arriving in a later flush with a lower sequence is inserted in order', () => {
    const stream = createProofLayerStream();
    stream.push(step(2, 'b'));
    vi.advanceTimersByTime(300);
    stream.push(step(1, 'a'));
    vi.advanceTimersByTime(300);
    expect(stream.getState().reasoningSteps.map((s) => s.text)).toEqual(['a', 'b']);
  });

  test('citations are deduplicated by source and identifier, first one kept', () => {
    const stream = createProofLayerStream();
    stream.push(citation(1, { source_type: 'RANGER-Fixtures', id: 'cedar-creek', uri: 'ranger://fixtures/cedar-creek', excerpt: 'first' }));
    stream.push(citation(2, { source_type: 'RANGER-Fixtures', id: 'cedar-creek', uri: 'ranger://fixtures/cedar-creek', excerpt: 'again' }));
    stream.push(citation(3, { source: 'Sentinel-2', reference_id: 'S2-2022-10-25' }));
    stream.flush();
    stream.push(briefing('INSIGHT', { proof_layer: { citations: [{ source: 'Sentinel-2', reference_id: 'S2-2022-10-25', snippet: 'dup' }, { source: 'MTBS', reference_id: 'm1' }] } }));
    expect(stream.getState().citations.map((c) => c.excerpt ?? c.reference_id)).toEqual(['first', 'S2-2022-10-25', 'm1']);
  });
});

describe('tier 1: immediate', () => {
  test('an ALERT is applied inside push, with no timer needed', () => {
    const stream = createProofLayerStream();
    const alert = briefing('ALERT');
    stream.push(alert);
    expect(stream.getState().alerts).toEqual([alert]);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('the final INSIGHT applies the pending reasoning first, then completes the stream at once', () => {
    const stream = createProofLayerStream();
    stream.push(step(1, 'Loaded 5 trails'));
    stream.push(briefing('INSIGHT', { state: 'COMPLETE', proof_layer: { confidence: 0.9, reasoning_chain: ['Loaded 5 trails', 'WL-001: TYPE_IV'] } }));
    const state = stream.getState();
    expect(state.isComplete).toBe(true);
    expect(state.reasoningSteps.map((s) => s.text)).toEqual(['Loaded 5 trails', 'WL-001: TYPE_IV']);
    expect(state.currentConfidence).toBe(0.9);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('an intermediate INSIGHT (no COMPLETE state) is applied at once but does not complete the stream', () => {
    const stream = createProofLayerStream();
    stream.push(briefing('INSIGHT', { parent_event_id: 'evt-parent' }));
    expect(stream.getState().briefings).toHaveLength(1);
    expect(stream.getState().isComplete).toBe(false);
  });

  test('isFinal decides which briefing completes the stream', () => {
    const stream = createProofLayerStream({ isFinal: (e) => e.type === 'INSIGHT' && !e.parent_event_id });
    stream.push(briefing('INSIGHT', { parent_event_id: null }));
    expect(stream.getState().isComplete).toBe(true);
  });

  test('a STATUS in the ERROR state skips the debounce', () => {
    const stream = createProofLayerStream();
    const error = briefing('STATUS', { state: 'ERROR' });
    stream.push(error);
    expect(stream.getState().errors).toEqual([error]);
    expect(stream.getState().status).toBe(error);
    expect(stream.getState().isComplete).toBe(true);
  });
});

describe('tier 3: debounced', () => {
  test('STATUS updates are debounced 300 ms and a burst lands as one notification ending on the latest', () => {
    const stream = createProofLayerStream();
    const listener = vi.fn();
    stream.subscribe(listener);
    const states = ['THINKING', 'DELEGATING', 'EXECUTING'].map((state) => briefing('STATUS', { state }));
    for (const s of states) { stream.push(s); vi.advanceTimersByTime(100); }
    expect(stream.getState().status).toBeNull();
    vi.advanceTimersByTime(199);
    expect(stream.getState().status).toBeNull();
    vi.advanceTimersByTime(1);
    expect(stream.getState().status).toBe(states[2]);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  test('a statusDebounceMs under 300 is refused, citing seed 002 §4.2', () => {
    expect(() => createProofLayerStream({ statusDebounceMs: 100 })).toThrow(/at least 300.*seed 002 §4.2/);
  });

  test('audit events and _audit_metadata are aggregated after aggregateMs of quiet', () => {
    const stream = createProofLayerStream({ aggregateMs: 1000 });
    stream.push({ event_type: 'tool_invocation', tool: 'classify_damage', invocation_id: 'abc-123' });
    vi.advanceTimersByTime(900);
    stream.push({ id: 'evt-001', invocationId: 'abc-123', _audit_metadata: [{ event_type: 'tool_response', confidence: 0.9 }] });
    vi.advanceTimersByTime(999);
    expect(stream.getState().auditLog).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(stream.getState().auditLog.map((a) => a.event_type)).toEqual(['tool_invocation', 'tool_response']);
  });
});

describe('lifecycle and bad input', () => {
  test('dispose clears every timer and drops what was pending', () => {
    const stream = createProofLayerStream();
    const listener = vi.fn();
    stream.subscribe(listener);
    stream.push(step(1, 'x'));
    stream.push(briefing('STATUS', { state: 'THINKING' }));
    stream.push({ event_type: 'data_load', payload: {} });
    expect(vi.getTimerCount()).toBe(3);
    stream.dispose();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(listener).not.toHaveBeenCalled();
    expect(() => stream.push(step(2, 'y'))).toThrow(/after dispose/);
  });

  test('unsubscribe stops notifications', () => {
    const stream = createProofLayerStream();
    const listener = vi.fn();
    const off = stream.subscribe(listener);
    off();
    stream.push(briefing('ALERT'));
    expect(listener).not.toHaveBeenCalled();
  });

  test('injected timer functions are the only ones used', () => {
    const handles: number[] = [];
    const cleared: unknown[] = [];
    const stream = createProofLayerStream({ setTimeout: (_fn, ms) => { handles.push(ms); return handles.length as never; }, clearTimeout: (h) => { cleared.push(h); } });
    stream.push(step(1, 'x'));
    stream.push(briefing('STATUS'));
    stream.push(briefing('STATUS'));
    expect(handles).toEqual([300, 300, 300]);
    expect(cleared).toEqual([2]);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('events that are none of ours are refused with a message naming what was expected', () => {
    const stream = createProofLayerStream();
    expect(() => stream.push('INSIGHT')).toThrow(/takes an event object/);
    expect(() => stream.push({ hello: 1 })).toThrow(/AgentBriefingEvent .*"hello"/);
    expect(() => stream.push({ proof_type: 'guess', sequence: 1 })).toThrow(/proof_type must be one of/);
    expect(() => stream.push({ proof_type: 'confidence_update', sequence: 1, proof_data: { confidence: 2 } })).toThrow(/proof_data.confidence \(a number from 0 to 1\)/);
    expect(stream.getState().eventCount).toBe(0);
  });

  test('classify puts each kind of event on the tier of the documented table', () => {
    const tiers = [
      briefing('ALERT'), briefing('INSIGHT'), briefing('ACTION'), briefing('STATUS', { state: 'ERROR' }),
      step(1, 'a'), citation(1, {}), confidence(1, 0.5),
      briefing('STATUS', { state: 'THINKING' }), { event_type: 'tool_response' }, { _audit_metadata: [] },
    ].map((e) => [classify(e).tier, classify(e).lane]);
    expect(tiers).toEqual([
      [1, 'immediate'], [1, 'immediate'], [1, 'immediate'], [1, 'immediate'],
      [2, 'progressive'], [2, 'progressive'], [2, 'progressive'],
      [3, 'status'], [3, 'aggregate'], [3, 'aggregate'],
    ]);
  });
});
