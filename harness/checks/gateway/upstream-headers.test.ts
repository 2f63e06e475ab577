import { describe, expect, it } from 'vitest';
import { checkUpstreamHeaders, clientSecrets } from './upstream-headers.ts';
import { statuses } from './test-fixture.ts';

const client = { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig-of-the-client', cookie: 'csrf_token=0123456789abcdef; access_token=eyJhbGciOiJIUzI1NiJ9.e30.cookie', 'x-csrf-token': '0123456789abcdef', host: '127.0.0.1:8000' };
const upstream = (headers: Record<string, string[]>) => [{ method: 'POST', url: '/run_sse', body: '{}', headers: { host: ['127.0.0.1:8080'], 'content-type': ['application/json'], ...headers } }];
const run = (headers: Record<string, string[]>) => checkUpstreamHeaders({ scenario: 's', journal: upstream(headers), clientHeaders: client, upstreamHost: '127.0.0.1:8080' });

describe('checkUpstreamHeaders (GW-FWD-003, GW-FWD-002)', () => {
  it('passes an upstream request that carries nothing of the client\'s and names the upstream', () => {
    expect(statuses(run({}))).toEqual({ 'GW-FWD-003': 'passed', 'GW-FWD-002': 'passed' });
  });

  it('fails the client\'s bearer token and cookies sent upstream, but not the gateway\'s own credentials', () => {
    const leaked = run({ authorization: [client.authorization], cookie: [client.cookie] });
    expect(leaked[0]?.findings.map((f) => f.path)).toEqual(expect.arrayContaining(['upstream:header:authorization', 'upstream:header:cookie']));
    expect(statuses(run({ authorization: ['Bearer a-service-id-token-of-the-gateway'] }))['GW-FWD-003']).toBe('passed');
  });

  it('never copies a client credential into a finding: the report names it and its length only', () => {
    const leaked = run({ authorization: [client.authorization], cookie: [client.cookie], 'x-forwarded-csrf': [client['x-csrf-token']] });
    const text = JSON.stringify(leaked);
    for (const s of clientSecrets(client)) expect(text).not.toContain(s.value);
    expect(leaked[0]?.findings.find((f) => f.path === 'upstream:header:authorization')?.actual).toBe('authorization: Bearer [redacted: 42 characters]');
  });

  it('fails a Host header copied from the client', () => {
    const outcomes = run({ host: ['127.0.0.1:8000'] });
    expect(outcomes[1]?.findings[0]?.message).toMatch(/copied the client's Host/);
  });

  it('is untested without upstream headers to read', () => {
    expect(checkUpstreamHeaders({ scenario: 's', journal: [], clientHeaders: client, upstreamHost: 'h' }).map((o) => o.status)).toEqual(['untested', 'untested']);
    expect(clientSecrets(client).map((s) => s.what)).toEqual(['the client\'s bearer token', 'the client\'s csrf_token cookie', 'the client\'s access_token cookie', 'the client\'s X-CSRF-Token']);
  });
});
