import { afterAll, describe, expect, it } from 'vitest';
import { buildGatewayApp } from './app.ts';

const secret = 'a-development-secret-of-32-bytes!';
const off = buildGatewayApp({ auth: { mode: 'jwt', secret, clockToleranceSec: 5 } });
const on = buildGatewayApp({ auth: { mode: 'jwt', secret, clockToleranceSec: 5 }, canonicalStreamEnabled: true, exposeStats: false });
afterAll(async () => { await off.close(); await on.close(); });

describe('gateway app', () => {
  it('answers the feature flag before it looks at credentials', async () => {
    const res = await off.inject({ method: 'POST', url: '/run_sse', payload: {} });
    expect(res.statusCode).toBe(501);
    expect(res.json()).toEqual({ detail: 'ADK canonical streaming not enabled. Set ENABLE_ADK_CANONICAL_STREAM=true to use this endpoint.' });
  });

  it('checks credentials before it parses the body', async () => {
    const res = await on.inject({ method: 'POST', url: '/run_sse', headers: { 'content-type': 'application/json' }, payload: '{broken' });
    expect(res.statusCode).toBe(401);
  });

  it('protects a route that declares no access, such as another part\'s plugin', async () => {
    const res = await on.inject({ method: 'POST', url: '/normalize/turn', payload: {} });
    expect(res.json()).toEqual({ error: 'Unauthorized', code: 'GW_AUTH_MISSING', reason: 'missing bearer token' });
  });

  it('answers an unknown route with 404 in the gateway shape', async () => {
    const res = await on.inject({ method: 'GET', url: '/nope?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not Found', code: 'GW_NOT_FOUND', reason: 'no route GET /nope' });
  });

  it('serves health publicly and stats only when exposed', async () => {
    expect((await on.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok', upstream: 'http://127.0.0.1:8080', canonicalStreamEnabled: true, auth: 'jwt' });
    expect((await on.inject({ method: 'GET', url: '/_gateway/stats' })).statusCode).toBe(404);
    expect((await off.inject({ method: 'GET', url: '/_gateway/stats' })).json()).toMatchObject({ streams: { open: 0, opened: 0 }, legacy: { held: 0 } });
  });
});
