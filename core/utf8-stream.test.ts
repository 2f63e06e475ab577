/**
 * Law: core/utf8-stream.ts is the WHATWG decoder. For any bytes (valid UTF-8, invalid bytes, cut
 * sequences, BOMs) split at any points, it gives the text `new TextDecoder('utf-8')` gives for the
 * whole bytes (WHATWG: streaming does not change the text), and flags invalid bytes in the same chunk
 * where a `{fatal: true}` decoder fed with `{stream: true}` first throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLaw, describeParams, lawParams, lawTimeout } from '../test/laws/law-runner.ts';
import { createUtf8Stream } from './utf8-stream.ts';

const file = 'core/utf8-stream.test.ts';
const params = lawParams(2000);
const timeout = lawTimeout(params, 1);

/**
 * The reference: TextDecoders, as core/sse.ts used them before. Chunk index n is the end of input. The
 * text is the whole bytes' decode: Node 24.21's streaming decoder drops both of two BOMs when the first is
 * cut after its first or second byte (`ef | bb bf ef bb bf` gives "", Node 20 and the whole decode "\ufeff").
 */
function reference(pieces: readonly Uint8Array[]): { text: string; firstInvalid: number | null } {
  let strict: TextDecoder | undefined = new TextDecoder('utf-8', { fatal: true });
  const text = new TextDecoder('utf-8').decode(Buffer.concat(pieces));
  let firstInvalid: number | null = null;
  pieces.forEach((p, i) => {
    if (strict) { try { strict.decode(p, { stream: true }); } catch { firstInvalid = i; strict = undefined; } }
  });
  if (strict) { try { strict.decode(); } catch { firstInvalid = pieces.length; } }
  return { text, firstInvalid };
}

function ours(pieces: readonly Uint8Array[]): { text: string; firstInvalid: number | null } {
  const stream = createUtf8Stream();
  let text = '';
  let firstInvalid: number | null = null;
  pieces.forEach((p, i) => {
    const out = stream.decode(p);
    text += out.text;
    if (out.invalid && firstInvalid === null) firstInvalid = i;
  });
  const tail = stream.end();
  text += tail.text;
  if (tail.invalid && firstInvalid === null) firstInvalid = pieces.length;
  return { text, firstInvalid };
}

function cut(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const p of points) { pieces.push(bytes.subarray(from, p)); from = p; }
  pieces.push(bytes.subarray(from));
  return pieces;
}

const encoder = new TextEncoder();
/** Bytes near the edges of UTF-8: lead bytes, continuations, the boundary values, and real text. */
const edgeByte = fc.constantFrom(0x00, 0x0a, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff);
const piece = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }).map((s) => encoder.encode(s)),
  fc.uint8Array({ maxLength: 4 }),
  fc.array(edgeByte, { maxLength: 4 }).map((a) => Uint8Array.from(a)),
  fc.constant(Uint8Array.of(0xef, 0xbb, 0xbf)),
);
const bytesArb = fc.array(piece, { maxLength: 12 }).map((parts) => Uint8Array.from(parts.flatMap((p) => [...p])));
const offsetsArb = fc.array(fc.nat(), { maxLength: 10 });

describe(`the UTF-8 stream decoder is the WHATWG decoder (${describeParams(params)})`, () => {
  it('any bytes split at any points give the TextDecoder text and the chunk where a fatal decoder throws', async () => {
    await checkLaw(file, 'any bytes split at any points give the TextDecoder text and the chunk where a fatal decoder throws', fc.property(bytesArb, offsetsArb, (bytes, offsets) => {
      const pieces = cut(bytes, offsets);
      expect(ours(pieces)).toEqual(reference(pieces));
    }), params);
  }, timeout);

  it('one byte at a time gives the TextDecoder text and flag', async () => {
    await checkLaw(file, 'one byte at a time gives the TextDecoder text and flag', fc.property(bytesArb, (bytes) => {
      const pieces = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
      expect(ours(pieces)).toEqual(reference(pieces));
    }), params);
  }, timeout);

  it('cases by name', () => {
    const bytes = (...b: number[]) => Uint8Array.of(...b);
    for (const pieces of [
      [bytes(0xef, 0xbb), bytes(0xbf, 0x41)], // a BOM cut in two is still the BOM
      [bytes(0xef, 0xbb, 0xbf), bytes(0xef, 0xbb, 0xbf)], // only the first BOM goes
      [bytes(0x41, 0xe0), bytes(0x80)], // E0 80 is invalid: flagged in the chunk that shows it
      [bytes(0x41, 0xe0, 0x80)],
      [bytes(0xe2, 0x82)], // cut at EOF: one U+FFFD, flagged at the end
      [bytes(0xf0, 0x9f, 0x98), bytes(0x80)], // an emoji cut in two
      [bytes(0xed, 0xa0, 0x80)], // a surrogate
      [bytes(0xff), bytes(0xef, 0xbb, 0xbf)], // a BOM after the first character is kept
    ]) expect(ours(pieces), pieces.map((p) => [...p].map((b) => b.toString(16)).join(' ')).join(' | ')).toEqual(reference(pieces));
  });
});
