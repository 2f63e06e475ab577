import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameEnds } from '../mock-adk/core/frames.ts';
import { concatBytes, sliceByFrames, utf8Text } from './body.ts';

const seed = 20261122;
const enc = new TextEncoder();
const body = enc.encode('data: {"a":1}\n\n: comment\ndata: {"b":"—≈"}\r\n\r\ndata: {"c":3}\r\rdata: tail');

describe('sliceByFrames', () => {
  it(`cuts at every frame end and keeps every byte however the body was read (fast-check seed ${seed})`, () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 12 }), fc.array(fc.nat(50), { minLength: 13, maxLength: 13 }), (cuts, gaps) => {
      const points = [...new Set(cuts)].sort((a, b) => a - b);
      let at = 0;
      const chunks = [0, ...points].map((start, i) => {
        at += gaps[i] ?? 0;
        return { bytes: body.slice(start, points[i] ?? body.length), atMs: at };
      });
      const slices = sliceByFrames(chunks);
      expect(Buffer.from(concatBytes(slices.map((s) => s.bytes))).equals(Buffer.from(body))).toBe(true);
      let offset = 0;
      const ends = slices.map((s) => (offset += s.bytes.length));
      expect(ends).toEqual([...frameEnds(body), body.length]);
      // The delays add up to the arrival of the last byte: no time is lost or invented.
      expect(slices.reduce((n, s) => n + s.delayMs, 0)).toBe(at);
    }), { seed, numRuns: 200 });
  });

  it('times a frame by the arrival of its last byte', () => {
    const text = 'data: 1\n\ndata: 2\n\n';
    const slices = sliceByFrames([{ bytes: enc.encode(text.slice(0, 4)), atMs: 5 }, { bytes: enc.encode(text.slice(4, 12)), atMs: 30 }, { bytes: enc.encode(text.slice(12)), atMs: 100 }]);
    expect(slices.map((s) => s.delayMs)).toEqual([30, 70]);
  });

  it('gives nothing for an empty body', () => {
    expect(sliceByFrames([])).toEqual([]);
  });
});

describe('utf8Text', () => {
  it('keeps a byte order mark and refuses invalid UTF-8', () => {
    expect(utf8Text(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe('\ufeffa');
    expect(utf8Text(new Uint8Array([0x61, 0xff]))).toBeUndefined();
  });
});
