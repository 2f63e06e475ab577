import { describe, expect, it } from 'vitest';
import { checkStreamHeaders } from './headers.ts';
import { referenceHeaders, statuses, streamed } from './test-fixture.ts';

const without = (name: string) => referenceHeaders.filter(([n]) => n.toLowerCase() !== name);

describe('checkStreamHeaders (GW-HDR-001..004)', () => {
  it('passes the four seed headers', () => {
    expect(statuses(checkStreamHeaders('s', streamed(['data: {}\n\n'])))).toEqual({ 'GW-HDR-001': 'passed', 'GW-HDR-002': 'passed', 'GW-HDR-003': 'passed', 'GW-HDR-004': 'passed' });
  });

  it('fails only the requirement of a forgotten header, naming it', () => {
    const outcomes = checkStreamHeaders('s', streamed(['x'], { headers: without('x-accel-buffering') }));
    expect(statuses(outcomes)).toEqual({ 'GW-HDR-001': 'passed', 'GW-HDR-002': 'passed', 'GW-HDR-003': 'passed', 'GW-HDR-004': 'failed' });
    expect(outcomes[3]?.findings[0]).toMatchObject({ code: 'header-missing', path: 'header:x-accel-buffering' });
  });

  it('accepts the charset Starlette appends and refuses any other charset', () => {
    const utf8 = checkStreamHeaders('s', streamed(['x'], { headers: [...without('content-type'), ['content-type', 'text/event-stream; charset=utf-8']] }));
    const latin = checkStreamHeaders('s', streamed(['x'], { headers: [...without('content-type'), ['content-type', 'text/event-stream; charset=latin-1']] }));
    expect(utf8[0]?.status).toBe('passed');
    expect(latin[0]?.findings[0]?.code).toBe('header-wrong');
  });

  it('fails a header sent twice and a wrong Connection', () => {
    const outcomes = checkStreamHeaders('s', streamed(['x'], { headers: [...without('connection'), ['Connection', 'close'], ['Cache-Control', 'no-cache']] }));
    expect(outcomes.find((o) => o.requirement === 'GW-HDR-002')?.findings[0]?.code).toBe('header-repeated');
    expect(outcomes.find((o) => o.requirement === 'GW-HDR-003')?.findings[0]?.code).toBe('header-wrong');
  });

  it('leaves the headers untested when the gateway did not stream', () => {
    const outcomes = checkStreamHeaders('s', streamed(['{}'], { status: 401 }));
    expect(outcomes.every((o) => o.status === 'untested' && /HTTP 401/.test(o.reason ?? ''))).toBe(true);
  });
});
