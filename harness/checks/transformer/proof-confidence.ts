/**
 * proof_layer.confidence (seed 000 §7 "Proof layer confidence scores match tool output (no
 * inference)", seed 001 Q3 "Must parse text", seed 000 §3.1 "tool_error ... confidence=0.0"):
 * - PL-CONF-001: an event an audit trail speaks for carries the last tool_response confidence; at
 *   least one of them carries it.
 * - PL-CONF-002: an event a text speaks for carries one of the scores the text states, and the
 *   score when the text states exactly one.
 * - PL-CONF-003: an event whose data states no score (no audit outcome, no structured proof, no
 *   score in its text) carries no confidence; nor does one the outline expects `confidence: null`.
 * - PL-CONF-004: a tool_error audit outcome gives 0.0, and a failed tool's briefing (an event
 *   naming a tool whose response was `{"error": ...}`) carries 0.0.
 * Outline entries (`expect.briefings[].confidence`) are exact and go to the requirement of their basis.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation } from './observation.ts';
import { at, brief, confidenceOf, hasConfidence, names } from './briefing.ts';
import type { FrameFacts } from './frame-facts.ts';
import { finding, judgeAll } from './outcome.ts';
import { alignOutline, auditBacked, auditScopes, statedScores, textAnchors } from './proof-sources.ts';

const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9;

export function checkConfidence(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const findings: Finding[] = [];
  const exercised: string[] = [];
  const scopes = auditScopes(obs, facts);

  for (const s of scopes) {
    const expected = s.expected.confidence;
    if (expected === undefined) continue;
    const id = s.expected.error ? 'PL-CONF-004' : 'PL-CONF-001';
    exercised.push(id);
    const source = s.expected.error ? `${s.agent}'s tool_error` : `${s.agent}'s tool_response`;
    for (const e of s.speakers.filter(hasConfidence)) {
      if (!near(confidenceOf(e) ?? Number.NaN, expected)) findings.push(finding(id, 'confidence-not-audit', at(e, '/proof_layer/confidence'), `event ${e.index} speaks for ${s.agent} but its confidence is not ${source}'s`, expected, e.value.proof_layer && (e.value.proof_layer as Record<string, unknown>).confidence));
    }
    if (!s.speakers.some(hasConfidence)) findings.push(finding(id, 'audit-confidence-missing', `frame[${s.outcomes[s.outcomes.length - 1]!.frame}]/_audit_metadata`, `no INSIGHT or ALERT of ${s.agent} carries ${source} confidence`, expected, s.speakers.map(brief)));
  }

  const wholeTrail = facts.audit.some((a) => a.type === 'tool_response' || a.type === 'tool_error');
  for (const a of textAnchors(obs, facts)) {
    const stated = statedScores(a.text);
    if (a.structured !== undefined) stated.push(a.structured);
    const c = confidenceOf(a.event);
    if (stated.length > 0) {
      exercised.push('PL-CONF-002');
      if (hasConfidence(a.event) && !stated.some((s) => near(s, c ?? Number.NaN))) findings.push(finding('PL-CONF-002', 'confidence-not-stated-in-text', at(a.event, '/proof_layer/confidence'), `the confidence of ${a.what} is not a score its text states`, stated, c));
      if (!hasConfidence(a.event) && stated.length === 1) findings.push(finding('PL-CONF-002', 'confidence-not-parsed', at(a.event, '/proof_layer'), `${a.what} states confidence ${stated[0]} but its event carries none`, stated[0], null));
    } else if (!(wholeTrail && a.what.startsWith('the final answer'))) {
      exercised.push('PL-CONF-003');
      if (hasConfidence(a.event)) findings.push(finding('PL-CONF-003', 'confidence-invented', at(a.event, '/proof_layer/confidence'), `${a.what} states no confidence, yet its event carries one`, 'no confidence', a.event.value.proof_layer && (a.event.value.proof_layer as Record<string, unknown>).confidence));
    }
  }

  // A failed tool's briefing: tier 4 (seed 002 §2.1 "Failure | 0.00 | Unable to answer").
  for (const r of facts.results.filter((x) => x.failure)) {
    exercised.push('PL-CONF-004');
    const about = obs.run.events.filter((e) => names(e, r.name) && hasConfidence(e));
    for (const e of about) if (!near(confidenceOf(e) ?? Number.NaN, 0)) findings.push(finding('PL-CONF-004', 'tool-error-confidence-not-zero', at(e, '/proof_layer/confidence'), `event ${e.index} reports the failure of ${r.name} with a confidence above 0`, 0, confidenceOf(e) ?? null));
    if (!about.some((e) => near(confidenceOf(e) ?? Number.NaN, 0))) findings.push(finding('PL-CONF-004', 'tool-error-confidence-missing', `frame[${r.frame}]`, `${r.name} failed but no event naming it carries confidence 0.0`, 0, obs.run.events.filter((e) => names(e, r.name)).map(brief)));
  }

  for (const { outline, event, position } of alignOutline(obs)) {
    if (outline.confidence === undefined) continue;
    const scope = auditBacked(event, scopes);
    const failure = outline.confidence === 0 && facts.results.some((r) => r.failure && names(event, r.name));
    const id = outline.confidence === null ? 'PL-CONF-003' : scope ? (scope.expected.error ? 'PL-CONF-004' : 'PL-CONF-001') : failure ? 'PL-CONF-004' : 'PL-CONF-002';
    exercised.push(id);
    const actual = hasConfidence(event) ? (event.value.proof_layer as Record<string, unknown>).confidence : null;
    const ok = outline.confidence === null ? actual === null : typeof actual === 'number' && near(actual, outline.confidence);
    if (!ok) findings.push(finding(id, 'confidence-not-expected', at(event, '/proof_layer/confidence'), `expect.briefings[${position}] (${outline.type} ${outline.source_agent ?? ''}) expects confidence ${outline.confidence}`, outline.confidence, actual));
  }
  return judgeAll(obs.scenario.id, exercised, findings);
}
