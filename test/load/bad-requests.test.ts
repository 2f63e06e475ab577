/**
 * Bad requests never open a stream and never reach the upstream (seed 004 § Security
 * Requirements, § Request Format; docs/gateway.md "Checks run in this order, before the body is
 * even parsed"). Generated malformed JSON, wrong types and missing fields, oversized bodies, the
 * wrong content type, missing and forged tokens (expired, not yet valid, wrong key, `alg: none`,
 * HS/RS confusion, garbage) and bad CSRF tokens each get a 4xx JSON answer whose code and reason
 * name the problem; the gateway's stream counters and the mock's request journal do not move.
 */
import fc from 'fast-check';
import { exportSPKI, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../reference-impl/gateway/start.ts';
import { asScenario, sampleRuns } from '../../harness/arbitraries/index.ts';
import { runBody } from '../gateway-fixtures.ts';
import { checkLaw, describeParams, lawParams, lawTimeout } from '../laws/law-runner.ts';
import { createSessions, gatewayStreams, mockRequestCount, openStream, startLoadStack, type LoadStack } from './load-support.ts';

const file = 'test/load/bad-requests.test.ts';
const params = lawParams(60);
const timeout = lawTimeout(params, 60);
const secret = 'a-development-secret-of-32-bytes!';
const bodyLimit = 4096;
const [run] = sampleRuns(1, params.seed, { endings: ['answer'], enhanced: false }, 'bad');
if (!run) throw new Error('sampleRuns gave no run');
const validBody = (): Record<string, unknown> => runBody(asScenario(run));
const nowSec = () => Math.floor(Date.now() / 1000);

let stack: LoadStack;
let rs: RunningGateway;
let strictCsrf: RunningGateway;
let rsaPublicPem: string;

beforeAll(async () => {
  stack = await startLoadStack([run], { auth: { mode: 'jwt', secret, clockToleranceSec: 5 }, bodyLimitBytes: bodyLimit });
  await createSessions(stack.mock.url, [run]);
  const rsa = await generateKeyPair('RS256', { extractable: true });
  rsaPublicPem = await exportSPKI(rsa.publicKey);
  rs = await startGateway({ config: { auth: { mode: 'jwt', publicKeyPem: rsaPublicPem, clockToleranceSec: 5 }, canonicalStreamEnabled: true, upstreamUrl: stack.mock.url } });
  strictCsrf = await startGateway({ config: { auth: { mode: 'jwt', secret, clockToleranceSec: 5 }, canonicalStreamEnabled: true, upstreamUrl: stack.mock.url, csrf: { skipLocalhost: false } } });
}, 60_000);
afterAll(async () => {
  await rs?.close();
  await strictCsrf?.close();
  await stack?.close();
});

const hsToken = (claims: { exp?: number; nbf?: number } = {}, key: string = secret): Promise<string> =>
  new SignJWT({ sub: 'u1', ...(claims.nbf !== undefined ? { nbf: claims.nbf } : {}) }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(claims.exp ?? nowSec() + 3600).sign(new TextEncoder().encode(key));

type Answer = { status: number; json: Record<string, unknown>; contentType: string };

/** Send one request and check the law for it: a 4xx, no stream opened, nothing forwarded upstream. */
async function refused(gateway: RunningGateway, body: string, headers: Record<string, string>): Promise<Answer> {
  const journal = await mockRequestCount(stack.mock.url);
  const streams = await gatewayStreams(gateway.url);
  const res = await fetch(`${gateway.url}/run_sse`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  const answer: Answer = { status: res.status, json: JSON.parse(text) as Record<string, unknown>, contentType: res.headers.get('content-type') ?? '' };
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(answer.contentType).toMatch(/^application\/json/);
  expect(typeof answer.json.reason).toBe('string');
  expect((answer.json.reason as string).length).toBeGreaterThan(0);
  expect((await gatewayStreams(gateway.url)).opened).toBe(streams.opened);
  expect(await mockRequestCount(stack.mock.url)).toBe(journal);
  return answer;
}

const notJson = fc.oneof(fc.string(), fc.constantFrom('{', '{"appName":', "{'appName': 'x'}", '[1,2', 'undefined', '{"a":1}}', '\u0000')).filter((t) => {
  try { JSON.parse(t); return false; } catch { return true; }
});

/** A valid body with one field broken: removed, or replaced by a value of another type. The path names it. */
const brokenField = fc.record({
  field: fc.constantFrom('/appName', '/userId', '/sessionId', '/newMessage', '/newMessage/parts', '/newMessage/role', '/streaming', '/stateDelta', '/invocationId'),
  value: fc.oneof(fc.constant('delete'), fc.constant(null), fc.integer(), fc.constant([]), fc.constant({}), fc.boolean(), fc.constant('text')),
}).filter(({ field, value }) => {
  const required = ['/appName', '/userId', '/sessionId', '/newMessage', '/newMessage/parts', '/newMessage/role'].includes(field);
  if (value === 'delete') return required;
  if (['/appName', '/userId', '/sessionId', '/invocationId'].includes(field)) return typeof value !== 'string';
  if (field === '/newMessage' || field === '/stateDelta') return value === null || typeof value !== 'object' || Array.isArray(value);
  if (field === '/newMessage/parts') return !Array.isArray(value) || value.length === 0;
  if (field === '/newMessage/role') return value !== 'user';
  return typeof value !== 'boolean';
});

function breakBody(field: string, value: unknown): Record<string, unknown> {
  const body = validBody();
  const keys = field.slice(1).split('/');
  let at = body;
  for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
  const last = keys.at(-1) as string;
  if (value === 'delete') delete at[last];
  else at[last] = value;
  return body;
}

describe(`bad requests are refused before any stream (${describeParams(params)})`, () => {
  it('a valid request with a valid token streams (the refusals below are not a broken route)', async () => {
    const res = await openStream(`${stack.gateway.url}/run_sse`, JSON.stringify(validBody()), { headers: { authorization: `Bearer ${await hsToken()}` } }).done;
    expect(res.status).toBe(200);
    expect(res.complete).toBe(true);
  });

  it('malformed JSON is 400 GW_MALFORMED_JSON', async () => {
    const token = await hsToken();
    await checkLaw(file, 'malformed JSON is 400 GW_MALFORMED_JSON', fc.asyncProperty(notJson, async (text) => {
      const a = await refused(stack.gateway, text, { authorization: `Bearer ${token}` });
      expect([a.status, a.json.code]).toEqual([400, 'GW_MALFORMED_JSON']);
    }), params);
  }, timeout);

  it('a missing or wrongly typed field is 422 GW_INVALID_REQUEST whose reason names the field', async () => {
    const token = await hsToken();
    await checkLaw(file, 'a missing or wrongly typed field is 422 GW_INVALID_REQUEST whose reason names the field', fc.asyncProperty(brokenField, async ({ field, value }) => {
      const a = await refused(stack.gateway, JSON.stringify(breakBody(field, value)), { authorization: `Bearer ${token}` });
      expect([a.status, a.json.code]).toEqual([422, 'GW_INVALID_REQUEST']);
      expect(a.json.reason as string).toMatch(new RegExp(`^${field.replace(/\//g, '\\/')}(/|:)`));
    }), params);
  }, timeout);

  it('a JSON value that is not an object is 422 GW_INVALID_REQUEST', async () => {
    const token = await hsToken();
    await checkLaw(file, 'a JSON value that is not an object is 422 GW_INVALID_REQUEST', fc.asyncProperty(fc.oneof(fc.array(fc.jsonValue(), { maxLength: 3 }), fc.integer(), fc.string(), fc.boolean(), fc.constant(null)), async (value) => {
      const a = await refused(stack.gateway, JSON.stringify(value), { authorization: `Bearer ${token}` });
      expect([a.status, a.json.code]).toEqual([422, 'GW_INVALID_REQUEST']);
    }), { ...params, numRuns: Math.max(1, Math.ceil(params.numRuns / 3)) });
  }, timeout);

  it('a body over the limit is 413 GW_BODY_TOO_LARGE, and a body that is not declared JSON is 415', async () => {
    const token = await hsToken();
    await checkLaw(file, 'a body over the limit is 413 GW_BODY_TOO_LARGE, and a body that is not declared JSON is 415', fc.asyncProperty(fc.integer({ min: bodyLimit + 1, max: bodyLimit * 8 }), async (size) => {
      const body = JSON.stringify({ ...validBody(), newMessage: { role: 'user', parts: [{ text: 'x'.repeat(size) }] } });
      const a = await refused(stack.gateway, body, { authorization: `Bearer ${token}` });
      expect([a.status, a.json.code]).toEqual([413, 'GW_BODY_TOO_LARGE']);
    }), { ...params, numRuns: Math.max(1, Math.ceil(params.numRuns / 6)) });
    const plain = await refused(stack.gateway, JSON.stringify(validBody()), { authorization: `Bearer ${token}`, 'content-type': 'text/plain' });
    expect([plain.status, plain.json.code]).toEqual([415, 'GW_UNSUPPORTED_MEDIA_TYPE']);
  }, timeout);

  it('missing, expired, not yet valid, wrongly signed, unsigned and HS/RS-confused tokens are 401 with their code', async () => {
    const body = JSON.stringify(validBody());
    const cases: Array<[RunningGateway, Record<string, string>, string]> = [
      [stack.gateway, {}, 'GW_AUTH_MISSING'],
      [stack.gateway, { authorization: 'Basic dTE6cHc=' }, 'GW_AUTH_MALFORMED'],
      [stack.gateway, { authorization: `Bearer ${await hsToken({ exp: nowSec() - 3600 })}` }, 'GW_AUTH_EXPIRED'],
      [stack.gateway, { authorization: `Bearer ${await hsToken({ nbf: nowSec() + 3600 })}` }, 'GW_AUTH_NOT_YET_VALID'],
      [stack.gateway, { authorization: `Bearer ${await hsToken({}, 'another-secret-of-at-least-32-bytes')}` }, 'GW_AUTH_BAD_SIGNATURE'],
      [stack.gateway, { authorization: `Bearer ${new UnsecuredJWT({ sub: 'u1' }).setIssuedAt().setExpirationTime(nowSec() + 3600).encode()}` }, 'GW_AUTH_ALG_NOT_ALLOWED'],
      [rs, { authorization: `Bearer ${await hsToken({}, rsaPublicPem)}` }, 'GW_AUTH_ALG_NOT_ALLOWED'],
    ];
    for (const [gateway, headers, code] of cases) {
      const a = await refused(gateway, body, headers);
      expect({ code, status: a.status, got: a.json.code }).toEqual({ code, status: 401, got: code });
    }
  });

  it('garbage bearer tokens are 401 with a GW_AUTH code', async () => {
    const body = JSON.stringify(validBody());
    const tokenChars = fc.constantFrom(...'abcXYZ019-_.='.split(''));
    await checkLaw(file, 'garbage bearer tokens are 401 with a GW_AUTH code', fc.asyncProperty(fc.array(tokenChars, { minLength: 1, maxLength: 80 }).map((c) => c.join('')), async (token) => {
      const a = await refused(stack.gateway, body, { authorization: `Bearer ${token}` });
      expect(a.status).toBe(401);
      expect(a.json.code as string).toMatch(/^GW_AUTH_/);
    }), params);
  }, timeout);

  it('a POST without the CSRF header or cookie is 403 GW_CSRF_MISSING, a forged one 403 GW_CSRF_MISMATCH', async () => {
    const body = JSON.stringify(validBody());
    const auth = { authorization: `Bearer ${await hsToken()}` };
    const { csrfToken } = (await (await fetch(`${strictCsrf.url}/_gateway/csrf`)).json()) as { csrfToken: string };
    await checkLaw(file, 'a POST without the CSRF header or cookie is 403 GW_CSRF_MISSING, a forged one 403 GW_CSRF_MISMATCH', fc.asyncProperty(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), fc.constantFrom('no-header', 'no-cookie', 'forged'), async (forged, kind) => {
      fc.pre(forged !== csrfToken);
      const headers = kind === 'no-header' ? { ...auth, cookie: `csrf_token=${csrfToken}` }
        : kind === 'no-cookie' ? { ...auth, 'x-csrf-token': csrfToken }
          : { ...auth, 'x-csrf-token': forged, cookie: `csrf_token=${csrfToken}` };
      const a = await refused(strictCsrf, body, headers);
      expect([a.status, a.json.code]).toEqual([403, kind === 'forged' ? 'GW_CSRF_MISMATCH' : 'GW_CSRF_MISSING']);
    }), params);
    const ok = await openStream(`${strictCsrf.url}/run_sse`, body, { headers: { ...auth, 'x-csrf-token': csrfToken, cookie: `csrf_token=${csrfToken}` } }).done;
    expect(ok.status).toBe(200);
  }, timeout);
});
