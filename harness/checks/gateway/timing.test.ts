import { describe, expect, it } from 'vitest';
import { checkFlushing, checkSilence, nextEventEnd } from './timing.ts';
import { script, streamed } from './test-fixture.ts';

const a = 'data: {"a":1}\n\n';
const b = 'data: {"b":2}\n\n';
const paused = (ms: number) => script(a + b, { waits: [{ offset: a.length, ms }] });

describe('checkFlushing (GW-PASS-005)', () => {
  it('passes bytes that arrived before the upstream paused', () => {
    expect(checkFlushing('s', paused(300), streamed([a, b], { gapMs: 290 }))[0]?.status).toBe('passed');
  });

  it('passes bytes that arrived well before the upstream\'s next ones, though late on a loaded machine', () => {
    expect(checkFlushing('s', paused(600), streamed([a, b], { gapMs: 235 }))[0]?.status).toBe('passed');
    expect(checkFlushing('s', paused(600), streamed([a, b], { gapMs: 100 }))[0]?.findings[0]?.code).toBe('held-back');
  });

  it('fails bytes held back until after the pause', () => {
    const [outcome] = checkFlushing('s', paused(300), streamed([a + b]));
    expect(outcome?.findings[0]).toMatchObject({ code: 'held-back', path: `byte ${a.length}` });
  });

  it('names a measured pause in whole milliseconds (a tap measures fractions)', () => {
    const [outcome] = checkFlushing('s', script(a + b, { waits: [{ offset: a.length, ms: 1498.2605670000003 }] }), streamed([a + b]));
    expect(outcome?.findings[0]?.message).toMatch(/^the upstream paused 1498 ms before byte /);
  });

  it('judges no pause shorter than 200 ms', () => {
    expect(checkFlushing('s', paused(50), streamed([a + b]))).toEqual([]);
  });
});

describe('checkSilence (GW-TIMEOUT-002)', () => {
  it('passes a stream that went on after a 1.5 s silence', () => {
    expect(checkSilence('s', paused(1500), streamed([a, b], { gapMs: 1500 }))[0]?.status).toBe('passed');
  });

  it('fails a read timeout that ends the stream in the silence, even when its frame starts like an event', () => {
    const frame = 'data: {"error": "Request timeout after 1.2 seconds", "error_code": "TIMEOUT", "timestamp": 1.0}\n\n';
    expect(checkSilence('s', paused(1500), streamed([a, frame]))[0]?.findings[0]?.code).toBe('error-frame-during-silence');
    expect(checkSilence('s', paused(1500), streamed([a]))[0]?.findings[0]?.code).toBe('ended-during-silence');
  });

  it('does not judge an error frame that came once the total timeout had elapsed since the request', () => {
    const frame = 'data: {"error": "Request timeout after 2.5 seconds", "error_code": "TIMEOUT", "timestamp": 1.0}\n\n';
    // The frame came 2,505 ms after the request: the total (2,500 ms) fired, the silence had started late.
    const [late] = checkSilence('s', paused(1750), streamed([a, frame], { gapMs: 2500 }), 2500);
    expect(late).toMatchObject({ status: 'untested', findings: [] });
    expect(late?.reason).toContain('the total timeout elapsed (2500 ms)');
    // The same frame before the total is a read timeout, whatever the total.
    expect(checkSilence('s', paused(1750), streamed([a, frame], { gapMs: 1200 }), 2500)[0]?.findings[0]?.code).toBe('error-frame-during-silence');
    // A gateway that ends the stream with nothing after the silence has no arrival to time: still judged.
    expect(checkSilence('s', paused(1750), streamed([a]), 2500)[0]?.findings[0]?.code).toBe('ended-during-silence');
  });

  it('finds the end of the next event across line-ending styles', () => {
    expect(nextEventEnd(new TextEncoder().encode(`${a}data: x\r\n\r\nrest`), a.length)).toBe(a.length + 11);
    expect(nextEventEnd(new TextEncoder().encode('data: x\r\rrest'), 0)).toBe(9);
  });
});
