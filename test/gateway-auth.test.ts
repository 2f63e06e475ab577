/**
 * Seed 004 § Security Requirements over real sockets: bearer JWT (missing, malformed, expired,
 * not yet valid, wrong key, alg none, HS/RS confusion), CSRF with CSRF_SKIP_LOCALHOST=false, and
 * the cookie-to-bearer proxy. Each gateway is the reference one in front of the real mock.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../core/sse.ts';
import { startMock, type RunningMock } from '../mock-adk/server/start.ts';
import { readGatewayConfig } from '../reference-impl/gateway/config.ts';
import { startGateway, type RunningGateway } from '../reference-impl/gateway/start.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { createSession, getJson, rawRequest, runBody } from './gateway-fixtures.ts';

const secret = 'a-development-secret-of-32-bytes!';
const key = new TextEncoder().encode(secret);
const nowSec = () => Math.floor(Date.now() / 1000);
const plain = loadScenarios().scenarios.find((s) => s.id === 'plain_text');
if (!plain) throw new Error('the corpus has no plain_text scenario');

let mock: RunningMock;
let hs: RunningGateway;
let rs: RunningGateway;
let jwks: RunningGateway;
let strictCsrf: RunningGateway;
let rsaPublicPem: string;
let rsaPrivate: CryptoKey;
let ecPrivate: CryptoKey;

beforeAll(async () => {
  mock = await startMock({});
  await createSession(mock.url, plain.id, 'u1', 's-auth');
  const base = { canonicalStreamEnabled: true, upstreamUrl: mock.url };
  hs = await startGateway({ config: { ...base, auth: { mode: 'jwt', secret, clockToleranceSec: 5 } } });
  const rsa = await generateKeyPair('RS256', { extractable: true });
  rsaPrivate = rsa.privateKey;
  rsaPublicPem = await exportSPKI(rsa.publicKey);
  rs = await startGateway({ config: { ...base, auth: { mode: 'jwt', publicKeyPem: rsaPublicPem, clockToleranceSec: 5 } } });
  const ec = await generateKeyPair('ES256', { extractable: true });
  ecPrivate = ec.privateKey;
  const dir = mkdtempSync(join(tmpdir(), 'gw-jwks-'));
  const jwksFile = join(dir, 'jwks.json');
  writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...(await exportJWK(ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' }] }));
  jwks = await startGateway({ config: readGatewayConfig({ ENABLE_ADK_CANONICAL_STREAM: 'true', ADK_UPSTREAM_URL: mock.url, JWT_JWKS_FILE: jwksFile }) });
  strictCsrf = await startGateway({ config: readGatewayConfig({ ENABLE_ADK_CANONICAL_STREAM: 'true', ADK_UPSTREAM_URL: mock.url, JWT_SECRET: secret, CSRF_SKIP_LOCALHOST: 'false' }) });
});
afterAll(async () => {
  for (const g of [hs, rs, jwks, strictCsrf]) await g?.close();
  await mock?.close();
});

const hsToken = (build: (jwt: SignJWT) => SignJWT = (j) => j, signWith: Uint8Array = key) =>
  build(new SignJWT({ sub: 'u1' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(nowSec() + 3600)).sign(signWith);

async function post(gateway: RunningGateway, headers: Record<string, string>, path = '/run_sse') {
  const res = await rawRequest(`${gateway.url}${path}`, { body: JSON.stringify(runBody(plain!, { userId: 'u1', sessionId: 's-auth' })), headers });
  const text = res.body.toString();
  return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown>, headers: Object.fromEntries(res.rawHeaders.map(([n, v]) => [n.toLowerCase(), v])) };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('bearer JWT (GW-AUTH-001..004)', () => {
  it('streams the run for a valid HS256 token', async () => {
    const res = await post(hs, bearer(await hsToken()));
    expect(res.status).toBe(200);
    expect(readSse(res.text).frames).toHaveLength(1);
  });

  it('refuses a request without a token with 401 and a reason', async () => {
    const res = await post(hs, {});
    expect(res.status).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthorized', code: 'GW_AUTH_MISSING', reason: 'missing bearer token' });
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token", error_description="missing bearer token"');
  });

  it('refuses malformed headers and tokens', async () => {
    expect((await post(hs, { authorization: 'Token abc' })).json()).toMatchObject({ code: 'GW_AUTH_MALFORMED' });
    expect((await post(hs, bearer('not-a-jwt'))).json()).toMatchObject({ code: 'GW_AUTH_MALFORMED' });
    expect((await post(hs, bearer('a.b.c'))).json()).toMatchObject({ code: 'GW_AUTH_MALFORMED' });
  });

  it('refuses an expired token and a token not yet valid', async () => {
    const expired = await hsToken((j) => j.setIssuedAt(nowSec() - 7200).setExpirationTime(nowSec() - 60));
    expect((await post(hs, bearer(expired))).json()).toEqual({ error: 'Unauthorized', code: 'GW_AUTH_EXPIRED', reason: 'token expired' });
    const early = await hsToken((j) => j.setNotBefore(nowSec() + 600));
    expect((await post(hs, bearer(early))).json()).toEqual({ error: 'Unauthorized', code: 'GW_AUTH_NOT_YET_VALID', reason: 'token not yet valid' });
  });

  it('accepts an exp within the clock tolerance', async () => {
    const justExpired = await hsToken((j) => j.setExpirationTime(nowSec() - 1));
    expect((await post(hs, bearer(justExpired))).status).toBe(200);
  });

  it('refuses a token signed with another key', async () => {
    const other = await hsToken((j) => j, new TextEncoder().encode('another-secret-that-is-32-bytes!!'));
    expect((await post(hs, bearer(other))).json()).toEqual({ error: 'Unauthorized', code: 'GW_AUTH_BAD_SIGNATURE', reason: 'signature invalid' });
    const wrongRsa = await new SignJWT({ sub: 'u1' }).setProtectedHeader({ alg: 'RS256' }).setExpirationTime(nowSec() + 60).sign((await generateKeyPair('RS256')).privateKey);
    expect((await post(rs, bearer(wrongRsa))).json()).toMatchObject({ code: 'GW_AUTH_BAD_SIGNATURE' });
  });

  it('refuses an unsigned alg:none token on every key type', async () => {
    const none = new UnsecuredJWT({ sub: 'u1' }).setIssuedAt().setExpirationTime(nowSec() + 3600).encode();
    for (const gateway of [hs, rs, jwks]) {
      const res = await post(gateway, bearer(none));
      expect(res.status).toBe(401);
      expect(res.json()).toMatchObject({ code: expect.stringMatching(/^GW_AUTH_(ALG_NOT_ALLOWED|NO_MATCHING_KEY)$/) });
    }
  });

  it('refuses the HS/RS confusion token (HS256 keyed with the RSA public key)', async () => {
    const confused = await new SignJWT({ sub: 'u1' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(nowSec() + 3600).sign(new TextEncoder().encode(rsaPublicPem));
    expect((await post(rs, bearer(confused))).json()).toEqual({ error: 'Unauthorized', code: 'GW_AUTH_ALG_NOT_ALLOWED', reason: 'algorithm not allowed for the configured key' });
    const valid = await new SignJWT({ sub: 'u1' }).setProtectedHeader({ alg: 'RS256' }).setExpirationTime(nowSec() + 3600).sign(rsaPrivate);
    expect((await post(rs, bearer(valid))).status).toBe(200);
  });

  it('verifies ES256 against the JWKS file named by JWT_JWKS_FILE', async () => {
    const valid = await new SignJWT({ sub: 'u1' }).setProtectedHeader({ alg: 'ES256', kid: 'ec-1' }).setExpirationTime(nowSec() + 3600).sign(ecPrivate);
    expect((await post(jwks, bearer(valid))).status).toBe(200);
    expect((await post(jwks, bearer(await hsToken()))).status).toBe(401);
  });
});

describe('CSRF with CSRF_SKIP_LOCALHOST=false (GW-CSRF-002)', () => {
  it('refuses a POST without X-CSRF-Token with 403, after the token check', async () => {
    const token = await hsToken();
    expect((await post(strictCsrf, {})).status).toBe(401);
    const res = await post(strictCsrf, bearer(token));
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ error: 'Forbidden', code: 'GW_CSRF_MISSING', reason: 'missing X-CSRF-Token header' });
  });

  it('streams when the header echoes the csrf_token cookie', async () => {
    const { csrfToken } = await getJson<{ csrfToken: string }>(`${strictCsrf.url}/_gateway/csrf`);
    const res = await post(strictCsrf, { ...bearer(await hsToken()), 'x-csrf-token': csrfToken, cookie: `csrf_token=${csrfToken}` });
    expect(res.status).toBe(200);
    expect(readSse(res.text).frames).toHaveLength(1);
    const mismatch = await post(strictCsrf, { ...bearer(await hsToken()), 'x-csrf-token': csrfToken, cookie: 'csrf_token=other' });
    expect(mismatch.json()).toMatchObject({ code: 'GW_CSRF_MISMATCH' });
  });
});

describe('cookie-to-bearer proxy (GW-PROXY-002)', () => {
  it('streams the same bytes as /run_sse with the token taken from the access_token cookie', async () => {
    const token = await hsToken();
    const viaCookie = await post(hs, { cookie: `theme=dark; access_token=${token}` }, '/api/sse/run_sse');
    const viaHeader = await post(hs, bearer(token));
    expect(viaCookie.status).toBe(200);
    expect(viaCookie.text).toBe(viaHeader.text);
  });

  it('refuses the proxy without the cookie, even with an Authorization header', async () => {
    const res = await post(hs, bearer(await hsToken()), '/api/sse/run_sse');
    expect(res.status).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthorized', code: 'GW_AUTH_MISSING', reason: 'missing access_token cookie' });
    const expired = await hsToken((j) => j.setExpirationTime(nowSec() - 600));
    expect((await post(hs, { cookie: `access_token=${expired}` }, '/api/sse/run_sse')).json()).toMatchObject({ code: 'GW_AUTH_EXPIRED' });
  });

  it('never forwards the token upstream', async () => {
    const token = await hsToken();
    await post(hs, { cookie: `access_token=${token}` }, '/api/sse/run_sse');
    const journal = await getJson<{ requests: Array<{ url: string; headers: Record<string, string>; body: string }> }>(`${mock.url}/_mock/requests?sessionId=s-auth`);
    expect(journal.requests.length).toBeGreaterThan(0);
    for (const request of journal.requests) {
      expect(JSON.stringify(request)).not.toContain(token);
      expect(Object.keys(request.headers).map((h) => h.toLowerCase())).not.toContain('authorization');
    }
  });
});
