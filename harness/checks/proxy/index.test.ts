import { describe, expect, it } from 'vitest';
import type { BackendRecord } from '../../targets/proxy/backend.ts';
import { streamed } from '../gateway/test-fixture.ts';
import { checkAbort, checkErrorAnswers, checkHostClaim, checkProxiedRun, contentTypeChanged } from './index.ts';

const body = 'data: {"a":1}\n\n';
const token = 'tok.en.sig';
const record = (over: Partial<BackendRecord> = {}): BackendRecord => ({
  method: 'POST', url: '/run_sse', headers: { authorization: `Bearer ${token}` }, body: '{}', at: 0, status: 200,
  responseHeaders: { 'content-type': 'text/event-stream' }, responseBody: new TextEncoder().encode(body), endedAt: 5, ...over,
});
const pass001 = (clientType: string) => checkProxiedRun('s', streamed([body], { headers: [['Content-Type', clientType]] }), [record()], token).find((o) => o.requirement === 'PRX-PASS-001');

describe('PRX-PASS-001 Content-Type', () => {
  it('allows the charset=utf-8 a framework adds, as GW-HDR-001 does (case and spacing free)', () => {
    expect(pass001('text/event-stream; charset=utf-8')?.status).toBe('passed');
    expect(pass001('Text/Event-Stream;charset="UTF-8"')?.status).toBe('passed');
    expect(pass001('text/event-stream')?.status).toBe('passed');
  });

  it('still fails another media type, another charset, or a dropped parameter', () => {
    expect(pass001('application/json')?.findings[0]?.code).toBe('content-type-changed');
    expect(pass001('text/event-stream; charset=iso-8859-1')?.findings[0]?.message).toMatch(/added charset=iso-8859-1/);
    expect(contentTypeChanged('text/event-stream; charset=utf-8', 'text/event-stream')).toMatch(/dropped/);
    expect(contentTypeChanged('application/json', 'application/json; charset=utf-8')).toBeUndefined();
    expect(contentTypeChanged(undefined, undefined)).toBeUndefined();
  });
});

describe('PRX-ABORT-001', () => {
  it('leaves a refused run (403 from the backend\'s CSRF check, or the proxy\'s own) untested, never failed', () => {
    const refused = streamed(['{"detail":"CSRF token missing"}'], { status: 403 });
    const byBackend = checkAbort('probe:proxy-abort', { at: 10 }, record({ status: 403, endedAt: 12 }), 2000, refused);
    expect(byBackend.status).toBe('untested');
    expect(byBackend.reason).toMatch(/refused \(the backend answered HTTP 403\)/);
    const byProxy = checkAbort('probe:proxy-abort', { at: 10 }, undefined, 2000, streamed(['{}'], { status: 401 }));
    expect(byProxy.reason).toMatch(/the proxy answered HTTP 401 without calling the backend/);
  });

  it('still judges a stream: closed in time passes, read to its end fails', () => {
    const stream = streamed([body]);
    expect(checkAbort('p', { at: 10 }, record({ abandonedAt: 500, endedAt: undefined }), 2000, stream).status).toBe('passed');
    expect(checkAbort('p', { at: 10 }, record(), 2000, stream).findings[0]?.code).toBe('backend-not-closed');
  });
});

describe('PRX-PASS-001 on the backend\'s error answers', () => {
  const notFound = '{"detail":"Not Found"}';
  const backend404 = record({ status: 404, responseHeaders: { 'content-type': 'application/json' }, responseBody: new TextEncoder().encode(notFound) });
  it('passes an error answer passed on unchanged, and leaves out one the proxy gave itself', () => {
    const same = streamed([notFound], { status: 404, headers: [['Content-Type', 'application/json']] });
    const own = streamed(['{"error":"Unauthorized"}'], { status: 401, headers: [['Content-Type', 'application/json']] });
    expect(checkErrorAnswers('p', [{ label: '404', client: same, records: [backend404] }, { label: 'own 401', client: own, records: [] }]).status).toBe('passed');
    expect(checkErrorAnswers('p', [{ label: 'own 401', client: own, records: [] }]).status).toBe('untested');
  });

  it('fails a rewritten body or Content-Type even when the status is kept', () => {
    const rewritten = streamed([JSON.stringify({ error: notFound })], { status: 404, headers: [['Content-Type', 'application/json']] });
    expect(checkErrorAnswers('p', [{ label: '404', client: rewritten, records: [backend404] }]).findings.map((f) => f.code)).toEqual(['bytes-changed']);
    const retyped = streamed([notFound], { status: 404, headers: [['Content-Type', 'text/plain;charset=UTF-8']] });
    expect(checkErrorAnswers('p', [{ label: '404', client: retyped, records: [backend404] }]).findings.map((f) => f.code)).toEqual(['content-type-changed']);
  });
});

describe('PRX-HOST-001', () => {
  const refused = (status: number) => streamed(['{}'], { status, headers: [['Content-Type', 'application/json']] });
  const noCookie = { client: refused(401), records: [], reachedAdk: false };
  const noCsrf = { client: refused(403), records: [record({ status: 403 })], reachedAdk: false };
  it('passes refusals that ignore the Host header', () => {
    expect(checkHostClaim('p', [
      { label: 'no cookie', lacks: 'cookie', plain: noCookie, claimed: noCookie },
      { label: 'no csrf', lacks: 'csrf', plain: noCsrf, claimed: noCsrf },
    ]).status).toBe('passed');
  });

  it('fails a dev token sent for Host: localhost, and a run served without the CSRF header only for Host: localhost', () => {
    const outcome = checkHostClaim('p', [
      { label: 'no cookie', lacks: 'cookie', plain: noCookie, claimed: { client: refused(401), records: [record({ headers: { authorization: 'Bearer dev' }, status: 401 })], reachedAdk: false } },
      { label: 'no csrf', lacks: 'csrf', plain: noCsrf, claimed: { client: streamed([body]), records: [record()], reachedAdk: true } },
    ]);
    expect(outcome.findings.map((f) => f.code)).toEqual(['credential-for-host', 'host-claim-trusted', 'host-claim-forwarded']);
  });

  it('leaves a defect the Host header does not cause to PRX-AUTH-001 and PRX-CSRF-001', () => {
    const served = { client: streamed([body]), records: [record()], reachedAdk: true };
    expect(checkHostClaim('p', [{ label: 'no csrf', lacks: 'csrf', plain: served, claimed: served }]).status).toBe('passed');
  });
});
