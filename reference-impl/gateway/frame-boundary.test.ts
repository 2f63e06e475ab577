import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSse } from '../../core/sse.ts';
import { createFrameBoundaryTracker } from './frame-boundary.ts';

const seed = 4_004;
const enc = new TextEncoder();

function closing(chunks: string[]): string {
  const tracker = createFrameBoundaryTracker();
  for (const chunk of chunks) tracker.feed(enc.encode(chunk));
  return tracker.closingBytes();
}

describe('frame boundary tracker', () => {
  it('adds nothing after a complete event', () => {
    expect(closing(['data: {"a":1}\n\n'])).toBe('');
    expect(closing([])).toBe('');
    expect(closing(['data: x\r\n\r\n'])).toBe('');
    // A trailing CR may be half of a CRLF: the LF that completes it costs nothing and settles it.
    expect(closing(['data: x\r\r'])).toBe('\n');
  });

  it('ends a line cut in the middle and the event after it', () => {
    expect(closing(['data: {"b":'])).toBe('\n\n');
  });

  it('ends an event whose last line ended but whose blank line never came', () => {
    expect(closing(['data: {"b":2}\n'])).toBe('\n');
  });

  it('counts a trailing CR as a line end that a following LF would merge with', () => {
    expect(closing(['data: x\r'])).toBe('\n\n');
    expect(closing(['data: x\r', '\n'])).toBe('\n');
  });

  it('makes an appended frame its own event whatever bytes came before, however they were split', () => {
    console.log(`fast-check seed ${seed}`);
    const piece = fc.constantFrom('data: ', 'data:', '{"a":1}', 'x', ':comment', 'event: e', 'id: 1', '\n', '\r', '\r\n', '\n\n', ' ', 'é');
    const bytes = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(''));
    fc.assert(fc.property(bytes, fc.array(fc.nat(), { maxLength: 5 }), (text, cuts) => {
      const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
      const chunks: string[] = [];
      let last = 0;
      for (const p of points) { chunks.push(text.slice(last, p)); last = p; }
      chunks.push(text.slice(last));
      const close = closing(chunks);
      expect(close).toBe(closing([text]));
      const { frames } = readSse(text + close + 'data: {"error": "E"}\n\n');
      expect(frames.at(-1)?.data).toBe('{"error": "E"}');
      expect(frames.at(-1)?.event).toBeUndefined();
    }), { seed, numRuns: 500 });
  });
});
