/**
 * Proof data the run never stated (issue 29 §1: real transformers put a default confidence of 0.75
 * where no "Confidence:" line was found, and a citation "Data from fixtures" where no source was).
 * Judged on every event that carries a proof layer, whatever its type, state or source_agent, so
 * the invention is caught even where the lifecycle is wrong too:
 * - PL-CONF-003 (seed 000 §7 "Proof layer confidence scores match tool output (no inference)"):
 *   a confidence not backed by an audit trail (PL-CONF-001 judges those) is a number the run
 *   states: a score in a frame's text (a percentage, or a fraction after "confidence"), a number
 *   of the audit metadata, a tool's structured `proof_layer.confidence`, or 0.0 where a tool failed
 *   (seed 000 §3.1 tool_error, seed 002 §2.1 tier 4).
 * - PL-CIT-003 (seed 000 §1.2 "Citations are generic - Not linked to actual data sources", §7
 *   "Citations include tool-provided `data_sources`"): every citation names a source the run
 *   states: its `source` (or, without one, any of its strings but its type) is found in the frames.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation } from './observation.ts';
import { at, citationsOf, confidenceOf, hasConfidence, isRecord } from './briefing.ts';
import type { FrameFacts } from './frame-facts.ts';
import { finding, judgeAll } from './outcome.ts';
import { auditBacked, auditScopes } from './proof-sources.ts';

const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9;

/** Every string inside a JSON value. */
function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(leaves);
  return isRecord(value) ? Object.values(value).flatMap(leaves) : [];
}

function numbers(value: unknown): number[] {
  if (typeof value === 'number' && Number.isFinite(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(numbers);
  return isRecord(value) ? Object.values(value).flatMap(numbers) : [];
}

/** What the run states: every string of the fed events, and every score those strings and the audit trail give. */
export function runStatements(obs: TransformerObservation, facts: FrameFacts): { strings: string[]; scores: number[] } {
  const strings = obs.frames.flatMap((f) => (f.json ? leaves(f.json) : []));
  const scores: number[] = [];
  for (const s of strings) {
    for (const m of s.matchAll(/(\d{1,3}(?:\.\d+)?)\s*%/g)) { const p = Number(m[1]); if (p <= 100) scores.push(Math.round(p * 100) / 10_000); }
    for (const m of s.matchAll(/confidence\W{0,6}(0(?:\.\d+)?|1(?:\.0+)?)\b/gi)) scores.push(Number(m[1]));
  }
  for (const f of obs.frames) if (f.json && Array.isArray(f.json._audit_metadata)) scores.push(...numbers(f.json._audit_metadata).filter((n) => n >= 0 && n <= 1));
  for (const r of facts.results) if (r.structuredConfidence !== undefined) scores.push(r.structuredConfidence);
  if (facts.results.some((r) => r.failure) || facts.audit.some((a) => a.type === 'tool_error')) scores.push(0);
  return { strings, scores: [...new Set(scores)] };
}

export function checkInventedProof(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const findings: Finding[] = [];
  const exercised: string[] = [];
  const scopes = auditScopes(obs, facts);
  const stated = runStatements(obs, facts);
  const inRun = (value: string): boolean => value.trim() !== '' && stated.strings.some((s) => s.includes(value.trim()));

  for (const e of obs.run.events) {
    if (hasConfidence(e) && !auditBacked(e, scopes)) {
      exercised.push('PL-CONF-003');
      const c = confidenceOf(e);
      if (c === undefined || !stated.scores.some((s) => near(s, c))) findings.push(finding('PL-CONF-003', 'confidence-not-in-run', at(e, '/proof_layer/confidence'), `event ${e.index} carries a confidence that no frame, tool result or audit entry of the run states`, stated.scores, (e.value.proof_layer as Record<string, unknown>).confidence));
    }
    citationsOf(e).forEach((c, i) => {
      exercised.push('PL-CIT-003');
      const named = typeof c.source === 'string' ? [c.source] : Object.entries(c).filter(([k, v]) => k !== 'source_type' && k !== 'type' && typeof v === 'string').map(([, v]) => v as string);
      if (!named.some(inRun)) findings.push(finding('PL-CIT-003', 'citation-not-in-run', at(e, `/proof_layer/citations/${i}`), `event ${e.index} cites a source that no frame of the run names`, 'a source named by a tool result, an audit entry or a **Source:** line', c));
    });
  }
  return judgeAll(obs.scenario.id, exercised, findings);
}
