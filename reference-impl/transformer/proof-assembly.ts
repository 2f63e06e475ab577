/**
 * One proof layer from the three places proof can come from, in order of authority: the audit
 * trail (seed 000 §3.3), a structured `proof_layer` in a tool's response (seed 001 "Option B"),
 * and the text (seed 001 "Option A"). A source that states nothing never fills in a number.
 */
import { buildAuditProof, type AuditRecord } from './proof-from-audit.ts';
import { parseTextProof } from './proof-from-text.ts';
import { degradationNotice, uniqueCitations } from './proof-layer.ts';
import type { Citation, ProofLayer } from './types.ts';

export type AssembledProof = { proof: ProofLayer; notice?: string; skillId?: string };

export type ProofInputs = {
  /** The run's audit trail so far, and whose part of it speaks for this briefing. */
  trail: AuditRecord[];
  scope: string;
  /** For the final answer: fall back to the whole trail when the scope has no tool outcome. */
  wholeTrail?: boolean;
  /** A tool response that may hold `proof_layer` (seed 001 Option B). */
  response?: unknown;
  text: string;
  /** The coordinator's synthesis (its Overall Confidence wins) rather than a specialist's result. */
  final: boolean;
  /** Extra citations (the final answer lists the specialists' sources it drew on). */
  moreCitations?: Citation[];
  /** Reasoning when neither the audit trail nor the response gives one (the run's observed steps). */
  observedSteps?: string[];
};

export function assembleProof(inputs: ProofInputs): AssembledProof {
  const audit = buildAuditProof(inputs.trail, inputs.scope) ?? (inputs.wholeTrail ? buildAuditProof(inputs.trail) : undefined);
  const structured = readStructured(inputs.response);
  const text = parseTextProof(inputs.text, { final: inputs.final });

  const confidence = audit?.confidence ?? structured?.confidence ?? text.confidence;
  const citations = uniqueCitations([...(audit?.citations ?? []), ...(structured?.citations ?? []), ...text.citations, ...(inputs.moreCitations ?? [])]);
  const reasoning = audit && audit.reasoning.length > 0 ? audit.reasoning : structured && structured.reasoning.length > 0 ? structured.reasoning : inputs.observedSteps ?? [];
  const basis: ProofLayer['basis'] = audit ? 'audit' : structured ? 'structured' : text.confidence !== undefined || text.citations.length > 0 ? 'text' : 'none';

  const proof: ProofLayer = { reasoning_chain: reasoning, citations, basis };
  if (confidence !== undefined) proof.confidence = confidence;
  if (audit?.ledger) proof.confidence_ledger = audit.ledger;
  const whyNone = audit?.whyNone && text.confidence === undefined ? `${audit.whyNone}, and ${text.whyNone ?? 'the text states none'}` : text.whyNone ?? 'the source states none';
  const result: AssembledProof = { proof };
  const notice = degradationNotice(confidence, whyNone);
  if (notice) result.notice = notice;
  if (audit?.skillId) result.skillId = audit.skillId;
  return result;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{"result": ..., "proof_layer": {confidence, citations, reasoning_chain}}`, as seed 001 Option B proposes. */
function readStructured(response: unknown): { confidence?: number; citations: Citation[]; reasoning: string[] } | undefined {
  if (!isRecord(response) || !isRecord(response.proof_layer)) return undefined;
  const p = response.proof_layer;
  const out: { confidence?: number; citations: Citation[]; reasoning: string[] } = { citations: [], reasoning: [] };
  if (typeof p.confidence === 'number' && p.confidence >= 0 && p.confidence <= 1) out.confidence = p.confidence;
  if (Array.isArray(p.reasoning_chain)) out.reasoning = p.reasoning_chain.filter((s): s is string => typeof s === 'string');
  if (Array.isArray(p.citations)) {
    for (const c of p.citations) {
      if (!isRecord(c) || typeof c.source !== 'string') continue;
      const citation: Citation = { source: c.source, source_type: 'structured' };
      const ref = c.reference_id ?? c.reference;
      if (typeof ref === 'string') citation.reference_id = ref;
      if (typeof c.snippet === 'string') citation.snippet = c.snippet;
      if (typeof c.uri === 'string') citation.uri = c.uri;
      out.citations.push(citation);
    }
  }
  return out;
}
