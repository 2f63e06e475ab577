import { describe, expect, it } from 'vitest';
import { checkErrorDetail, upstreamErrorText } from './error-detail.ts';
import { streamed } from './test-fixture.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const frame = (detail: string) => `data: ${JSON.stringify({ error: 'ADK upstream error: 404', status_code: 404, detail, timestamp: 1729350000.5 })}\n\n`;
const upstreamBody = enc('{"detail":"Session not found: s1"}');
const host = '127.0.0.1:8080';
const check = (detail: string, body = upstreamBody) => checkErrorDetail({ scenario: 's', exchange: streamed([frame(detail)]), upstreamStatus: 404, upstreamBody: body, upstreamHost: host })[0];

describe('upstreamErrorText', () => {
  it('reads FastAPI\'s detail, adk-js\'s error, a short text body, and the reason phrase of an empty body', () => {
    expect(upstreamErrorText(404, upstreamBody)).toBe('Session not found: s1');
    expect(upstreamErrorText(404, enc('{"error":"Session not found: s1"}'))).toBe('Session not found: s1');
    expect(upstreamErrorText(404, enc('failed to find the session\n'))).toBe('failed to find the session');
    expect(upstreamErrorText(500, new Uint8Array(0))).toBe('Internal Server Error');
  });

  it('finds no message in an event stream sent with an error status', () => {
    expect(upstreamErrorText(500, enc('data: {"a":1}\n\n'))).toBeUndefined();
  });
});

describe('checkErrorDetail (GW-ERR-006)', () => {
  it('passes the upstream\'s text, alone or inside a longer detail', () => {
    expect(check('Session not found: s1')?.status).toBe('passed');
    expect(check('Session not found: s1 (HTTP 404)')?.status).toBe('passed');
  });

  it('fails httpx\'s str(exc): the upstream URL and not the upstream\'s text', () => {
    const outcome = check(`Client error '404 Not Found' for url 'http://${host}/run_sse'`);
    expect(outcome?.status).toBe('failed');
    expect(outcome?.findings.map((f) => f.code)).toEqual(['detail-drops-upstream-text', 'frame-leaks-upstream-address']);
  });

  it('fails the reason phrase where the upstream gave a message', () => {
    expect(check('Not Found')?.findings.map((f) => f.code)).toEqual(['detail-drops-upstream-text']);
  });

  it('judges only the address when the upstream body holds no message', () => {
    const sse = enc('data: {"a":1}\n\n');
    expect(check('anything', sse)?.status).toBe('passed');
    expect(check(`for url 'http://${host}/run_sse'`, sse)?.findings.map((f) => f.code)).toEqual(['frame-leaks-upstream-address']);
  });

  it('is untested without a status frame', () => {
    const outcome = checkErrorDetail({ scenario: 's', exchange: streamed(['data: {"a":1}\n\n']), upstreamStatus: 404, upstreamBody, upstreamHost: host })[0];
    expect(outcome?.status).toBe('untested');
  });
});
