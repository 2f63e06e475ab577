import { describe, expect, it } from 'vitest';
import { checkHostClaim, type HostClaimAttempt } from './host-claim.ts';
import { streamed } from './test-fixture.ts';

const ok = (upstreamRequests = 1): HostClaimAttempt => ({ exchange: streamed(['data: {}\n\n']), upstreamRequests });
const refused = (status = 403): HostClaimAttempt => ({ exchange: streamed(['{"detail":"CSRF"}'], { status }), upstreamRequests: 0 });
const one = (plain: HostClaimAttempt, claimed: HostClaimAttempt, control = ok().exchange) => checkHostClaim('probe:csrf-host', control, [{ label: 'a POST without X-CSRF-Token', plain, claimed }]);

describe('GW-HOST-001', () => {
  it('passes a skip decided by the peer (both served) and a gateway without a skip (both refused)', () => {
    expect(one(ok(), ok()).status).toBe('passed');
    expect(one(refused(), refused()).status).toBe('passed');
  });

  it('passes a Host allow-list that refuses the localhost claim', () => {
    expect(one(ok(), refused(400)).status).toBe('passed');
  });

  it('fails a request served and forwarded only when its Host header says localhost', () => {
    const outcome = one(refused(), ok());
    expect(outcome.status).toBe('failed');
    expect(outcome.findings.map((f) => [f.code, f.expected, f.actual])).toEqual([['host-claim-skips-csrf', 403, 200], ['host-claim-forwarded', 0, 1]]);
  });

  it('proves nothing when the control request with a valid token is not served', () => {
    expect(one(refused(401), refused(401), refused(401).exchange)).toMatchObject({ status: 'untested', reason: expect.stringMatching(/valid CSRF token got HTTP 401/) });
  });

  it('is untested when a request got no answer or the journal is unreadable, naming which', () => {
    const hung = { exchange: streamed([], { ending: 'connect-failed' }), upstreamRequests: 0 };
    expect(one(hung, ok()).reason).toMatch(/with its own Host: the request to the gateway failed/);
    expect(one(ok(), { ...ok(), upstreamRequests: { error: 'ECONNREFUSED' } })).toMatchObject({ status: 'untested', reason: expect.stringMatching(/journal could not be read: ECONNREFUSED/) });
  });
});
