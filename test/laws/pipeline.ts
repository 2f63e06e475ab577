/**
 * The reference pipeline as the laws drive it: a generated scenario rendered the way the mock
 * serves it (its own dialect, its faults applied), its body bytes, and the reference transformer
 * with a pinned clock and counter ids so two runs can be compared value for value.
 */
import { createSseReader, type SseIssue } from '../../core/sse.ts';
import { applyFaults } from '../../mock-adk/core/faults.ts';
import { render } from '../../mock-adk/core/render.ts';
import type { ReplayPlan } from '../../mock-adk/core/types.ts';
import { createTransformer } from '../../reference-impl/transformer/index.ts';
import type { BriefingEvent } from '../../reference-impl/transformer/types.ts';
import { asScenario, type GenScenario } from '../../harness/arbitraries/index.ts';

/** The plan the mock replays for `s` on `sessionId` (default: the scenario's own session). */
export function planOf(s: GenScenario, sessionId = s.session.sessionId, extraFaults: ReadonlyArray<{ name: string }> = []): ReplayPlan {
  const plan = render(asScenario(s), {
    dialect: s.dialect,
    streaming: s.request.streaming,
    appName: s.id,
    userId: s.session.userId,
    sessionId,
    ...(s.request.endpoint === '/run_sse_enhanced' ? { enhanced: true } : {}),
  });
  return applyFaults(plan, [...(s.faults ?? []), ...extraFaults]);
}

export function bodyOf(plan: ReplayPlan): Buffer {
  return Buffer.concat(plan.chunks.map((c) => c.bytes));
}

export const isEnhanced = (s: GenScenario): boolean => s.request.endpoint === '/run_sse_enhanced';

function pinnedTransformer(s: GenScenario) {
  let n = 0;
  return createTransformer({ sessionId: s.session.sessionId, enhanced: isEnhanced(s), now: () => 1_795_318_500_000, uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
}

/** Briefings of one run from its frames' data texts, in order. */
export function transformFrames(s: GenScenario, data: readonly string[]): BriefingEvent[] {
  const t = pinnedTransformer(s);
  for (const d of data) t.pushData(d);
  return t.end();
}

/** Briefings of one run from its body, fed to core/sse.ts in the given pieces. */
export function transformPieces(s: GenScenario, pieces: readonly Uint8Array[]): BriefingEvent[] {
  const t = pinnedTransformer(s);
  const reader = createSseReader({ onFrame: (f) => t.pushData(f.data), onIssue: (issue: SseIssue) => t.pushFrame({ kind: 'issue', issue }) });
  for (const p of pieces) reader.feed(p);
  reader.end();
  return t.end();
}

/** Cut `bytes` at the given offsets (taken modulo its length + 1, duplicates merged). */
export function cutAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) { pieces.push(bytes.subarray(from, p)); from = p; }
  return pieces;
}
