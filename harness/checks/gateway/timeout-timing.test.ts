import { describe, expect, it } from 'vitest';
import { checkTimeoutAbort } from './abort.ts';
import { checkTimeoutTiming, timeoutFrameOffset } from './timeout-timing.ts';
import { streamed } from './test-fixture.ts';

const frame = 'data: {"error": "Request timeout after 8 seconds", "error_code": "TIMEOUT", "timestamp": 1729350000.5}\n\n';
/** A trickle that the gateway ends with its frame `atMs` after the request. */
const trickle = (atMs: number, withFrame = true, ending: 'complete' | 'deadline' = 'complete') => {
  const x = streamed(['data: {"a":', '1}\n\ndata: {"b"', ...(withFrame ? [`\n\n${frame}`] : [])], { ending });
  x.arrivals = x.arrivals.map((a, i) => ({ ...a, t: i === 2 ? atMs : 100 * (i + 1) }));
  x.durationMs = withFrame ? atMs + 5 : atMs;
  return x;
};
const judge = (x: ReturnType<typeof streamed>) => checkTimeoutTiming({ probe: 'p', exchange: x, totalMs: 8000, upstreamMs: 11_000 })[0];

describe('checkTimeoutTiming (GW-TIMEOUT-003)', () => {
  it('passes a TIMEOUT frame at the total', () => {
    expect(judge(trickle(8010))?.status).toBe('passed');
  });

  it('fails a timeout that fired before the total, after it, or never', () => {
    expect(judge(trickle(5000))?.findings[0]?.code).toBe('timeout-early');
    expect(judge(trickle(10_500))?.findings[0]?.code).toBe('timeout-late');
    expect(judge(trickle(10_500, false, 'deadline'))?.findings[0]?.code).toBe('timeout-never-fired');
  });

  it('times a stream that ended without a frame by its end', () => {
    expect(judge(trickle(8100, false))?.status).toBe('passed');
    expect(timeoutFrameOffset(new TextEncoder().encode(`data: x\n\n${frame}`))).toBe(9);
    expect(timeoutFrameOffset(new TextEncoder().encode(`data: {"partial${frame}`))).toBe(15);
  });
});

describe('checkTimeoutAbort (GW-ABORT-002)', () => {
  const counts = (open: number, closedByClient: number) => ({ open, opened: 1, closedByClient, completed: 0 });
  it('passes an upstream closed after the timeout and fails one still open', () => {
    expect(checkTimeoutAbort('p', { ending: 'complete', session: counts(0, 1), waitedMs: 20 })[0]?.status).toBe('passed');
    expect(checkTimeoutAbort('p', { ending: 'complete', session: counts(1, 0), waitedMs: 2000 })[0]?.findings[0]?.code).toBe('upstream-open-after-timeout');
    expect(checkTimeoutAbort('p', { ending: 'deadline', session: counts(1, 0), waitedMs: 2000 })[0]?.status).toBe('untested');
  });
});
