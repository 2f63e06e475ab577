/**
 * proof_layer.citations:
 * - PL-CIT-001 (seed 000 §7 "Citations include tool-provided `data_sources`", §3.3 rule 2): for an
 *   agent with a tool_response in its audit trail, one of the events speaking for it cites every
 *   `data_sources` entry of its tool responses and every data_load / mcp_fetch label of that agent.
 * - PL-CIT-002 (seed 001 Q3 "Regulatory citations in text: `**Regulatory Basis:** ...`"): an event
 *   a text speaks for cites every piece of its `**Source:**` / `**Regulatory Basis:**` lines.
 * A citation "cites" a value when one of its strings (source, snippet, excerpt, reference_id...)
 * equals it (audit) or contains it (text pieces, which an implementation may keep joined).
 * Outline entries (`citations`, `citationSources`) are exact and go to the requirement of their basis.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { EmittedEvent, TransformerObservation } from './observation.ts';
import { at, brief, citationStrings, citationsOf } from './briefing.ts';
import type { FrameFacts } from './frame-facts.ts';
import { finding, judgeAll } from './outcome.ts';
import { alignOutline, auditBacked, auditScopes, textAnchors, textSources } from './proof-sources.ts';

const citesExactly = (e: EmittedEvent, value: string): boolean => citationsOf(e).some((c) => citationStrings(c).includes(value));
const citesPiece = (e: EmittedEvent, piece: string): boolean => citationsOf(e).some((c) => citationStrings(c).some((s) => s.includes(piece)));
const sourcesOf = (e: EmittedEvent): unknown[] => citationsOf(e).map((c) => c.source ?? c);

export function checkCitations(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const findings: Finding[] = [];
  const exercised: string[] = [];
  const scopes = auditScopes(obs, facts);

  for (const s of scopes) {
    const expected = [...new Set([
      ...s.outcomes.filter((o) => o.type === 'tool_response').flatMap((o) => o.dataSources),
      ...s.records.filter((r) => (r.type === 'data_load' || r.type === 'mcp_fetch') && r.label).map((r) => r.label as string),
    ])];
    if (expected.length === 0) continue;
    exercised.push('PL-CIT-001');
    if (s.speakers.some((e) => expected.every((v) => citesExactly(e, v)))) continue;
    const best = s.speakers[s.speakers.length - 1];
    const missing = best ? expected.filter((v) => !citesExactly(best, v)) : expected;
    findings.push(finding('PL-CIT-001', 'audit-citation-missing', best ? at(best, '/proof_layer/citations') : `frame[${s.outcomes[0]!.frame}]/_audit_metadata`, `no event speaking for ${s.agent} cites every data source of its audit trail (missing: ${missing.join('; ')})`, expected, best ? sourcesOf(best) : s.speakers.map(brief)));
  }

  for (const a of textAnchors(obs, facts)) {
    const lines = textSources(a.text);
    if (lines.length === 0) continue;
    exercised.push('PL-CIT-002');
    const missing = lines.flatMap((l) => l.pieces.filter((p) => !citesPiece(a.event, p)));
    if (missing.length > 0) findings.push(finding('PL-CIT-002', 'text-citation-missing', at(a.event, '/proof_layer/citations'), `${a.what} names sources its event does not cite: ${missing.join('; ')}`, lines.map((l) => l.line), sourcesOf(a.event)));
  }

  for (const { outline, event, position } of alignOutline(obs)) {
    if (outline.citations === undefined && outline.citationSources === undefined) continue;
    const id = auditBacked(event, scopes) ? 'PL-CIT-001' : 'PL-CIT-002';
    exercised.push(id);
    const count = citationsOf(event).length;
    if (outline.citations !== undefined && count !== outline.citations) findings.push(finding(id, 'citation-count-not-expected', at(event, '/proof_layer/citations'), `expect.briefings[${position}] (${outline.type} ${outline.source_agent ?? ''}) expects ${outline.citations} citation(s)`, outline.citations, sourcesOf(event)));
    const absent = (outline.citationSources ?? []).filter((v) => !citesExactly(event, v));
    if (absent.length > 0) findings.push(finding(id, 'citation-source-not-expected', at(event, '/proof_layer/citations'), `expect.briefings[${position}] (${outline.type} ${outline.source_agent ?? ''}) expects citations of ${absent.join('; ')}`, outline.citationSources, sourcesOf(event)));
  }
  return judgeAll(obs.scenario.id, exercised, findings);
}
