import { describe, expect, it } from 'vitest';
import { checkForwarding, jsonDifference } from './forwarding.ts';
import { run, script, sentBody, statuses, streamed } from './test-fixture.ts';

describe('checkForwarding (GW-PASS-002, GW-ENH-001)', () => {
  it('passes a re-serialised body with the same values', () => {
    const journal = [{ method: 'POST', url: '/run_sse', body: JSON.stringify({ ...sentBody, appName: sentBody.appName }, null, 1) }];
    expect(statuses(checkForwarding(run(script('x'), streamed(['x']), { journal })))).toEqual({ 'GW-PASS-002': 'passed' });
  });

  it('names a dropped field by its JSON pointer', () => {
    const sent = { ...sentBody, stateDelta: { fire: 'Cedar Creek' } };
    const [outcome] = checkForwarding(run(script('x'), streamed(['x']), { sent }));
    expect(outcome?.findings[0]).toMatchObject({ code: 'upstream-body-differs', path: 'upstream:body/stateDelta' });
  });

  it('fails a run forwarded twice, and an enhanced run sent to /run_sse under GW-ENH-001', () => {
    const body = JSON.stringify(sentBody);
    const twice = checkForwarding(run(script('x'), streamed(['x']), { journal: [{ method: 'POST', url: '/run_sse', body }, { method: 'POST', url: '/run_sse', body }] }));
    const enhanced = checkForwarding(run(script('x'), streamed(['x']), { endpoint: '/run_sse_enhanced' }));
    expect(twice[0]?.findings[0]?.code).toBe('upstream-request-repeated');
    expect(statuses(enhanced)).toEqual({ 'GW-PASS-002': 'passed', 'GW-ENH-001': 'failed' });
  });

  it('leaves forwarding untested when the gateway refused the request', () => {
    expect(checkForwarding(run(script('x'), streamed(['{}'], { status: 401 }), { journal: [] }))[0]?.status).toBe('untested');
  });

  it('compares JSON values whatever the key order', () => {
    expect(jsonDifference({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBeUndefined();
    expect(jsonDifference({ a: [1, 2] }, { a: [1] })).toEqual({ path: '/a/1', expected: 2, actual: undefined });
  });
});
