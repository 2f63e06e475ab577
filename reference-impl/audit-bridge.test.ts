import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate } from '../schemas/registry.ts';
import { schemasDir } from '../schemas/registry.ts';
import { auditEventTypes, createAuditBridge, isFinalEvent, type AuditRecord } from './audit-bridge.ts';

const actions = { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} };
const base = { invocationId: 'inv_abc123', author: 'coordinator', id: 'B8EWHkk1', actions, longRunningToolIds: [], timestamp: 1795318500511 };
const finalAnswer = { ...base, content: { role: 'model', parts: [{ text: 'Overall Confidence: 90%' }] }, finishReason: 'STOP' };

/** The valid audit-event instances of schemas/tests/audit-event.json: one per type, and more. */
function schemaExamples(): AuditRecord[] {
  const cases = JSON.parse(readFileSync(join(schemasDir, 'tests', 'audit-event.json'), 'utf8')) as Array<{ tests: Array<{ data: AuditRecord; valid: boolean }> }>;
  return cases.flatMap((c) => c.tests.filter((t) => t.valid).map((t) => t.data));
}

function audit(type: string, invocation: string, n = 0): AuditRecord {
  return { event_type: type, event_id: `evt_${n}`, timestamp: '2025-12-27T10:30:00.000Z', correlation_id: invocation, agent: 'trail_assessor', session_id: 'sess_xyz', payload: { description: `step ${n}` } };
}

describe('record and getAuditTrail', () => {
  it('records all 7 audit event types of seed 000 §3.1 and returns them in record order', () => {
    const bridge = createAuditBridge();
    const examples = schemaExamples();
    expect(new Set(examples.map((e) => e.event_type))).toEqual(new Set(auditEventTypes));
    for (const example of examples) {
      expect(validate('audit-event', example).valid).toBe(true);
      bridge.record(example);
    }
    const ids = [...new Set(examples.map((e) => e.correlation_id as string))];
    expect(bridge.getAuditTrail(ids[0] ?? '')).toEqual(examples.filter((e) => e.correlation_id === ids[0]));
    expect(bridge.stats()).toMatchObject({ events: examples.length, recorded: examples.length, evictions: 0 });
  });

  it('files an event by invocation_id when present (the seed 000 §9 flow form), else by correlation_id', () => {
    const bridge = createAuditBridge();
    expect(bridge.record({ event_type: 'tool_invocation', tool: 'classify_damage', invocation_id: 'abc-123' })).toBe('abc-123');
    expect(bridge.record({ event_type: 'tool_response', invocation_id: 'abc-123', correlation_id: 'other' })).toBe('abc-123');
    expect(bridge.record(audit('reasoning_step', 'inv_abc123'))).toBe('inv_abc123');
    expect(bridge.getAuditTrail('abc-123').map((e) => e.event_type)).toEqual(['tool_invocation', 'tool_response']);
    expect(bridge.getAuditTrail('other')).toEqual([]);
  });

  it('returns a copy: changing the returned trail or the recorded object leaves the bridge as it was', () => {
    const bridge = createAuditBridge();
    const event = audit('tool_invocation', 'inv-1');
    bridge.record(event);
    bridge.getAuditTrail('inv-1').push(audit('tool_error', 'inv-1'));
    event.event_type = 'changed';
    expect(bridge.getAuditTrail('inv-1').map((e) => e.event_type)).toEqual(['tool_invocation']);
  });

  it('returns an empty trail for an unknown invocation', () => {
    expect(createAuditBridge().getAuditTrail('nope')).toEqual([]);
  });

  it('rejects a non-object, a missing event_type and a missing invocation id with a TypeError', () => {
    const bridge = createAuditBridge();
    const bad: unknown[] = [null, 'tool_response', 42, [audit('tool_response', 'inv-1')]];
    for (const value of bad) expect(() => bridge.record(value as AuditRecord)).toThrow(/expected an audit event object/);
    expect(() => bridge.record({ correlation_id: 'inv-1' } as unknown as AuditRecord)).toThrow(/has no event_type; set it to one of tool_invocation/);
    expect(() => bridge.record({ event_type: '', correlation_id: 'inv-1' })).toThrow(TypeError);
    expect(() => bridge.record({ event_type: 'tool_response', correlation_id: '' })).toThrow(/names no invocation; set correlation_id/);
    expect(bridge.stats()).toMatchObject({ invocations: 0, events: 0, recorded: 0 });
  });

  it('refuses bounds that are not positive integers, saying how to fix them', () => {
    expect(() => createAuditBridge({ maxInvocations: 0 })).toThrow(/maxInvocations must be a positive integer, got 0; omit it for the default of 1000/);
    expect(() => createAuditBridge({ maxEventsPerInvocation: 2.5 })).toThrow(RangeError);
    expect(() => createAuditBridge(null as unknown as object)).toThrow(/options must be an object/);
  });
});

describe('bounds', () => {
  it('drops the oldest event of an invocation past maxEventsPerInvocation and counts it', () => {
    const bridge = createAuditBridge({ maxEventsPerInvocation: 3 });
    for (let n = 0; n < 5; n++) bridge.record(audit('reasoning_step', 'inv-1', n));
    expect(bridge.getAuditTrail('inv-1').map((e) => e.event_id)).toEqual(['evt_2', 'evt_3', 'evt_4']);
    expect(bridge.stats()).toEqual({ invocations: 1, events: 3, recorded: 5, evictions: 2, cleared: 0, evictedInvocations: 0, clearedInvocations: 0 });
  });

  it('evicts the least recently recorded-to invocation first past maxInvocations', () => {
    const bridge = createAuditBridge({ maxInvocations: 2 });
    bridge.record(audit('tool_invocation', 'inv-1', 1));
    bridge.record(audit('tool_invocation', 'inv-2', 2));
    bridge.record(audit('tool_response', 'inv-1', 3)); // inv-1 is now the more recent
    bridge.record(audit('tool_invocation', 'inv-3', 4));
    expect(bridge.getAuditTrail('inv-2')).toEqual([]);
    expect(bridge.getAuditTrail('inv-1')).toHaveLength(2);
    bridge.record(audit('tool_invocation', 'inv-4', 5));
    expect(bridge.getAuditTrail('inv-1')).toEqual([]);
    expect(bridge.stats()).toEqual({ invocations: 2, events: 2, recorded: 5, evictions: 3, cleared: 0, evictedInvocations: 2, clearedInvocations: 0 });
  });

  it('holds at most its bounds while 10,000 invocations pass, and every event is accounted for', () => {
    const bridge = createAuditBridge({ maxInvocations: 100, maxEventsPerInvocation: 5 });
    let maxInvocationsSeen = 0;
    let maxEventsSeen = 0;
    for (let i = 0; i < 10_000; i++) {
      for (let n = 0; n < 7; n++) bridge.record(audit(auditEventTypes[n % 7] ?? 'tool_response', `inv-${i}`, n));
      // Every tenth run ends properly; the rest are left behind, as a cut stream leaves them.
      if (i % 10 === 0) bridge.observeEvent({ ...finalAnswer, invocationId: `inv-${i}` });
      const s = bridge.stats();
      maxInvocationsSeen = Math.max(maxInvocationsSeen, s.invocations);
      maxEventsSeen = Math.max(maxEventsSeen, s.events);
    }
    const s = bridge.stats();
    expect(maxInvocationsSeen).toBe(100);
    expect(maxEventsSeen).toBe(500);
    expect(s.recorded).toBe(70_000);
    expect(s.clearedInvocations).toBe(1_000);
    expect(s.recorded).toBe(s.events + s.evictions + s.cleared);
  });

  const seed = 20261122;
  it(`keeps its bounds and its accounting over random operation sequences (fast-check seed ${seed})`, () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('record' as const), inv: fc.integer({ min: 0, max: 6 }), type: fc.constantFrom(...auditEventTypes) }),
      fc.record({ kind: fc.constant('final' as const), inv: fc.integer({ min: 0, max: 6 }) }),
      fc.record({ kind: fc.constant('clear' as const), inv: fc.integer({ min: 0, max: 6 }) }),
    );
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 60 }), (maxInvocations, maxEvents, ops) => {
      const bridge = createAuditBridge({ maxInvocations, maxEventsPerInvocation: maxEvents });
      // A reference model: an ordered list of [invocation, events] pairs, least recent first.
      let model: Array<[string, string[]]> = [];
      let n = 0;
      for (const o of ops) {
        const inv = `inv-${o.inv}`;
        if (o.kind === 'record') {
          const id = `evt_${n++}`;
          const existing = model.find(([k]) => k === inv);
          model = model.filter(([k]) => k !== inv);
          if (!existing && model.length >= maxInvocations) model.shift();
          model.push([inv, [...(existing?.[1] ?? []), id].slice(-maxEvents)]);
          bridge.record({ ...audit(o.type, inv), event_id: id });
        } else {
          model = model.filter(([k]) => k !== inv);
          if (o.kind === 'final') expect(bridge.observeEvent({ ...finalAnswer, invocationId: inv })).toBe(true);
          else bridge.clearInvocation(inv);
        }
        const s = bridge.stats();
        expect(s.invocations).toBeLessThanOrEqual(maxInvocations);
        expect(s.recorded).toBe(s.events + s.evictions + s.cleared);
      }
      for (let i = 0; i <= 6; i++) {
        const expected = model.find(([k]) => k === `inv-${i}`)?.[1] ?? [];
        expect(bridge.getAuditTrail(`inv-${i}`).map((e) => e.event_id)).toEqual(expected);
      }
    }), { seed, numRuns: 300 });
  });
});

describe('clearing', () => {
  it('clearInvocation forgets the invocation, counts it, and answers false for an unknown one', () => {
    const bridge = createAuditBridge();
    bridge.record(audit('tool_invocation', 'inv-1'));
    bridge.record(audit('tool_response', 'inv-1'));
    expect(bridge.clearInvocation('inv-1')).toBe(true);
    expect(bridge.clearInvocation('inv-1')).toBe(false);
    expect(bridge.stats()).toEqual({ invocations: 0, events: 0, recorded: 2, evictions: 0, cleared: 2, evictedInvocations: 0, clearedInvocations: 1 });
  });

  it('leaves no entry once a run has passed its final event (AUD-MEM-002)', () => {
    const bridge = createAuditBridge();
    const call = { ...base, content: { role: 'model', parts: [{ functionCall: { name: 'trail_assessor', args: {}, id: 'adk-1' } }] }, finishReason: 'STOP' };
    const result = { ...base, content: { role: 'user', parts: [{ functionResponse: { id: 'adk-1', name: 'trail_assessor', response: { result: 'ok' } } }] } };
    const injected: number[] = [];
    bridge.record(audit('tool_invocation', 'inv_abc123'));
    for (const event of [call, result, finalAnswer]) {
      if (event === result) bridge.record(audit('tool_response', 'inv_abc123'));
      // The enhanced stream injects the trail so far, then lets the bridge see the event.
      injected.push(bridge.getAuditTrail(event.invocationId).length);
      bridge.observeEvent(event);
    }
    expect(injected).toEqual([1, 2, 2]);
    expect(bridge.stats()).toMatchObject({ invocations: 0, events: 0, clearedInvocations: 1 });
  });
});

describe('isFinalEvent', () => {
  const cases: Array<[string, unknown, boolean]> = [
    ['a final text answer with finishReason', finalAnswer, true],
    ['the adk-python final without partial (non-streaming)', { ...finalAnswer, timestamp: 1767081419.786536 }, true],
    ['an aggregated partial:false final', { ...finalAnswer, partial: false }, true],
    ['a skipSummarization function response', { ...base, actions: { ...actions, skipSummarization: true }, content: { role: 'user', parts: [{ functionResponse: { name: 't', response: {} } }] } }, true],
    ['a long-running tool call', { ...base, longRunningToolIds: ['adk-1'], content: { role: 'model', parts: [{ functionCall: { name: 't' } }] } }, true],
    ['a model error event', { ...base, errorCode: 'UNKNOWN_ERROR', errorMessage: 'socket hang up' }, true],
    ['a partial chunk that carries finishReason', { ...finalAnswer, partial: true }, false],
    ['a function call event', { ...base, content: { role: 'model', parts: [{ text: 'Delegating.' }, { functionCall: { name: 't' } }] }, finishReason: 'STOP' }, false],
    ['a tool result event', { ...base, content: { role: 'user', parts: [{ functionResponse: { name: 't', response: {} } }] } }, false],
    ['an adk-js metadata-only event', { ...base, usageMetadata: { totalTokenCount: 5 }, finishReason: 'STOP', partial: false }, false],
    ['the split-off text before calls (no finishReason)', { ...base, content: { role: 'model', parts: [{ text: 'Delegating.' }] }, partial: false }, false],
    ['a thought-only event', { ...finalAnswer, content: { role: 'model', parts: [{ text: 'hmm', thought: true }] } }, false],
    ['an event without invocationId', { ...finalAnswer, invocationId: undefined }, false],
    ['an in-stream error line', { error: 'No parts in the newMessage.' }, false],
    ['an empty object', {}, false],
    ['a string', 'data: [DONE]', false],
    ['null', null, false],
  ];
  for (const [what, event, final] of cases) {
    it(`${what} is ${final ? '' : 'not '}final`, () => {
      expect(isFinalEvent(event)).toBe(final);
      const bridge = createAuditBridge();
      if (typeof (event as { invocationId?: unknown } | null)?.invocationId === 'string') bridge.record(audit('tool_response', (event as { invocationId: string }).invocationId));
      expect(bridge.observeEvent(event)).toBe(final);
    });
  }
});
