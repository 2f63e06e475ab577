import { describe, expect, it } from 'vitest';
import { checkTerminalFrame, closingLineEnds, eventsBefore, type TerminalCase } from './terminal-frame.ts';
import { statuses, streamed } from './test-fixture.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const statusFrame = 'data: {"error": "ADK upstream error: 404", "status_code": 404, "detail": "Session not found: s1", "timestamp": 1729350000.5}\n\n';
const streamError = 'data: {"error": "ADK upstream stream broken: aborted", "error_code": "STREAM_ERROR", "timestamp": 1729350000.5}\n\n';
const partial = 'data: {"a":1}\n\ndata: {"b":';

const statusCase = (writes: string[], more: Partial<TerminalCase> = {}): TerminalCase => ({ scenario: 's', exchange: streamed(writes), prefix: new Uint8Array(0), kind: 'status', upstreamStatus: 404, cause: 'the upstream answered HTTP 404', ...more });

describe('checkTerminalFrame (GW-ERR-001..005, GW-TIMEOUT-001)', () => {
  it('passes the seed\'s status frame alone', () => {
    expect(statuses(checkTerminalFrame(statusCase([statusFrame])))).toEqual({ 'GW-ERR-001': 'passed', 'GW-ERR-003': 'passed', 'GW-ERR-005': 'passed' });
  });

  it('fails GW-ERR-003 alone for a repeated frame', () => {
    const outcomes = checkTerminalFrame(statusCase([statusFrame, statusFrame]));
    expect(statuses(outcomes)).toEqual({ 'GW-ERR-001': 'passed', 'GW-ERR-003': 'failed', 'GW-ERR-005': 'passed' });
    expect(outcomes[1]?.findings[0]?.code).toBe('extra-frames');
  });

  it('fails GW-ERR-001 for a frame that misnames the status', () => {
    const outcomes = checkTerminalFrame(statusCase([statusFrame.replace('"status_code": 404', '"status_code": 500')]));
    expect(outcomes[0]?.findings[0]).toMatchObject({ code: 'error-frame-field', path: 'frame[0]/status_code' });
  });

  it('wants a partial upstream line closed before a STREAM_ERROR frame, and fails GW-ERR-004 alone when it is glued on', () => {
    const good = checkTerminalFrame({ scenario: 's', exchange: streamed([partial, `\n\n${streamError}`]), prefix: enc(partial), kind: 'stream-error', cause: 'the upstream broke' });
    const glued = checkTerminalFrame({ scenario: 's', exchange: streamed([partial, streamError]), prefix: enc(partial), kind: 'stream-error', cause: 'the upstream broke' });
    const half = checkTerminalFrame({ scenario: 's', exchange: streamed([partial, `\n${streamError}`]), prefix: enc(partial), kind: 'stream-error', cause: 'the upstream broke' });
    expect(statuses(good)).toEqual({ 'GW-ERR-002': 'passed', 'GW-ERR-003': 'passed', 'GW-ERR-004': 'passed', 'GW-ERR-005': 'passed' });
    expect(statuses(glued)).toEqual({ 'GW-ERR-002': 'passed', 'GW-ERR-003': 'passed', 'GW-ERR-004': 'failed', 'GW-ERR-005': 'passed' });
    expect(glued.find((o) => o.requirement === 'GW-ERR-004')?.findings[0]?.code).toBe('frame-not-own-event');
    expect(statuses(half)['GW-ERR-004']).toBe('failed');
    // Nothing at all after the partial bytes: the event is never closed, and the message says no frame came.
    const none = checkTerminalFrame({ scenario: 's', exchange: streamed([partial]), prefix: enc(partial), kind: 'stream-error', cause: 'the upstream broke' });
    expect(none.find((o) => o.requirement === 'GW-ERR-004')?.findings[0]?.message).toMatch(/the gateway wrote nothing after the partial bytes, so the broken event is never closed/);
  });

  it('wants a finished data line of a cut event ended by a blank line before the frame', () => {
    const line = 'data: {"a":1}\n\ndata: {"b":2}\n';
    const ok = checkTerminalFrame({ scenario: 's', exchange: streamed([line, `\n${streamError}`]), prefix: enc(line), kind: 'stream-error', cause: 'the upstream broke' });
    const glued = checkTerminalFrame({ scenario: 's', exchange: streamed([line, streamError]), prefix: enc(line), kind: 'stream-error', cause: 'the upstream broke' });
    expect(statuses(ok)['GW-ERR-004']).toBe('passed');
    expect(statuses(glued)['GW-ERR-004']).toBe('failed');
    expect(closingLineEnds(enc('data: x\r'))).toBe('\n');
    expect(closingLineEnds(enc('data: x\r\n\r\n'))).toBe('');
    expect(closingLineEnds(enc(': comment\n'))).toBe('\n');
  });

  it('fails GW-ERR-005 alone for a timestamp in milliseconds', () => {
    const outcomes = checkTerminalFrame(statusCase([statusFrame.replace('1729350000.5', '1729350000500')]));
    expect(statuses(outcomes)).toEqual({ 'GW-ERR-001': 'passed', 'GW-ERR-003': 'passed', 'GW-ERR-005': 'failed' });
    expect(outcomes.find((o) => o.requirement === 'GW-ERR-005')?.findings[0]?.message).toMatch(/milliseconds/);
  });

  it('fails a gateway that never ends the stream after its frame', () => {
    const outcomes = checkTerminalFrame(statusCase([statusFrame], { exchange: streamed([statusFrame], { ending: 'deadline' }) }));
    expect(outcomes[1]?.findings.map((f) => f.code)).toEqual(['stream-not-ended']);
  });

  it('judges a timeout under GW-TIMEOUT-001 alone, counting the events before it', () => {
    const timeout = 'data: {"error": "Request timeout after 0.5 seconds", "error_code": "TIMEOUT", "timestamp": 1729350000.5}\n\n';
    const upstream = 'data: {"a":1}\n\ndata: {"b":2}\n\n';
    const ok = checkTerminalFrame({ scenario: 's', exchange: streamed([upstream, timeout]), prefix: enc(upstream), kind: 'timeout', cause: 'timeout' });
    const lost = checkTerminalFrame({ scenario: 's', exchange: streamed(['data: {"a":1}\n\n', timeout]), prefix: enc(upstream), kind: 'timeout', cause: 'timeout' });
    expect(statuses(ok)).toEqual({ 'GW-TIMEOUT-001': 'passed', 'GW-ERR-005': 'passed' });
    expect(lost[0]?.findings[0]?.code).toBe('events-lost');
  });

  it('counts the events the upstream ended apart from the fragment it broke inside', () => {
    expect(eventsBefore(enc(partial))).toEqual({ complete: 1, fragment: 1 });
    expect(eventsBefore(enc('data: {"a":1}\n\ndata: {"b":2}\n'))).toEqual({ complete: 1, fragment: 1 });
    expect(eventsBefore(enc('data: {"a":1}\r\n\r\n'))).toEqual({ complete: 1, fragment: 0 });
    expect(eventsBefore(new Uint8Array(0))).toEqual({ complete: 0, fragment: 0 });
  });

  it('passes GW-ERR-003 for a gateway that forwards whole lines and never sends the fragment (it is not an event the upstream sent)', () => {
    // Seed 004's own loop (`async for line in upstream.aiter_lines()`) never yields a line the upstream did not end.
    const dropped = checkTerminalFrame({ scenario: 's', exchange: streamed(['data: {"a":1}\n\n', streamError]), prefix: enc(partial), kind: 'stream-error', cause: 'the upstream broke' });
    expect(statuses(dropped)['GW-ERR-003']).toBe('passed');
    expect(statuses(dropped)['GW-ERR-002']).toBe('passed');
    // The fragment closed and dispatched (GW-ERR-004's way) passes too; a complete event lost, or one more frame, still fails.
    expect(statuses(checkTerminalFrame({ scenario: 's', exchange: streamed([partial, `\n\n${streamError}`]), prefix: enc(partial), kind: 'stream-error', cause: 'the upstream broke' }))['GW-ERR-003']).toBe('passed');
    const lost = checkTerminalFrame({ scenario: 's', exchange: streamed([streamError]), prefix: enc(partial), kind: 'stream-error', cause: 'the upstream broke' });
    expect(lost.find((o) => o.requirement === 'GW-ERR-003')?.findings[0]?.code).toBe('events-lost');
    const extra = checkTerminalFrame({ scenario: 's', exchange: streamed([partial, `\n\ndata: {"c":3}\n\n${streamError}`]), prefix: enc(partial), kind: 'stream-error', cause: 'the upstream broke' });
    expect(extra.find((o) => o.requirement === 'GW-ERR-003')?.findings[0]?.code).toBe('extra-frames');
  });
});
