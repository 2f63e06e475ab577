/**
 * A captured body as a byte script: one chunk per dispatched SSE frame (its exact bytes, cut at
 * the frame's terminating blank line), each after the delay that separated its arrival from the
 * previous frame's. Bytes after the last frame (an unterminated event, stray text) are one more
 * chunk, so nothing received is ever dropped.
 */
import { frameEnds } from '../mock-adk/core/frames.ts';
import type { CapturedChunk } from './types.ts';

export type BodySlice = { bytes: Uint8Array; delayMs: number };

export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

/**
 * Cut the body at frame ends. A slice's time is the arrival of the chunk holding its last byte:
 * that is when a reader could dispatch it. Delays are whole milliseconds (the mock's timing is a
 * floor, never exact, so sub-millisecond precision would only be noise).
 */
export function sliceByFrames(chunks: readonly CapturedChunk[]): BodySlice[] {
  const body = concatBytes(chunks.map((c) => c.bytes));
  if (body.length === 0) return [];
  // arrival[i] = when the chunk ending at byte offset ends[i] arrived.
  const chunkEnds: number[] = [];
  let offset = 0;
  for (const c of chunks) { offset += c.bytes.length; chunkEnds.push(offset); }
  const arrivalOf = (endOffset: number): number => {
    const index = chunkEnds.findIndex((end) => end >= endOffset);
    return chunks[index === -1 ? chunks.length - 1 : index]?.atMs ?? 0;
  };
  const cuts = frameEnds(body);
  if (cuts[cuts.length - 1] !== body.length) cuts.push(body.length);
  const slices: BodySlice[] = [];
  let start = 0;
  let previousAt = 0;
  for (const end of cuts) {
    if (end <= start) continue;
    const at = arrivalOf(end);
    slices.push({ bytes: body.slice(start, end), delayMs: Math.max(0, Math.round(at - previousAt)) });
    previousAt = at;
    start = end;
  }
  return slices;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The slice as text when it is valid UTF-8 (a BOM kept as U+FEFF), else undefined. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
