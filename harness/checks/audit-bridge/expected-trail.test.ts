import { describe, expect, it } from 'vitest';
import { endsInvocation, expectedTrails } from './expected-trail.ts';

const inv = 'e-1';
const call = { invocationId: inv, content: { parts: [{ functionCall: { name: 't', args: {} } }] }, finishReason: 'STOP' };
const response = { invocationId: inv, content: { parts: [{ functionResponse: { name: 't', response: {} } }] } };
const answer = { invocationId: inv, content: { parts: [{ text: 'done' }] }, finishReason: 'STOP' };

describe('the expected audit trail model', () => {
  it('gives each event the audits of the steps up to its own, and clears the invocation after its final answer', () => {
    const audits = [[], [{ event_type: 'tool_invocation', event_id: 'a' }, { event_type: 'tool_response', event_id: 'b', invocation_id: inv }], [], [{ event_type: 'reasoning_step', event_id: 'c' }]];
    // Step 0 writes frame 0, step 1 frame 1, step 2 frame 2, step 3 frame 3; [DONE] is frame 4.
    const trails = expectedTrails(audits, [0, 1, 2, 3], [call, response, answer, answer, '[DONE]'], inv);
    expect(trails.map((t) => t?.trail.map((e) => e.event_id))).toEqual([[], ['a', 'b'], ['a', 'b'], ['c'], undefined]);
    // An audit event naming no invocation is filed under the run's, as the enhanced endpoint does.
    expect(trails[1]!.trail[0]).toEqual({ event_type: 'tool_invocation', event_id: 'a', correlation_id: inv });
  });

  it('treats only a final response as the end of an invocation', () => {
    expect(endsInvocation(answer)).toBe(true);
    expect(endsInvocation({ ...answer, partial: true })).toBe(false);
    expect(endsInvocation(call)).toBe(false);
    expect(endsInvocation({ invocationId: inv, errorCode: 'SAFETY' })).toBe(true);
    expect(endsInvocation({ invocationId: inv, actions: { skipSummarization: true }, content: response.content })).toBe(true);
    expect(endsInvocation({ invocationId: inv, usageMetadata: {} })).toBe(false);
  });
});
