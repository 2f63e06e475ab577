import { describe, expect, it } from 'vitest';
import { detectDialect } from './dialect.ts';

const jsEvent = '{"invocationId":"e-1","author":"a","id":"Hg7Kp2Qx","actions":{},"timestamp":1795318500511}';
const pyEvent = '{"invocationId":"e-1","author":"a","id":"0b1a6c2e-3f4d-4e5a-9b8c-7d6e5f4a3b2c","timestamp":1795318500.511}';

describe('detectDialect', () => {
  it('reads adk-js from integer-ms timestamps and 8-character ids', () => {
    const found = detectDialect([jsEvent], []);
    expect(found).toMatchObject({ dialect: 'adk-js', timestamps: 'integer-ms', ids: '8-char', server: 'unknown' });
  });

  it('reads adk-python from float-second timestamps and uuid ids', () => {
    expect(detectDialect([pyEvent], [])).toMatchObject({ dialect: 'adk-python', timestamps: 'float-seconds', ids: 'uuid' });
  });

  it('lets the events outweigh a server header a proxy may have rewritten', () => {
    expect(detectDialect([pyEvent], [['X-Powered-By', 'Express']]).dialect).toBe('adk-python');
  });

  it('falls back on the headers when no event carries an id or a timestamp', () => {
    expect(detectDialect(['{"error": "boom"}'], [['server', 'uvicorn']])).toMatchObject({ dialect: 'adk-python', server: 'uvicorn', timestamps: 'none', ids: 'none' });
  });

  it('assumes adk-js and says so when nothing tells', () => {
    const found = detectDialect([], []);
    expect(found.dialect).toBe('adk-js');
    expect(found.summary).toMatch(/could not be told/);
  });

  it('reads a float written with a point as seconds even when its fraction is zero', () => {
    expect(detectDialect(['{"invocationId":"e","id":"x","timestamp":1795318500.0}'], []).timestamps).toBe('float-seconds');
  });
});
