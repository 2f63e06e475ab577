/**
 * Law: any allowed line ending gives the same events. WHATWG SSE 9.2.5: "Lines must be separated by
 * either a U+000D CARRIAGE RETURN U+000A LINE FEED (CRLF) character pair, a single U+000A LINE FEED
 * (LF) character, or a single U+000D CARRIAGE RETURN (CR) character", and a leading BOM is
 * stripped. A generated stream rewritten by the mock's own `line-endings` and `bom` faults, then
 * re-chunked, reads as the same events and gives the same briefings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSse } from '../../core/sse.ts';
import { generatedRunArb, type GenScenario } from '../../harness/arbitraries/index.ts';
import { checkLaw, describeParams, lawParams, lawTimeout } from './law-runner.ts';
import { bodyOf, cutAt, planOf, transformPieces } from './pipeline.ts';

const file = 'test/laws/line-endings.test.ts';
const params = lawParams(150);
const timeout = lawTimeout(params, 5);

/** The run without its own framing variants: the LF-only stream the server writes. */
const plain = (s: GenScenario): GenScenario => ({ ...s, faults: [] });

const endingsArb = fc.record({
  style: fc.constantFrom('crlf', 'cr', 'mixed'),
  bom: fc.boolean(),
  offsets: fc.array(fc.nat(), { maxLength: 30 }),
});

describe(`line endings change nothing (${describeParams(params)})`, () => {
  it('CRLF, CR or mixed line ends, with or without a BOM, give the same events as LF', async () => {
    await checkLaw(file, 'CRLF, CR or mixed line ends, with or without a BOM, give the same events as LF', fc.property(generatedRunArb(), endingsArb, (s, { style, bom }) => {
      const lf = readSse(bodyOf(planOf(plain(s))));
      const rewritten = readSse(bodyOf(planOf(plain(s), s.session.sessionId, [{ name: 'line-endings', style } as { name: string }, ...(bom ? [{ name: 'bom' }] : [])])));
      expect(rewritten.frames.map((f) => f.data)).toEqual(lf.frames.map((f) => f.data));
      expect(rewritten.issues).toEqual(lf.issues);
      expect(rewritten.frames).toHaveLength(s.expect.frames);
    }), params);
  }, timeout);

  it('CRLF, CR or mixed line ends, split anywhere, give the same briefings as LF', async () => {
    await checkLaw(file, 'CRLF, CR or mixed line ends, split anywhere, give the same briefings as LF', fc.property(generatedRunArb(), endingsArb, (s, { style, bom, offsets }) => {
      const lf = transformPieces(s, [bodyOf(planOf(plain(s)))]);
      const body = bodyOf(planOf(plain(s), s.session.sessionId, [{ name: 'line-endings', style } as { name: string }, ...(bom ? [{ name: 'bom' }] : [])]));
      expect(transformPieces(s, cutAt(body, offsets))).toEqual(lf);
    }), params);
  }, timeout);
});
