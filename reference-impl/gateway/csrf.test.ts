import { afterAll, describe, expect, it } from 'vitest';
import { buildGatewayApp } from './app.ts';
import { isLoopbackAddress } from './csrf.ts';

// No upstream is needed: a body that fails validation (422) proves the request got past CSRF.
const app = buildGatewayApp({ auth: { mode: 'off' }, canonicalStreamEnabled: true, upstreamUrl: 'http://127.0.0.1:9' });
const strict = buildGatewayApp({ auth: { mode: 'off' }, canonicalStreamEnabled: true, upstreamUrl: 'http://127.0.0.1:9', csrf: { skipLocalhost: false } });
afterAll(async () => { await app.close(); await strict.close(); });

const post = (target = app, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  target.inject({ method: 'POST', url: '/run_sse', headers: { 'content-type': 'application/json', host: 'localhost:8000', ...headers }, remoteAddress, payload: '{}' });

describe('CSRF (seed 004 § CSRF Protection)', () => {
  it('skips the check for a request from and to localhost', async () => {
    expect((await post()).statusCode).toBe(422);
    expect((await post(app, { host: '127.0.0.1:8000' }, '::ffff:127.0.0.1')).statusCode).toBe(422);
  });

  it('refuses a non-local POST without the header with 403 and a reason', async () => {
    const res = await post(app, {}, '10.0.0.5');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'Forbidden', code: 'GW_CSRF_MISSING', reason: 'missing X-CSRF-Token header' });
  });

  it('does not treat a loopback peer as local when the Host, a proxy header or a browser Origin says otherwise', async () => {
    expect((await post(app, { host: 'gateway.example.com' })).statusCode).toBe(403);
    expect((await post(app, { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
    expect((await post(app, { forwarded: 'for=203.0.113.9' })).statusCode).toBe(403);
    expect((await post(app, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await post(app, { origin: 'http://localhost:3000' })).statusCode).toBe(422);
  });

  it('accepts the double-submit token issued by GET /_gateway/csrf', async () => {
    const issued = await strict.inject({ method: 'GET', url: '/_gateway/csrf' });
    const { csrfToken } = issued.json() as { csrfToken: string };
    expect(issued.headers['set-cookie']).toBe(`csrf_token=${csrfToken}; Path=/; SameSite=Strict`);
    expect((await post(strict, { 'x-csrf-token': csrfToken, cookie: `csrf_token=${csrfToken}` })).statusCode).toBe(422);
  });

  it('refuses a token that does not match its cookie, or a header without a cookie', async () => {
    const mismatch = await post(strict, { 'x-csrf-token': 'a'.repeat(43), cookie: `csrf_token=${'b'.repeat(43)}` });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json()).toMatchObject({ code: 'GW_CSRF_MISMATCH' });
    const noCookie = await post(strict, { 'x-csrf-token': 'a'.repeat(43) });
    expect(noCookie.json()).toMatchObject({ code: 'GW_CSRF_MISSING', reason: 'missing csrf_token cookie (GET /_gateway/csrf sets it)' });
  });

  it('checks local requests too when CSRF_SKIP_LOCALHOST is false', async () => {
    expect((await post(strict)).statusCode).toBe(403);
  });

  it('leaves GET requests alone', async () => {
    const res = await strict.inject({ method: 'GET', url: '/apps/a/users/u/sessions/s/run', remoteAddress: '10.0.0.5' });
    expect(res.json()).toMatchObject({ code: 'GW_LEGACY_RUN_NOT_FOUND' });
  });

  it('knows the loopback addresses', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].every(isLoopbackAddress)).toBe(true);
    expect(['10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', '', '::2'].some(isLoopbackAddress)).toBe(false);
  });
});
