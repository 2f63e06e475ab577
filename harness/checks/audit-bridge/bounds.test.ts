import { describe, expect, it } from 'vitest';
import { checkEviction, checkTrim, type BoundsObservation } from './bounds.ts';

const bound = { maxInvocations: 50, maxEventsPerInvocation: 20 };
const eviction = (touched: number, oldest: number, fresh: number, held = 50) => ({ filled: 51, touched: { id: 'i0', trail: touched }, oldest: { id: 'i1', trail: oldest }, fresh: { id: 'i50', trail: fresh }, held });
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `e${from + i}`);
const trim = (trail: string[], exact = true) => ({ invocation: 't', recorded: ids(1, 25), trail, exact });
const kit = (o: Partial<BoundsObservation>): BoundsObservation => ({ shape: 'kit', bound, ...o });

describe('AUD-EVICT-001: which invocation a full bridge evicts', () => {
  it('passes the least recently recorded-to evicted, the touched and the new one held', () => {
    expect(checkEviction('p', kit({ eviction: eviction(2, 0, 1) })).status).toBe('passed');
  });

  it('fails a FIFO eviction (the first opened, just recorded to) and a refused new invocation, each with its code', () => {
    expect(checkEviction('p', kit({ eviction: eviction(0, 1, 1) })).findings.map((f) => f.code)).toEqual(['recent-invocation-evicted']);
    expect(checkEviction('p', kit({ eviction: eviction(2, 1, 0) })).findings.map((f) => f.code)).toEqual(['new-invocation-refused']);
    expect(checkEviction('p', kit({ eviction: eviction(2, 1, 1, 50) })).findings.map((f) => f.code)).toEqual(['oldest-invocation-kept']);
  });

  it('is untested for a bridge that evicted nothing (AUD-MEM-002\'s finding) and for seed 000 §2.2A\'s shape', () => {
    expect(checkEviction('p', kit({ eviction: eviction(2, 1, 1, 51) }))).toMatchObject({ status: 'untested', reason: expect.stringMatching(/evicted none \(AUD-MEM-002 judges the bound\)/) });
    expect(checkEviction('p', { shape: 'seed', bound })).toMatchObject({ status: 'untested', reason: expect.stringMatching(/takes no bound/) });
  });
});

describe('AUD-TRIM-001: which events a full trail keeps', () => {
  it('passes the last 20 in record order, as received', () => {
    expect(checkTrim('p', kit({ trim: trim(ids(6, 25)) })).status).toBe('passed');
  });

  it('fails the first 20 kept (new events refused), and a trail not as received', () => {
    expect(checkTrim('p', kit({ trim: trim(ids(1, 20)) })).findings.map((f) => f.code)).toEqual(['newest-events-refused']);
    expect(checkTrim('p', kit({ trim: trim(ids(6, 25), false) })).findings.map((f) => f.code)).toEqual(['trail-trimmed-wrong']);
  });

  it('is untested for a trail over its bound (AUD-MEM-002\'s finding), and a failure is the failing step\'s finding', () => {
    expect(checkTrim('p', kit({ trim: trim(ids(1, 25)) })).status).toBe('untested');
    const failure = kit({ failure: { step: 'eviction', message: 'the bridge exited', kind: 'exited' } });
    expect(checkEviction('p', failure).findings.map((f) => f.code)).toEqual(['bridge-exited']);
    expect(checkTrim('p', failure)).toMatchObject({ status: 'untested', reason: expect.stringMatching(/failed in the eviction step/) });
  });
});
