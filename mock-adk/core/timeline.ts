/**
 * A plan's body seen as one byte array plus the places it is cut into writes: the form every
 * fault works on. Re-chunking moves cuts; rewriting bytes applies edits and carries the cuts
 * (and their waits) along; `toChunks` turns it back into PlanChunks.
 */
import { frameEnds } from './frames.ts';
import type { PlanChunk } from './types.ts';

/** A write starts at `at` after waiting `delayMs`. Several cuts may share an offset (empty writes are pure waits). */
export type Cut = { at: number; delayMs: number };
export type Timeline = { body: Uint8Array; cuts: Cut[] };

/** Replace `remove` bytes at `at` with `insert`. Bytes inserted exactly at a cut belong to the write that starts there. */
export type Edit = { at: number; remove: number; insert: Uint8Array };

export function toTimeline(chunks: PlanChunk[]): Timeline {
  const total = chunks.reduce((n, c) => n + c.bytes.length, 0);
  const body = new Uint8Array(total);
  const cuts: Cut[] = [];
  let at = 0;
  for (const c of chunks) {
    cuts.push({ at, delayMs: c.delayMs });
    body.set(c.bytes, at);
    at += c.bytes.length;
  }
  return { body, cuts };
}

export function toChunks(t: Timeline): PlanChunk[] {
  const cuts = [...t.cuts].sort((a, b) => a.at - b.at);
  const chunks: PlanChunk[] = [];
  // Bytes before the first cut (only after an edit inserted some at 0 with no cut there) join the first write.
  if (cuts.length === 0 && t.body.length > 0) cuts.push({ at: 0, delayMs: 0 });
  if (cuts.length > 0 && cuts[0]!.at > 0) cuts[0] = { at: 0, delayMs: cuts[0]!.delayMs };
  cuts.forEach((cut, i) => {
    const end = i + 1 < cuts.length ? cuts[i + 1]!.at : t.body.length;
    chunks.push({ bytes: t.body.slice(cut.at, end), delayMs: cut.delayMs, frame: -1 });
  });
  return retag(chunks);
}

/** Tag each write with the dispatched frame its first byte belongs to (-1 for empty writes and trailing bytes). */
export function retag(chunks: PlanChunk[]): PlanChunk[] {
  const t = toTimeline(chunks);
  const ends = frameEnds(t.body);
  let frame = 0;
  return chunks.map((c, i) => {
    const at = t.cuts[i]!.at;
    while (frame < ends.length && ends[frame]! <= at) frame++;
    return { ...c, frame: c.bytes.length === 0 || frame >= ends.length ? -1 : frame };
  });
}

/** Apply non-overlapping edits (any order) and move every cut with the bytes it points at. */
export function applyEdits(t: Timeline, edits: Edit[]): Timeline {
  const sorted = [...edits].sort((a, b) => a.at - b.at);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.at < sorted[i - 1]!.at + sorted[i - 1]!.remove) throw new Error('applyEdits: overlapping edits (a fault engine bug)');
  }
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const e of sorted) {
    pieces.push(t.body.subarray(from, e.at), e.insert);
    from = e.at + e.remove;
  }
  pieces.push(t.body.subarray(from));
  const body = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) { body.set(p, at); at += p.length; }

  const map = (o: number): number => {
    let shift = 0;
    for (const e of sorted) {
      if (e.at >= o) break;
      if (e.at + e.remove > o) return e.at + shift;
      shift += e.insert.length - e.remove;
    }
    return o + shift;
  };
  return { body, cuts: t.cuts.map((c) => ({ ...c, at: map(c.at) })) };
}

/** Make sure a write starts at `at` (splitting the one that spans it); returns the cut there. */
export function cutAt(t: Timeline, at: number): Cut {
  const existing = t.cuts.find((c) => c.at === at);
  if (existing) return existing;
  const cut = { at, delayMs: 0 };
  t.cuts.push(cut);
  t.cuts.sort((a, b) => a.at - b.at);
  return cut;
}

/** [start, end) of each dispatched frame; frame k starts where frame k-1 ended (leading comments belong to frame 0, a leading BOM to none). */
export function frameRanges(body: Uint8Array): Array<[number, number]> {
  const ends = frameEnds(body);
  const first = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  return ends.map((end, k) => [k === 0 ? first : ends[k - 1]!, end]);
}

export function truncate(t: Timeline, at: number): Timeline {
  return { body: t.body.slice(0, at), cuts: t.cuts.filter((c) => c.at < at || (c.at === at && at === 0)) };
}
