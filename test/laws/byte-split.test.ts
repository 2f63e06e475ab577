/**
 * Law: any byte split of a rendered stream gives the same frames (core/sse.ts) and the same
 * briefings (reference-impl/transformer). WHATWG SSE: "the stream may be split into chunks at
 * arbitrary points", and seed 004's client reads a fetch body whose chunks fall anywhere (inside
 * JSON, inside a UTF-8 sequence, between CR and LF).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseReader, type SseFrame, type SseIssue } from '../../core/sse.ts';
import { generatedRunArb } from '../../harness/arbitraries/index.ts';
import { checkLaw, describeParams, lawParams, lawTimeout } from './law-runner.ts';
import { bodyOf, cutAt, planOf, transformPieces } from './pipeline.ts';

const file = 'test/laws/byte-split.test.ts';
const params = lawParams(150);
const timeout = lawTimeout(params, 5);
const offsetsArb = fc.array(fc.nat(), { maxLength: 60 });

function readPieces(pieces: readonly Uint8Array[]): { frames: Array<Omit<SseFrame, 'offset'>>; issues: Array<SseIssue['kind']> } {
  const frames: Array<Omit<SseFrame, 'offset'>> = [];
  const issues: Array<SseIssue['kind']> = [];
  const reader = createSseReader({ onFrame: ({ data, event, id }) => frames.push({ data, event, id }), onIssue: (i) => issues.push(i.kind) });
  for (const p of pieces) reader.feed(p);
  reader.end();
  return { frames, issues };
}

describe(`byte splits change nothing (${describeParams(params)})`, () => {
  it('any byte split of a generated stream gives the same frames as the whole body', async () => {
    await checkLaw(file, 'any byte split of a generated stream gives the same frames as the whole body', fc.property(generatedRunArb(), offsetsArb, (s, offsets) => {
      const body = bodyOf(planOf(s));
      const whole = readPieces([body]);
      expect(whole.frames).toHaveLength(s.expect.frames);
      expect(readPieces(cutAt(body, offsets))).toEqual(whole);
    }), params);
  }, timeout);

  it('one byte at a time gives the same frames as the whole body', async () => {
    await checkLaw(file, 'one byte at a time gives the same frames as the whole body', fc.property(generatedRunArb(), (s) => {
      const body = bodyOf(planOf(s));
      expect(readPieces(Array.from(body, (_, i) => body.subarray(i, i + 1)))).toEqual(readPieces([body]));
    }), { ...params, numRuns: Math.max(1, Math.ceil(params.numRuns / 5)) });
  }, timeout);

  it('any byte split of a generated stream gives the same briefings as the whole body', async () => {
    await checkLaw(file, 'any byte split of a generated stream gives the same briefings as the whole body', fc.property(generatedRunArb(), offsetsArb, (s, offsets) => {
      const body = bodyOf(planOf(s));
      const whole = transformPieces(s, [body]);
      expect(whole.at(-1)?.state).toBe(s.expect.outcome === 'complete' ? 'COMPLETE' : 'ERROR');
      expect(transformPieces(s, cutAt(body, offsets))).toEqual(whole);
    }), params);
  }, timeout);
});
