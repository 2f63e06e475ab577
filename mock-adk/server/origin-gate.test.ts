/**
 * adk-python 2.x's Host and Origin checks (api_server.py@024a4389 `_OriginCheckMiddleware`), on
 * the platform-free gate and on a real mock socket: a gateway that passes the browser's Host or
 * Origin on is refused with the server's plain-text 403.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from './start.ts';
import { isLoopback, python2xOriginGate } from './origin-gate.ts';
import type { MockRequest } from './route-types.ts';

const req = (headers: Record<string, string>): MockRequest => ({ method: 'POST', url: '/run_sse', params: {}, query: new URLSearchParams(), headers, body: '' });

describe('python2xOriginGate', () => {
  it('knows loopback hosts as the source does', () => {
    for (const h of ['localhost', 'LOCALHOST.', '127.0.0.1', '127.0.0.1:8000', '127.9.9.9', '[::1]:8000', '::1']) expect(isLoopback(h)).toBe(true);
    for (const h of ['evil.example', '127.0.0.1:8000.evil.com', '10.0.0.1', '[::2]']) expect(isLoopback(h)).toBe(false);
  });

  it('refuses a foreign or repeated Host on a loopback bind, and lets any Host through when the bind is unknown', () => {
    expect(python2xOriginGate(req({ host: 'app.example.com' }), '127.0.0.1')?.body).toBe('Forbidden: host not allowed');
    expect(python2xOriginGate(req({ host: '127.0.0.1:8080, evil.example' }), '127.0.0.1')?.status).toBe(403);
    expect(python2xOriginGate(req({ host: '127.0.0.1:8080' }), '127.0.0.1')).toBeUndefined();
    expect(python2xOriginGate(req({ host: 'app.example.com' }), undefined)).toBeUndefined();
  });

  it('refuses an Origin that is not the request\'s own, or not loopback on a loopback bind', () => {
    expect(python2xOriginGate(req({ host: '127.0.0.1:8080', origin: 'https://app.example.com' }), '127.0.0.1')?.body).toBe('Forbidden: origin not allowed');
    expect(python2xOriginGate(req({ host: '127.0.0.1:8080', origin: 'http://localhost:3000' }), '127.0.0.1')?.body).toBe('Forbidden: origin not allowed');
    expect(python2xOriginGate(req({ host: '127.0.0.1:8080', origin: 'http://127.0.0.1:8080' }), '127.0.0.1')).toBeUndefined();
    expect(python2xOriginGate(req({ host: '127.0.0.1:8080', 'x-forwarded-proto': 'https', origin: 'https://127.0.0.1:8080' }), '127.0.0.1')).toBeUndefined();
  });
});

describe('the adk-python@2.x mock on a loopback socket', () => {
  let py: RunningMock;
  let js: RunningMock;
  beforeAll(async () => {
    py = await startMock({ dialect: 'adk-python@2.x' });
    js = await startMock({ dialect: 'adk-js' });
  });
  afterAll(async () => { await py.close(); await js.close(); });

  const get = (base: string, headers: Record<string, string>) => new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
    const r = http.request(`${base}/list-apps`, { headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    r.on('error', reject);
    r.end();
  });

  it('answers 403 text/plain to the browser\'s Host or Origin passed on by a gateway', async () => {
    expect(await get(py.url, { host: 'app.example.com' })).toEqual({ status: 403, type: 'text/plain', body: 'Forbidden: host not allowed' });
    expect(await get(py.url, { origin: 'https://app.example.com' })).toEqual({ status: 403, type: 'text/plain', body: 'Forbidden: origin not allowed' });
    expect((await get(py.url, {})).status).toBe(200);
  });

  it('leaves the other dialects alone', async () => {
    expect((await get(js.url, { host: 'app.example.com', origin: 'https://app.example.com' })).status).toBe(200);
  });
});
