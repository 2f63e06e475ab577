/**
 * ABE-DET-001: the same stream gives the same briefings however its bytes are split. Each body is
 * cut at generated offsets (inside JSON, inside a UTF-8 sequence, between `\n` and `\n`), re-read
 * with core/sse.ts and transformed; the briefings equal those of the whole body.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseReader } from '../core/sse.ts';
import { render } from '../mock-adk/core/render.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { createTransformer } from '../reference-impl/transformer/index.ts';
import { comparable } from './transformer-fixtures.ts';

const seed = 20_251_122;
const { scenarios } = loadScenarios();
const ids = ['cedar_creek_briefing_streaming', 'cedar_creek_briefing_python_streaming', 'trail_damage_audit', 'model_error_event_503_midstream', 'error_frame_python_legacy_invalid_json', 'thinking_chunks_python', 'plain_text_streaming', 'empty_data_frame'];

function bodyOf(id: string): { bytes: Uint8Array; sessionId: string; enhanced: boolean } {
  const s = scenarios.find((x) => x.id === id);
  if (!s) throw new Error(`scenario ${id} is missing from the corpus`);
  const enhanced = s.request.endpoint === '/run_sse_enhanced';
  const plan = render(s, { dialect: s.dialect, streaming: s.request.streaming ?? false, appName: s.id, userId: s.session.userId, sessionId: s.session.sessionId, enhanced });
  return { bytes: Buffer.concat(plan.chunks.map((c) => c.bytes)), sessionId: s.session.sessionId, enhanced };
}

function transformPieces(pieces: Uint8Array[], sessionId: string, enhanced: boolean) {
  const t = createTransformer({ sessionId, enhanced, now: () => 0 });
  const reader = createSseReader({ onFrame: (f) => t.pushData(f.data), onIssue: (issue) => t.pushFrame({ kind: 'issue', issue }) });
  for (const piece of pieces) reader.feed(piece);
  reader.end();
  return comparable(t.end());
}

function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) { pieces.push(bytes.subarray(from, p)); from = p; }
  return pieces;
}

describe(`byte splits never change the briefings (fast-check seed ${seed})`, () => {
  it.each(ids)('%s: any split of the body gives the briefings of the whole body', (id) => {
    const { bytes, sessionId, enhanced } = bodyOf(id);
    const whole = transformPieces([bytes], sessionId, enhanced);
    expect(whole.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), (offsets) => {
        expect(transformPieces(cut(bytes, offsets), sessionId, enhanced)).toEqual(whole);
      }),
      { seed, numRuns: 60 },
    );
  });

  it('one byte at a time gives the same briefings too', () => {
    const { bytes, sessionId, enhanced } = bodyOf('cedar_creek_briefing_python_streaming');
    const singles = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
    expect(transformPieces(singles, sessionId, enhanced)).toEqual(transformPieces([bytes], sessionId, enhanced));
  });
});
