import { describe, expect, it } from 'vitest';
import { createRedactor, defaultRedactions, redactHeaders, redactJson, safeOrigin, userRedactions } from './redact.ts';

const redactor = () => createRedactor([...defaultRedactions]);

describe('the default redaction list', () => {
  it.each([
    ['Authorization: Bearer abc.def-ghi', 'Authorization: Bearer [REDACTED]'],
    ['token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.sig-nature here', 'token [REDACTED] here'],
    ['key sk-ant-api03-abcdefghijklmnopqrstuvwx end', 'key [REDACTED] end'],
    ['AIzaSyA1234567890abcdefghijklmnopqrstuv', '[REDACTED]'],
    ['ghp_abcdefghijklmnopqrstuvwxyz0123456789', '[REDACTED]'],
    ['AKIAABCDEFGHIJKLMNOP', '[REDACTED]'],
    ['password=hunter22 and more', 'password=[REDACTED] and more'],
    ['{"api_key":"abc123"}', '{"api_key":"[REDACTED]"}'],
  ])('redacts %s', (input, output) => {
    expect(redactor().text(input)).toBe(output);
  });

  it('keeps a JSON string valid when the secret sits inside escaped text', () => {
    const frame = JSON.stringify({ text: 'use "password": "hunter22" and sk-abcdefghijklmnopqrstuvwx\nthen' });
    const out = redactor().text(frame);
    expect(out).not.toContain('hunter22');
    expect(out).not.toContain('sk-abcdefghijklmnop');
    expect(() => JSON.parse(out)).not.toThrow();
  });

  it('leaves text without secrets byte for byte alone', () => {
    const text = '{"author":"coordinator","content":{"parts":[{"text":"Cedar Creek burned 127,283 acres — 92%"}]}}';
    expect(redactor().text(text)).toBe(text);
  });

  it('counts matches per rule', () => {
    const r = redactor();
    r.text('sk-abcdefghijklmnopqrstuvwx sk-bbcdefghijklmnopqrstuvwx');
    expect(r.counts()).toEqual({ 'openai-anthropic-key': 2 });
  });
});

describe('user patterns', () => {
  it('are added to the defaults', () => {
    const r = createRedactor([...defaultRedactions, ...userRedactions(['ACME-[0-9]{6}'])]);
    expect(r.text('ticket ACME-123456 key sk-abcdefghijklmnopqrstuvwx')).toBe('ticket [REDACTED] key [REDACTED]');
  });

  it('refuse an invalid regular expression, naming it', () => {
    expect(() => userRedactions(['('])).toThrow(/--redact "\(" is not a valid regular expression/);
  });

  it('refuse a pattern that matches the empty string', () => {
    expect(() => userRedactions(['x*'])).toThrow(/matches the empty string/);
  });
});

describe('headers and values', () => {
  it('drops credential headers and cookies whatever their case', () => {
    const kept = redactHeaders([['Set-Cookie', 'sid=1'], ['authorization', 'Bearer x'], ['Content-Type', 'text/event-stream'], ['X-Api-Key', 'k']], redactor());
    expect(kept).toEqual([['Content-Type', 'text/event-stream']]);
  });

  it('redacts strings deep inside a session state', () => {
    expect(redactJson({ a: ['password: hunter22'], n: 3 }, redactor())).toEqual({ a: ['password: [REDACTED]'], n: 3 });
  });

  it('names only the origin of an upstream URL, never its credentials or query', () => {
    expect(safeOrigin('http://user:pass@127.0.0.1:8000/base?key=sk-1')).toBe('http://127.0.0.1:8000');
  });
});
