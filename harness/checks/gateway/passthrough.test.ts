import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPassthrough } from './passthrough.ts';
import { run, script, statuses, streamed } from './test-fixture.ts';

const seed = 20261122;
console.log(`passthrough properties: fast-check seed ${seed}`);

describe('checkPassthrough (GW-PASS-001, GW-ENH-001, GW-PASS-004)', () => {
  const upstream = 'data: {"a":1}\n\n\r\ndata: [DONE]\n\n';

  it('passes the upstream bytes through however they were chunked', () => {
    const outcomes = checkPassthrough(run(script(upstream), streamed(['data: {"a"', ':1}\n\n\r', '\ndata: [DONE]\n\n'])));
    expect(statuses(outcomes)).toEqual({ 'GW-PASS-001': 'passed', 'GW-PASS-004': 'passed' });
  });

  it('fails GW-PASS-004 alone for bytes added after a normal end', () => {
    const outcomes = checkPassthrough(run(script(upstream), streamed([upstream, 'data: [DONE]\n\n'])));
    expect(statuses(outcomes)).toEqual({ 'GW-PASS-001': 'passed', 'GW-PASS-004': 'failed' });
    expect(outcomes[1]?.findings[0]).toMatchObject({ code: 'bytes-added-after-eof', path: `byte ${upstream.length}` });
  });

  it('files an enhanced stream under GW-ENH-001', () => {
    const outcomes = checkPassthrough(run(script(upstream), streamed([upstream.slice(0, 10)]), { endpoint: '/run_sse_enhanced' }));
    expect(outcomes[0]).toMatchObject({ requirement: 'GW-ENH-001', status: 'failed' });
    expect(outcomes[0]?.findings[0]?.code).toBe('bytes-missing');
    expect(outcomes[1]).toMatchObject({ requirement: 'GW-PASS-004', status: 'untested' });
  });

  it('fails a gateway that keeps the stream open after the upstream ended', () => {
    const outcomes = checkPassthrough(run(script(upstream), streamed([upstream], { ending: 'deadline' })));
    expect(outcomes[1]?.findings[0]?.code).toBe('stream-not-ended');
  });

  it('fails a live gateway that answered with no HTTP response at all', () => {
    const exchange = { ...streamed([]), status: undefined, ending: 'connect-failed' as const, error: 'Parse Error: Expected HTTP/ (HPE_INVALID_CONSTANT)' };
    const outcomes = checkPassthrough(run(script(upstream), exchange));
    expect(outcomes[0]?.findings[0]).toMatchObject({ code: 'no-response', actual: exchange.error });
  });

  it('says nothing about an upstream HTTP error (the terminal-frame check does)', () => {
    expect(checkPassthrough(run(script('{"error":"x"}', { status: 404 }), streamed(['data: {}\n\n'])))).toEqual([]);
  });

  it('finds any changed byte at its offset', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (bytes, at, delta) => {
      const i = at % bytes.length;
      const changed = bytes.slice();
      changed[i] = ((changed[i] ?? 0) + delta) % 256;
      const [outcome] = checkPassthrough(run(script(bytes), streamed([changed])));
      expect(outcome?.status).toBe('failed');
      expect(outcome?.findings[0]).toMatchObject({ code: 'bytes-changed', path: `byte ${i}` });
    }), { seed, numRuns: 200 });
  });
});
