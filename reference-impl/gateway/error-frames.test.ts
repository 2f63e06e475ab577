import { describe, expect, it } from 'vitest';
import { readSse } from '../../core/sse.ts';
import { validate } from '../../schemas/registry.ts';
import { streamErrorFrame, timeoutFrame, upstreamDetail, upstreamStatusFrame } from './error-frames.ts';

const now = 1_729_350_300_123;

function payload(frame: string): unknown {
  const { frames } = readSse(frame);
  expect(frames).toHaveLength(1);
  return JSON.parse(frames[0]?.data ?? 'null');
}

describe('seed 004 error frames', () => {
  it('writes the TIMEOUT frame with the configured seconds in the message', () => {
    expect(timeoutFrame(300_000, now)).toBe('data: {"error": "Request timeout after 300 seconds", "error_code": "TIMEOUT", "timestamp": 1729350300.123}\n\n');
    expect(timeoutFrame(1500, 1_729_350_300_000)).toBe('data: {"error": "Request timeout after 1.5 seconds", "error_code": "TIMEOUT", "timestamp": 1729350300.0}\n\n');
  });

  it('writes the upstream status frame with status_code and detail', () => {
    expect(upstreamStatusFrame(404, 'Session not found: s1', now)).toBe('data: {"error": "ADK upstream error: 404", "status_code": 404, "detail": "Session not found: s1", "timestamp": 1729350300.123}\n\n');
  });

  it('writes the STREAM_ERROR frame', () => {
    expect(streamErrorFrame('ADK upstream connection failed: connect ECONNREFUSED 127.0.0.1:9', now)).toBe('data: {"error": "ADK upstream connection failed: connect ECONNREFUSED 127.0.0.1:9", "error_code": "STREAM_ERROR", "timestamp": 1729350300.123}\n\n');
  });

  it('matches schemas/sse-error-frame for all three frames', () => {
    for (const frame of [timeoutFrame(300_000, now), upstreamStatusFrame(500, 'Internal Server Error', now), streamErrorFrame('cut', now)]) {
      expect(validate('sse-error-frame', payload(frame))).toEqual({ valid: true, errors: [] });
    }
  });

  it('takes the detail from the ADK error body of either server', () => {
    expect(upstreamDetail(404, '{"error":"Session not found: s1"}', 'application/json; charset=utf-8')).toBe('Session not found: s1');
    expect(upstreamDetail(404, '{"detail":"Session not found: s1"}', 'application/json')).toBe('Session not found: s1');
    expect(upstreamDetail(422, '{"detail":[{"loc":["body","appName"],"msg":"Field required"}]}', 'application/json')).toBe('[{"loc":["body","appName"],"msg":"Field required"}]');
  });

  it('falls back to the body text, then to the reason phrase', () => {
    expect(upstreamDetail(500, 'Internal Server Error', 'text/plain')).toBe('Internal Server Error');
    expect(upstreamDetail(502, '', undefined)).toBe('Bad Gateway');
    expect(upstreamDetail(500, 'x'.repeat(10), 'text/html', 4)).toBe('xxxx...');
    expect(upstreamDetail(500, '{not json', 'application/json')).toBe('{not json');
  });
});
