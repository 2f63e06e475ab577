/**
 * The end record against the kit's completion rule (compareEnd): a client that ended by its own
 * clock where the rule says otherwise is marked timing, so the engine repeats the run alone before
 * reporting it (engine-confirm.ts); any other wrong end is reported as it is.
 */
import { describe, expect, it } from 'vitest';
import { isTimingDependent } from '../../engine-confirm.ts';
import { expectedFor } from './expected.ts';
import { checkClient, type ClientCase } from './index.ts';

const stream = new TextEncoder().encode('data: {"author":"root","content":{"parts":[{"text":"done"}]},"finishReason":"STOP"}\n\n');
const kase: ClientCase = { scenario: 's', label: 's', requirements: ['CLI-SPLIT-001'], expected: expectedFor([stream], 'eof') };
const endWith = (end: string) => checkClient(kase, { records: [{ line: 1, value: { data: new TextDecoder().decode(stream).slice(6, -2) } }, { line: 2, value: { end, completed: end !== 'idle' && end !== 'cut' } }], problems: [] })
  .find((o) => o.requirement === 'CLI-END-001');

describe('the end reason', () => {
  it('passes EOF where the stream ended', () => {
    expect(kase.expected.end.end).toBe('eof');
    expect(endWith('eof')?.status).toBe('passed');
  });

  it('a run ended by the grace or the idle window where the body ended is a timing finding, repeated alone before it is reported', () => {
    for (const end of ['final-rule', 'idle']) {
      const o = endWith(end);
      expect(o?.status, end).toBe('failed');
      expect(o?.findings[0]?.code).toBe('end-reason');
      expect(o?.findings[0]?.timing).toBe(true);
      expect(o && isTimingDependent(o, undefined, undefined, () => false)).toBe(true);
    }
  });

  it('any other wrong end does not depend on the clock', () => {
    const o = endWith('done-sentinel');
    expect(o?.status).toBe('failed');
    expect(o?.findings[0]?.timing).toBeUndefined();
    expect(o && isTimingDependent(o, undefined, undefined, () => false)).toBe(false);
  });

  it('a held-open run ended by the grace before the root agent\'s answer came is a timing finding too', () => {
    const sub = 'data: {"author":"root","content":{"parts":[{"functionCall":{"id":"t","name":"transfer_to_agent","args":{}}}]}}\n\ndata: {"author":"root","content":{"parts":[{"functionResponse":{"id":"t","name":"transfer_to_agent","response":{}}}]}}\n\ndata: {"author":"helper","content":{"parts":[{"text":"sub"}]},"finishReason":"STOP"}\n\n';
    const root = 'data: {"author":"root","content":{"parts":[{"text":"root"}]},"finishReason":"STOP"}\n\n';
    const held: ClientCase = { scenario: 's', label: 's', requirements: ['CLI-SPLIT-001'], expected: expectedFor([new TextEncoder().encode(sub + root)], 'hold-open') };
    expect(held.expected.end.end).toBe('final-rule');
    const early = held.expected.events.slice(0, 3).map((e, i) => ({ line: i + 1, value: e }));
    const o = checkClient(held, { records: [...early, { line: 4, value: { end: 'final-rule', completed: true } }], problems: [] }).find((x) => x.requirement === 'CLI-END-001');
    expect(o?.findings.map((f) => [f.code, f.timing])).toEqual([['ended-before-root-answer', true]]);
  });
});
