/**
 * Arbitraries for one model turn's function calls and the results the tool round returns for
 * them. A call and its result are generated together: the tools step answers every call, in call
 * order (adk-wire-format §5d "One merged tool-result event ... in call order").
 */
import fc from 'fast-check';
import { chunkedTextArb, percentArb, sourcesArb, specialistNames, textArb, toolNames, type ChunkedText } from './vocabulary.ts';

/** What a specialist (AgentTool) answers: its final text, with the proof lines seed 001 shows, or a thrown error. */
export type SpecialistResult = { ok: true; summary: string; confidence?: number; sources?: string[] } | { ok: false; message: string };

/** What a plain function tool returns (an object passed as-is, adk-wire-format §4) or the error it threw. */
export type ToolResult = { ok: true; response: Record<string, unknown> } | { ok: false; message: string };

/** Audit facts about the call, recorded on `/run_sse_enhanced` runs (seed 000 §3.1). */
export type CallAudit = { confidence: number; reasoning: string[] };

export type GenCall =
  | { kind: 'specialist'; name: string; request: string; result: SpecialistResult; audit: CallAudit }
  | { kind: 'tool'; name: string; args: Record<string, unknown>; result: ToolResult; audit: CallAudit };

/**
 * One delegation round: the model's calls (with optional narration before them) and their results,
 * and three server behaviours field reports describe, applied where the run's dialect and mode
 * render them (build-scenario.ts): the narration's last chunk arrives with the calls (adk-docs PR
 * #2076), the previews carry other ids than the calls that run (adk-python #4609, #5064), the
 * turn's usage never reaches an event (adk-js #645).
 */
export type GenRound = { narration?: ChunkedText; calls: GenCall[]; textWithCalls?: boolean; reissuedIds?: boolean; usageMissing?: boolean };

const auditArb: fc.Arbitrary<CallAudit> = fc.record({
  confidence: fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
  reasoning: fc.array(textArb, { maxLength: 2 }),
});

const specialistResultArb: fc.Arbitrary<SpecialistResult> = fc.oneof(
  { withCrossShrink: true },
  { weight: 5, arbitrary: fc.record({ ok: fc.constant(true as const), summary: textArb, confidence: fc.option(percentArb, { nil: undefined }), sources: fc.option(sourcesArb, { nil: undefined }) }) },
  { weight: 1, arbitrary: fc.record({ ok: fc.constant(false as const), message: textArb }) },
);

const toolResultArb: fc.Arbitrary<ToolResult> = fc.oneof(
  { withCrossShrink: true },
  { weight: 5, arbitrary: fc.record({ fire_id: fc.constant('cedar-creek-2022'), acres: fc.nat({ max: 200_000 }), note: textArb }).map((response) => ({ ok: true as const, response })) },
  { weight: 1, arbitrary: fc.record({ ok: fc.constant(false as const), message: textArb }) },
);

export const specialistCallArb: fc.Arbitrary<GenCall> = fc
  .record({ name: fc.constantFrom(...specialistNames), request: textArb, result: specialistResultArb, audit: auditArb })
  .map((c) => ({ kind: 'specialist' as const, ...c }));

export const toolCallArb: fc.Arbitrary<GenCall> = fc
  .record({ name: fc.constantFrom(...toolNames), fireId: fc.constantFrom('cedar-creek-2022', 'cc-2022'), result: toolResultArb, audit: auditArb })
  .map(({ name, fireId, result, audit }) => ({ kind: 'tool' as const, name, args: { fire_id: fireId }, result, audit }));

/** 1 to `maxCalls` calls in one event: parallel calls, specialists and tools mixed. */
export function roundArb(maxCalls: number): fc.Arbitrary<GenRound> {
  return fc.record({
    narration: fc.option(chunkedTextArb, { nil: undefined }),
    calls: fc.array(fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: specialistCallArb }, { weight: 2, arbitrary: toolCallArb }), { minLength: 1, maxLength: maxCalls }),
    textWithCalls: fc.boolean(),
    reissuedIds: fc.boolean(),
    usageMissing: fc.boolean(),
  });
}

/** The text a specialist returns, with seed 001's proof lines (`**Confidence:** 92%`, `**Source:** a, b`). */
export function specialistText(result: Extract<SpecialistResult, { ok: true }>): string {
  const lines = [result.summary];
  if (result.confidence !== undefined) lines.push(`**Confidence:** ${result.confidence}%`);
  if (result.sources !== undefined) lines.push(`**Source:** ${result.sources.join(', ')}`);
  return lines.join('\n');
}

/** adk-js wraps a thrown tool error as `{"error": "Error in tool '<name>': <message>"}` (adk-wire-format §6). */
export function toolErrorResponse(name: string, message: string): Record<string, unknown> {
  return { error: `Error in tool '${name}': ${message}` };
}
