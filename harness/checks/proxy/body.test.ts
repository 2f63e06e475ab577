import { describe, expect, it } from 'vitest';
import type { BackendRecord } from '../../targets/proxy/backend.ts';
import { streamed } from '../gateway/test-fixture.ts';
import { checkForwardedBody } from './body.ts';

const sent = '{"appName":"a","userId":"u","sessionId":"s","newMessage":{"role":"user","parts":[{"text":"hi","thought":true}]},"stateDelta":{"ticket":12345678901234567890}}';
const record = (body: string): BackendRecord => ({ method: 'POST', url: '/run_sse', headers: {}, body, at: 0, status: 200, responseHeaders: {}, responseBody: new Uint8Array() });
const check = (records: BackendRecord[], client = streamed(['data: {}\n\n'])) => checkForwardedBody('probe:proxy-body', [{ label: 'a body', sent, client, records }]);

describe('PRX-BODY-001', () => {
  it('passes the bytes piped on, or the same value in another key order and spacing', () => {
    expect(check([record(sent)]).status).toBe('passed');
    expect(check([record(sent.replace('12345678901234567890', '1.2345678901234567890e19'))]).status).toBe('passed');
    const reordered = '{ "stateDelta": {"ticket": 12345678901234567890}, "sessionId":"s","userId":"u","appName":"a","newMessage":{"parts":[{"thought":true,"text":"hi"}],"role":"user"} }';
    expect(check([record(reordered)]).status).toBe('passed');
  });

  it('fails an integer rounded by JSON.parse and a field dropped, naming the path and both values', () => {
    const rounded = check([record(JSON.stringify(JSON.parse(sent)))]).findings[0];
    expect([rounded?.code, rounded?.path, rounded?.expected, rounded?.actual]).toEqual(['backend-body-differs', 'case[0]/backend:body/stateDelta/ticket', '12345678901234567890', '12345678901234567000']);
    const dropped = check([record(sent.replace(',"thought":true', ''))]).findings[0];
    expect([dropped?.path, dropped?.expected, dropped?.actual]).toEqual(['case[0]/backend:body/newMessage/parts/0/thought', true, null]);
  });

  it('fails a valid body that never reached the backend, and a body that is not JSON', () => {
    expect(check([], streamed(['{"error":"bad"}'], { status: 400 })).findings[0]?.code).toBe('body-not-forwarded');
    expect(check([record('appName=a')]).findings[0]?.code).toBe('backend-body-not-json');
  });

  it('is untested when the proxy gave no answer', () => {
    expect(check([], streamed([], { ending: 'connect-failed' }))).toMatchObject({ status: 'untested', reason: expect.stringMatching(/^a body: the request to the proxy failed/) });
  });
});
