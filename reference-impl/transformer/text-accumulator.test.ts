import { describe, expect, it } from 'vitest';
import { createTextAccumulator } from './text-accumulator.ts';

const chunk = (text: string, author = 'coordinator') => ({ author, partial: true, content: { role: 'model', parts: [{ text }] } });
const final = (text: string, id = 'f1', author = 'coordinator') => ({ author, id, partial: false, content: { role: 'model', parts: [{ text }] } });

describe('streaming text accumulation (adk-python-facts §3.2)', () => {
  it('chunks accumulate and the aggregated final replaces them', () => {
    const acc = createTextAccumulator();
    expect(acc.feed(chunk('The Cedar '))).toEqual({ kind: 'chunk', author: 'coordinator', text: 'The Cedar ' });
    acc.feed(chunk('Creek fire'));
    expect(acc.unfinished()).toEqual([{ author: 'coordinator', text: 'The Cedar Creek fire' }]);
    expect(acc.feed(final('The Cedar Creek fire'))).toEqual({ kind: 'block', author: 'coordinator', text: 'The Cedar Creek fire' });
    expect(acc.unfinished()).toEqual([]);
  });

  it('an error event leaves the chunks unfinished (adk-wire-format §6: the partial text is never retracted)', () => {
    const acc = createTextAccumulator();
    acc.feed(chunk('half an '));
    acc.feed({ author: 'coordinator', errorCode: '503', errorMessage: 'overloaded' });
    expect(acc.unfinished()).toEqual([{ author: 'coordinator', text: 'half an ' }]);
  });

  it('the same content under the same event id is a duplicate; the artifact split (same id, no content) is not', () => {
    const acc = createTextAccumulator();
    expect(acc.feed(final('Answer', 'same')).kind).toBe('block');
    expect(acc.feed(final('Answer', 'same')).kind).toBe('duplicate');
    expect(acc.feed({ author: 'coordinator', id: 'same', actions: { artifactDelta: { 'a.txt': 1 } } }).kind).toBe('block');
  });

  it('thought parts are not answer text', () => {
    const acc = createTextAccumulator();
    expect(acc.feed({ author: 'a', content: { role: 'model', parts: [{ text: 'hmm', thought: true }, { text: 'Yes.' }] } })).toEqual({ kind: 'block', author: 'a', text: 'Yes.' });
  });

  it('chunks of different authors are kept apart', () => {
    const acc = createTextAccumulator();
    acc.feed(chunk('a', 'coordinator'));
    acc.feed(chunk('b', 'trail_assessor'));
    acc.feed(final('a', 'x', 'coordinator'));
    expect(acc.unfinished()).toEqual([{ author: 'trail_assessor', text: 'b' }]);
  });
});
