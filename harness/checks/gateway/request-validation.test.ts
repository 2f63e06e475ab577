import { describe, expect, it } from 'vitest';
import { checkRequestValidation } from './request-validation.ts';
import { streamed } from './test-fixture.ts';

const control = { exchange: streamed(['data: {}\n\n']), upstreamRequests: 1 };
const answer = (status: number, body: string) => streamed([body], { status });

describe('checkRequestValidation (GW-REQ-001, GW-REQ-002)', () => {
  it('passes a 422 naming the field with nothing sent upstream', () => {
    const outcomes = checkRequestValidation({ probe: 'p', control, attempts: [{ label: 'userId is missing', names: ['userId'], exchange: answer(422, '{"reason":"/userId: required"}'), upstreamRequests: 0 }] });
    expect(outcomes.map((o) => o.status)).toEqual(['passed', 'passed']);
  });

  it('fails a refusal that does not name the field, and one that was forwarded first', () => {
    const outcomes = checkRequestValidation({ probe: 'p', control, attempts: [{ label: 'newMessage.role is missing', names: ['role'], exchange: answer(400, '{"error":"Bad Request"}'), upstreamRequests: 1 }] });
    expect(outcomes.map((o) => o.findings[0]?.code)).toEqual(['field-not-named', 'upstream-request-made']);
  });

  it('proves nothing when the valid body did not reach the mock exactly once', () => {
    const outcomes = checkRequestValidation({ probe: 'p', control: { ...control, upstreamRequests: 0 }, attempts: [] });
    expect(outcomes.every((o) => o.status === 'untested')).toBe(true);
  });
});
