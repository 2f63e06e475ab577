/**
 * Where a proof layer's numbers can come from, read from the frames (seed 000 §3.3, seed 001 Q3),
 * and which output event each source speaks for. The proof-layer checks share these readings:
 * - audit: an agent's tool outcomes in `_audit_metadata` speak for that agent's INSIGHTs and ALERTs
 *   emitted after the outcome reached the stream, and for the COMPLETE when that agent answered;
 * - text: a specialist's result speaks for its n-th INSIGHT, an intermediate answer for the INSIGHT
 *   of its author that carries it, the final answer for the COMPLETE;
 * - outline: `expect.briefings`, aligned as a subsequence on type, source_agent and state.
 * Text readings are deliberately lenient (any percentage after the word "confidence" on its line):
 * the checks accept every score the text states and require one only when it states exactly one.
 */
import type { EmittedEvent, TransformerObservation } from './observation.ts';
import { detailOf, sourceOf, stateOf, summaryOf, typeOf } from './briefing.ts';
import type { AuditFact, FrameFacts } from './frame-facts.ts';

/** 92 → 0.92 without binary noise. */
const fromPercent = (p: number): number => Math.round(p * 100) / 10_000;

/**
 * Every confidence score a text states: `**Confidence:** 92%`, `High (90%)`, `(Confidence: 95% for
 * timber, 90% for trails)`, `0.92`. A text with an "Overall Confidence" line states its score there
 * (seed 001's synthesis: per-section scores, then `**Overall Confidence:** 90%`): only that line's
 * scores are the text's, so the first section's 92% does not pass for the answer's confidence.
 */
export function statedScores(text: string): number[] {
  const lines = text.split(/\r\n|\r|\n/);
  const overall = lines.filter((l) => /overall\W{0,6}confidence/i.test(l));
  const overallScores = overall.length > 0 ? scoresOf(overall) : [];
  return overallScores.length > 0 ? overallScores : scoresOf(lines);
}

function scoresOf(lines: string[]): number[] {
  const scores: number[] = [];
  for (const line of lines) {
    const at = line.search(/confidence/i);
    if (at < 0) continue;
    const rest = line.slice(at);
    const percents = [...rest.matchAll(/(\d{1,3}(?:\.\d+)?)\s*%/g)].map((m) => Number(m[1])).filter((p) => p >= 0 && p <= 100);
    if (percents.length > 0) { scores.push(...percents.map(fromPercent)); continue; }
    const fraction = /confidence\W{0,6}(0(?:\.\d+)?|1(?:\.0+)?)\b/i.exec(rest);
    if (fraction?.[1] !== undefined) scores.push(Number(fraction[1]));
  }
  return [...new Set(scores)];
}

/** The values of `**Source:**`, `**Sources:**` and `**Regulatory Basis:**` lines, each split at `,` and `;`. */
export function textSources(text: string): Array<{ line: string; pieces: string[] }> {
  const out: Array<{ line: string; pieces: string[] }> = [];
  for (const m of text.matchAll(/\*\*\s*(sources?|regulatory\s+basis)\s*:?\s*\*\*\s*:?[ \t]*([^\n]*)/gi)) {
    const value = (m[2] ?? '').replace(/\s+$/, '').replace(/[*_]+$/, '').replace(/\.$/, '').trim();
    const pieces = value.split(/[;,]/).map((p) => p.trim()).filter(Boolean);
    if (pieces.length > 0) out.push({ line: value, pieces });
  }
  return out;
}

export const tierOf = (c: number): number => (c >= 0.9 ? 1 : c >= 0.7 ? 2 : c > 0 ? 3 : 4);

export type AuditScope = {
  agent: string;
  outcomes: AuditFact[];
  /** The last outcome: tool_error gives 0 (seed 000 §3.1), tool_response its confidence. */
  expected: { confidence?: number; error: boolean };
  records: AuditFact[];
  /** Output events that speak for this agent. */
  speakers: EmittedEvent[];
};

export function auditScopes(obs: TransformerObservation, facts: FrameFacts): AuditScope[] {
  const agents = [...new Set(facts.audit.filter((a) => a.type === 'tool_response' || a.type === 'tool_error').map((a) => a.agent ?? a.tool ?? ''))].filter(Boolean);
  return agents.map((agent) => {
    const records = facts.audit.filter((a) => a.agent === agent || (a.agent === undefined && a.tool === agent));
    const outcomes = records.filter((a) => a.type === 'tool_response' || a.type === 'tool_error');
    const last = outcomes[outcomes.length - 1] as AuditFact;
    const since = obs.frames[outcomes[0]?.frame ?? 0]?.at ?? 0;
    const speakers = obs.run.events.filter((e) => (stateOf(e) === 'COMPLETE' && facts.final?.author === agent)
      || ((typeOf(e) === 'INSIGHT' || typeOf(e) === 'ALERT') && sourceOf(e) === agent && e.at >= since));
    const expected = last.type === 'tool_error' ? { confidence: 0, error: true } : { ...(last.confidence !== undefined ? { confidence: last.confidence } : {}), error: false };
    return { agent, outcomes, expected, records, speakers };
  });
}

export type TextAnchor = { event: EmittedEvent; what: string; text: string; structured?: number };

/**
 * Whether an event carries this text as its body: its detail or summary is the text, or its detail
 * holds it whole. Used where the lifecycle does not lead to the event (a wrong source_agent, no
 * state), so that a proof-layer defect is judged whatever else the implementation gets wrong.
 */
export function carriesText(e: EmittedEvent, text: string): boolean {
  const t = text.trim();
  if (!t) return false;
  const detail = detailOf(e)?.trim();
  const summary = summaryOf(e)?.trim();
  return detail === t || summary === t || (t.length >= 20 && detail !== undefined && detail.includes(t));
}

/**
 * The events that carry a text the frames hold, when no audit trail speaks for their agent. The
 * lifecycle leads first (a specialist's n-th INSIGHT, the COMPLETE); where it leads nowhere, the
 * event that carries the text is anchored instead (issue 29: PL-CONF-002 went untested on real
 * code whose final answer had no COMPLETE state or whose insight named another agent).
 */
export function textAnchors(obs: TransformerObservation, facts: FrameFacts): TextAnchor[] {
  const audited = new Set(auditScopes(obs, facts).map((s) => s.agent));
  const anchors: TextAnchor[] = [];
  const taken = (e: EmittedEvent): boolean => anchors.some((a) => a.event === e);
  const carrier = (text: string): EmittedEvent | undefined => obs.run.events.find((e) => !taken(e) && carriesText(e, text));
  const seen = new Map<string, number>();
  for (const r of facts.results) {
    if (r.kind !== 'specialist' || r.failure || r.text === undefined) continue;
    const n = seen.get(r.name) ?? 0;
    seen.set(r.name, n + 1);
    if (audited.has(r.name)) continue;
    const event = obs.run.events.filter((e) => typeOf(e) === 'INSIGHT' && sourceOf(e) === r.name)[n] ?? carrier(r.text);
    if (event && !taken(event)) anchors.push({ event, what: `${r.name}'s result (frame[${r.frame}])`, text: r.text, ...(r.structuredConfidence !== undefined ? { structured: r.structuredConfidence } : {}) });
  }
  const final = facts.final;
  // The final answer may lean on the whole audit trail (docs/briefing-mapping.md "For the final answer").
  if (final?.text !== undefined && !audited.has(final.author) && facts.audit.length === 0) {
    const complete = obs.run.events.find((e) => stateOf(e) === 'COMPLETE') ?? [...obs.run.events].reverse().find((e) => !taken(e) && carriesText(e, final.text as string));
    if (complete && !taken(complete)) anchors.push({ event: complete, what: `the final answer of ${final.author}`, text: final.text });
  }
  for (const a of facts.answers) {
    if (a.text === final?.text || audited.has(a.author)) continue;
    const event = obs.run.events.find((e) => !taken(e) && typeOf(e) === 'INSIGHT' && sourceOf(e) === a.author && detailOf(e) === a.text) ?? carrier(a.text);
    if (event) anchors.push({ event, what: `${a.author}'s answer (frame[${a.frame}])`, text: a.text });
  }
  return anchors;
}

export type Outline = { type: string; source_agent?: string; state?: string; confidence?: number | null; citations?: number; citationSources?: string[]; degraded?: boolean };

/** `expect.briefings` matched to output events as a subsequence, on type, source_agent and state. */
export function alignOutline(obs: TransformerObservation): Array<{ outline: Outline; event: EmittedEvent; position: number }> {
  const outlines = (obs.scenario.expect.briefings ?? []) as Outline[];
  const out: Array<{ outline: Outline; event: EmittedEvent; position: number }> = [];
  let from = 0;
  outlines.forEach((outline, position) => {
    const event = obs.run.events.slice(from).find((e) => typeOf(e) === outline.type
      && (outline.source_agent === undefined || sourceOf(e) === outline.source_agent)
      && (outline.state === undefined || stateOf(e) === outline.state));
    if (!event) return; // a missing briefing is a lifecycle finding (ABE-LIFE-*), not a proof one
    out.push({ outline, event, position });
    from = event.index + 1;
  });
  return out;
}

/** Whether an audit trail backs this event's proof layer. */
export function auditBacked(e: EmittedEvent, scopes: AuditScope[]): AuditScope | undefined {
  return scopes.find((s) => s.speakers.includes(e));
}
