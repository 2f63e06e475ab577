import { describe, expect, it } from 'vitest';
import { checkTrailClearing } from './clearing.ts';
import { endsInvocation, expectedTrails, kitTrail, seedCallsFinal } from './expected-trail.ts';
import { checkAuditTrail } from './trail.ts';

const inv = 'e-1';
const call = { invocationId: inv, content: { parts: [{ functionCall: { name: 't', args: {} } }] }, finishReason: 'STOP' };
const response = { invocationId: inv, content: { parts: [{ functionResponse: { name: 't', response: {} } }] } };
const answer = { invocationId: inv, content: { parts: [{ text: 'done' }] }, finishReason: 'STOP' };

describe('the expected audit trail model', () => {
  it('gives each event the audits of the steps up to its own, and allows a clear after its final answer', () => {
    const audits = [[], [{ event_type: 'tool_invocation', event_id: 'a' }, { event_type: 'tool_response', event_id: 'b', invocation_id: inv }], [], [{ event_type: 'reasoning_step', event_id: 'c' }]];
    // Step 0 writes frame 0, step 1 frame 1, step 2 frame 2, step 3 frame 3; [DONE] is frame 4.
    const trails = expectedTrails(audits, [0, 1, 2, 3], [call, response, answer, answer, '[DONE]'], inv);
    expect(trails.map((t) => t && kitTrail(t).map((e) => e.event_id))).toEqual([[], ['a', 'b'], ['a', 'b'], ['c'], undefined]);
    expect(trails[3]!.clears).toEqual([{ frame: 2, at: 2, final: true }]);
    // An audit event naming no invocation is filed under the run's, as the enhanced endpoint does.
    expect(trails[1]!.recorded[0]).toEqual({ event_type: 'tool_invocation', event_id: 'a', correlation_id: inv });
  });

  it('treats only a final response as the end of an invocation, and seed 000 §8 an explicit partial: false', () => {
    expect(endsInvocation(answer)).toBe(true);
    expect(endsInvocation({ ...answer, partial: true })).toBe(false);
    expect(endsInvocation(call)).toBe(false);
    expect(endsInvocation({ invocationId: inv, errorCode: 'SAFETY' })).toBe(true);
    expect(endsInvocation({ invocationId: inv, actions: { skipSummarization: true }, content: response.content })).toBe(true);
    expect(endsInvocation({ invocationId: inv, usageMetadata: {} })).toBe(false);
    expect(seedCallsFinal({ ...call, partial: false })).toBe(true);
    // Python: None == False is false, so an absent partial is not final under the seed's rule.
    expect(seedCallsFinal(call)).toBe(false);
  });
});

describe('AUD-TRAIL-003 and AUD-CLEAR-001 on one streamed run with two tool rounds', () => {
  // call A (partial: false), result A, call B (partial: false), result B, the final answer.
  const frames = [{ ...call, partial: false }, response, { ...call, partial: false }, response, { ...answer, partial: false }];
  const a = [{ event_type: 'tool_invocation', event_id: 'a1', correlation_id: inv }, { event_type: 'tool_response', event_id: 'a2', correlation_id: inv }];
  const b = [{ event_type: 'tool_invocation', event_id: 'b1', correlation_id: inv }, { event_type: 'tool_response', event_id: 'b2', correlation_id: inv }];
  const want = expectedTrails([[], a, [], b, []], [0, 1, 2, 3, 4], frames, inv);
  const judge = (trails: unknown[][]) => {
    const carried = frames.map((f, k) => ({ ...f, _audit_metadata: trails[k] }));
    const trail = checkAuditTrail('s', 's', carried, want);
    return { trail: trail.outcome, clear: checkTrailClearing('s', 's', carried, want, trail.starts) };
  };

  it('passes both for the trail kept until the final answer', () => {
    const { trail, clear } = judge([[], a, a, [...a, ...b], [...a, ...b]]);
    expect([trail.status, clear.status]).toEqual(['passed', 'passed']);
  });

  it('the seed\'s rule (cleared after call B, partial: false) passes the MUST and fails only the SHOULD', () => {
    const { trail, clear } = judge([[], a, a, b, b]);
    expect(trail.status).toBe('passed');
    expect(clear.status).toBe('failed');
    expect(clear.findings.map((f) => [f.code, f.path])).toEqual([['trail-cleared-before-final', 'frame[3]/_audit_metadata'], ['trail-cleared-before-final', 'frame[4]/_audit_metadata']]);
    expect(clear.findings[0]!.message).toMatch(/the 2 recorded before event 2 \(a functionCall event marked `partial: false`/);
  });

  it('fails the MUST for a clear where neither ADK nor the seed allows one, for another invocation\'s trail, and for a trail that comes back', () => {
    expect(judge([[], a, [], b, [...a, ...b]]).trail.findings.map((f) => f.path)).toEqual(['frame[2]/_audit_metadata', 'frame[4]/_audit_metadata']);
    expect(judge([[], a, a, [...a, ...b], [{ event_type: 'tool_invocation', event_id: 'x', correlation_id: 'other' }]]).trail.status).toBe('failed');
    const back = judge([[], a, a, b, [...a, ...b]]);
    expect(back.trail.findings.map((f) => f.path)).toEqual(['frame[4]/_audit_metadata']);
  });

  it('leaves AUD-CLEAR-001 untested where no non-final partial: false event had a trail to lose', () => {
    const plain = frames.map((f) => ({ ...f, partial: undefined }));
    const w = expectedTrails([[], a, [], b, []], [0, 1, 2, 3, 4], plain, inv);
    const carried = plain.map((f, k) => ({ ...f, _audit_metadata: [[], a, a, [...a, ...b], [...a, ...b]][k] }));
    const t = checkAuditTrail('s', 's', carried, w);
    expect(checkTrailClearing('s', 's', carried, w, t.starts)).toMatchObject({ status: 'untested', reason: expect.stringMatching(/no event followed a non-final `partial: false` event/) });
  });
});
