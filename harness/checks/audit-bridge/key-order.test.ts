import { describe, expect, it } from 'vitest';
import { byCorrelation, expectedTrails } from './expected-trail.ts';
import { checkTrailKey } from './key.ts';
import { checkTrailOrder } from './order.ts';
import { checkAuditTrail } from './trail.ts';

const inv = 'e-1';
const call = { invocationId: inv, content: { parts: [{ functionCall: { name: 't', args: {} } }] } };
const response = { invocationId: inv, content: { parts: [{ functionResponse: { name: 't', response: {} } }] } };
const answer = { invocationId: inv, content: { parts: [{ text: 'done' }] }, finishReason: 'STOP' };
const frames = [call, response, answer];

function judge(audits: Array<Record<string, unknown>>, trails: unknown[][], filedByCorrelation = false) {
  const want = expectedTrails([[], audits, []], [0, 1, 2], frames, inv);
  const keyed = expectedTrails([[], audits, []], [0, 1, 2], frames, inv, byCorrelation);
  const carried = frames.map((f, k) => ({ ...f, _audit_metadata: trails[k] }));
  const judged = checkAuditTrail('s', 's', carried, want, filedByCorrelation ? keyed : undefined);
  return { trail: judged.outcome, key: checkTrailKey('s', 's', want, keyed, judged), order: checkTrailOrder('s', 's', carried, want, judged) };
}

describe('AUD-KEY-001: trails keyed by invocation_id first', () => {
  const thread = [
    { event_type: 'tool_invocation', event_id: 'a', invocation_id: inv, correlation_id: 'thread-1', timestamp: '2025-12-27T10:00:00.000Z' },
    { event_type: 'tool_response', event_id: 'b', invocation_id: inv, correlation_id: 'thread-1', timestamp: '2025-12-27T10:00:01.000Z' },
  ];

  it('passes a bridge that files by invocation_id, where correlation_id names the session\'s thread', () => {
    const { trail, key } = judge(thread, [[], thread, thread]);
    expect([trail.status, key.status]).toEqual(['passed', 'passed']);
  });

  it('reports a bridge that filed under correlation_id as AUD-KEY-001 only, when it shows events filed under the thread', () => {
    const { trail, key } = judge(thread, [[], [], []], true);
    expect(trail.status).toBe('passed');
    expect(key.status).toBe('failed');
    expect(key.findings.map((f) => [f.code, f.path])).toEqual([['trail-keyed-by-correlation-id', 'frame[1]/_audit_metadata'], ['trail-keyed-by-correlation-id', 'frame[2]/_audit_metadata']]);
    expect(key.findings[0]!.message).toMatch(/their correlation_id is thread-1/);
  });

  it('leaves an empty trail to AUD-TRAIL-003 when nothing shows the bridge filed under the thread (an empty trail has many causes)', () => {
    const { trail, key } = judge(thread, [[], [], []], false);
    expect(trail.status).toBe('failed');
    expect(key).toMatchObject({ status: 'untested', reason: expect.stringMatching(/refused by AUD-TRAIL-003/) });
  });

  it('is untested where every event\'s correlation_id is its invocation', () => {
    const same = thread.map((e) => ({ ...e, correlation_id: inv }));
    expect(judge(same, [[], same, same]).key).toMatchObject({ status: 'untested', reason: expect.stringMatching(/no audit event named an invocation_id different from its correlation_id/) });
  });
});

describe('AUD-TRAIL-003 and AUD-ORDER-001: record order, not timestamp order', () => {
  // Recorded a, b, c; c carries the earliest timestamp (a parallel tool's response published late).
  const a = { event_type: 'tool_invocation', event_id: 'a', correlation_id: inv, timestamp: '2025-12-27T10:00:00.000Z' };
  const b = { event_type: 'tool_response', event_id: 'b', correlation_id: inv, timestamp: '2025-12-27T10:00:02.000Z' };
  const c = { event_type: 'tool_response', event_id: 'c', correlation_id: inv, timestamp: '2025-12-27T10:00:01.000Z' };

  it('passes both for record order', () => {
    const { trail, order } = judge([a, b, c], [[], [a, b, c], [a, b, c]]);
    expect([trail.status, order.status]).toEqual(['passed', 'passed']);
  });

  it('accepts a trail sorted by timestamp under the MUST and reports it under the SHOULD only', () => {
    const { trail, order } = judge([a, b, c], [[], [a, c, b], [a, c, b]]);
    expect(trail.status).toBe('passed');
    expect(order.status).toBe('failed');
    expect(order.findings[0]).toMatchObject({ code: 'trail-sorted-by-timestamp', path: 'frame[1]/_audit_metadata', expected: ['a', 'b', 'c'], actual: ['a', 'c', 'b'] });
  });

  it('fails the MUST for an order that is neither', () => {
    const { trail, order } = judge([a, b, c], [[], [b, a, c], [a, b, c]]);
    expect(trail.findings.map((f) => f.path)).toEqual(['frame[1]/_audit_metadata']);
    expect(trail.findings[0]!.message).toMatch(/neither record order nor sorted by timestamp/);
    expect(order.status).toBe('passed');
  });

  it('is untested where record order is timestamp order', () => {
    expect(judge([a, c], [[], [a, c], [a, c]]).order).toMatchObject({ status: 'untested', reason: expect.stringMatching(/no accepted trail held an event recorded after one with a later timestamp/) });
  });
});
