import { describe, expect, it } from 'vitest';
import { checkAuth } from './auth.ts';
import { checkCsrf } from './csrf.ts';
import { streamed } from './test-fixture.ts';

const refused = (status: number) => streamed(['{"error":"no"}'], { status });

describe('refusal probes (GW-AUTH-*, GW-CSRF-001)', () => {
  it('passes when every bad token gets 401 and the valid one streams', () => {
    const outcomes = checkAuth('probe:auth', streamed(['data: {}\n\n']), [
      { requirement: 'GW-AUTH-001', label: 'no token', path: 'header:authorization', exchange: refused(401) },
      { requirement: 'GW-AUTH-002', label: 'an expired token', path: 'header:authorization', exchange: refused(401) },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['passed', 'passed']);
  });

  it('fails an accepted bad token and a refusal with the wrong status', () => {
    const outcomes = checkAuth('probe:auth', streamed(['data: {}\n\n']), [
      { requirement: 'GW-AUTH-003', label: 'an unsigned token', path: 'header:authorization', exchange: streamed(['data: {}\n\n']) },
      { requirement: 'GW-AUTH-004', label: 'another key', path: 'header:authorization', exchange: refused(403) },
    ]);
    expect(outcomes.map((o) => o.findings[0]?.code)).toEqual(['accepted-invalid-token', 'wrong-refusal-status']);
  });

  it('proves nothing when the control request is refused too', () => {
    const [outcome] = checkCsrf('probe:csrf', refused(403), [{ requirement: 'GW-CSRF-001', label: 'no token', path: 'header:x-csrf-token', exchange: refused(403) }]);
    expect(outcome).toMatchObject({ status: 'untested' });
    expect(outcome?.reason).toMatch(/control request: a request with a matching CSRF token was refused \(HTTP 403\)/);
  });
});
