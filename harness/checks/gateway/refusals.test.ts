import { describe, expect, it } from 'vitest';
import { checkAuth } from './auth.ts';
import { checkCsrf } from './csrf.ts';
import { streamed } from './test-fixture.ts';

const refused = (status: number) => streamed(['{"error":"no"}'], { status });

describe('refusal probes (GW-AUTH-*, GW-CSRF-002)', () => {
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

  it('GW-CSRF-002 fails a refused valid token, an accepted bad one, and a refusal that went upstream anyway', () => {
    const ok = streamed(['data: {}\n\n']);
    const attempt = (exchange = refused(403), upstreamRequests = 0) => ({ requirement: 'GW-CSRF-002', label: 'no token', path: 'header:x-csrf-token', exchange, upstreamRequests });
    expect(checkCsrf({ probe: 'probe:csrf', source: 'endpoint', control: ok, controlUpstream: 1, attempts: [attempt()] })[0]?.status).toBe('passed');
    expect(checkCsrf({ probe: 'probe:csrf', source: 'endpoint', control: refused(403), controlUpstream: 0, attempts: [attempt()] })[0]?.findings[0]?.code).toBe('valid-token-refused');
    const codes = checkCsrf({ probe: 'probe:csrf', source: 'double-submit', control: ok, controlUpstream: 1, attempts: [attempt(ok, 1), attempt(refused(403), 1)] })[0]?.findings.map((f) => f.code);
    expect(codes).toEqual(['csrf-not-checked', 'forwarded-without-valid-token', 'forwarded-without-valid-token']);
  });

  it('proves nothing when the control request is refused for another reason', () => {
    const [outcome] = checkCsrf({ probe: 'probe:csrf', source: 'double-submit', control: refused(401), controlUpstream: 0, attempts: [] });
    expect(outcome).toMatchObject({ status: 'untested' });
    expect(outcome?.reason).toMatch(/got HTTP 401, so refusals prove nothing/);
  });
});
