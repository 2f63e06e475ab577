/**
 * The parts of a proof layer only an audit trail can fill (seed 000 §3.3 rules 3 and 4, §7):
 * - PL-REASON-001 "Reasoning chains come directly from skill execution logs": one event speaking for
 *   the agent has a reasoning_chain holding, in order, the agent's reasoning_step descriptions and
 *   its tool responses' reasoning steps, sorted by timestamp (stable; trail order when one is
 *   missing). Other steps may sit between them (an implementation may add what it observed).
 * - PL-LEDGER-001 "Frontend `AgentBriefingEvent` has populated `confidence_ledger`": one event
 *   speaking for the agent lists, in confidence_ledger.inputs, every data source of the trail
 *   (data_load / mcp_fetch labels, confidence_calc inputs, tool data_sources) with a confidence the
 *   trail states for it and a tier that is the one the trail states or the seed 002 §2.1 tier of
 *   that confidence. A `confidence_calc` entry states the ledger itself (seed 000 §3.1 "Confidence
 *   computed ... confidence_ledger"): its inputs are then the only ones accepted, each at its stated
 *   confidence, and its stated analysis and recommendation confidences are the ledger's. Without
 *   one, recommendation_confidence equals analysis_confidence (mapping rule MAP-PROOF-004: §3.3's
 *   `confidence - 0.03` is a number no data states, §7 "no inference").
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { EmittedEvent, TransformerObservation } from './observation.ts';
import { at, isRecord, proofOf, reasoningOf } from './briefing.ts';
import type { FrameFacts } from './frame-facts.ts';
import { finding, judgeAll } from './outcome.ts';
import { auditScopes, tierOf, type AuditScope } from './proof-sources.ts';

function isSubsequence(expected: string[], actual: string[]): boolean {
  let i = 0;
  for (const step of actual) if (step === expected[i]) i++;
  return i === expected.length;
}

function expectedChain(s: AuditScope): string[] {
  const entries: Array<{ at?: number; text: string }> = [];
  for (const r of s.records) {
    if (r.type === 'reasoning_step' && r.description) entries.push({ ...(r.at !== undefined ? { at: r.at } : {}), text: r.description });
    if (r.type === 'tool_response') for (const step of r.steps) entries.push({ ...(r.at !== undefined ? { at: r.at } : {}), text: step });
  }
  if (entries.every((e) => e.at !== undefined)) entries.sort((a, b) => (a.at as number) - (b.at as number));
  return entries.map((e) => e.text);
}

type Accepted = { confidences: number[]; tiers: number[] };

/** The last confidence_calc of the scope that states inputs: the trail's own ledger. */
function statedLedger(s: AuditScope) {
  return s.records.filter((r) => r.type === 'confidence_calc' && r.inputs.length > 0).at(-1);
}

function ledgerExpectations(s: AuditScope): Map<string, Accepted> {
  const out = new Map<string, Accepted>();
  const calc = statedLedger(s);
  if (calc) {
    for (const i of calc.inputs) out.set(i.source, { confidences: i.confidence !== undefined ? [i.confidence] : [], tiers: i.tier !== undefined ? [i.tier] : [] });
    return out;
  }
  const add = (source: string, confidence: number | undefined, tier: number | undefined) => {
    const a = out.get(source) ?? { confidences: [], tiers: [] };
    if (confidence !== undefined) a.confidences.push(confidence);
    if (tier !== undefined) a.tiers.push(tier);
    out.set(source, a);
  };
  for (const r of s.records) {
    if ((r.type === 'data_load' || r.type === 'mcp_fetch') && r.label) add(r.label, r.dataConfidence, r.dataTier);
    if (r.type === 'confidence_calc') for (const i of r.inputs) add(i.source, i.confidence, i.tier);
    if (r.type === 'tool_response') for (const source of r.dataSources) add(source, r.confidence, undefined);
  }
  return out;
}

/** analysis_confidence and recommendation_confidence as the trail states them (MAP-PROOF-004). */
function ledgerTotals(s: AuditScope): { analysis?: number; recommendation?: number } {
  const calc = statedLedger(s);
  const analysis = calc?.analysisConfidence ?? s.expected.confidence;
  return { ...(analysis !== undefined ? { analysis } : {}), ...((calc?.recommendationConfidence ?? analysis) !== undefined ? { recommendation: calc?.recommendationConfidence ?? analysis } : {}) };
}

function ledgerProblems(e: EmittedEvent, expected: Map<string, Accepted>, totals: { analysis?: number; recommendation?: number }): string[] {
  const ledger = proofOf(e)?.confidence_ledger;
  const inputs = isRecord(ledger) && Array.isArray(ledger.inputs) ? ledger.inputs.filter(isRecord) : undefined;
  if (!inputs) return ['no confidence_ledger.inputs'];
  const problems: string[] = [];
  for (const key of ['analysis', 'recommendation'] as const) {
    const want = totals[key];
    const got = isRecord(ledger) ? ledger[`${key}_confidence`] : undefined;
    if (want !== undefined && (typeof got !== 'number' || Math.abs(got - want) > 1e-9)) problems.push(`${key}_confidence ${String(got)}, the trail states ${want}${key === 'recommendation' ? ' (no derived number: mapping rule MAP-PROOF-004)' : ''}`);
  }
  for (const [source, accepted] of expected) {
    const input = inputs.find((i) => i.source === source);
    if (!input) { problems.push(`${source}: not listed`); continue; }
    const c = input.confidence;
    if (typeof c !== 'number' || (accepted.confidences.length > 0 && !accepted.confidences.some((x) => Math.abs(x - c) < 1e-9))) { problems.push(`${source}: confidence ${String(c)}, the trail states ${accepted.confidences.join(' or ')}`); continue; }
    const tiers = [...accepted.tiers, tierOf(c)];
    if (!tiers.includes(input.tier as number)) problems.push(`${source}: tier ${String(input.tier)}, expected ${[...new Set(tiers)].join(' or ')}`);
  }
  return problems;
}

export function checkAuditProof(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const findings: Finding[] = [];
  const exercised: string[] = [];
  for (const s of auditScopes(obs, facts)) {
    const best = s.speakers[s.speakers.length - 1];
    const where = best ? at(best, '/proof_layer') : `frame[${s.outcomes[0]!.frame}]/_audit_metadata`;
    const chain = expectedChain(s);
    if (chain.length > 0) {
      exercised.push('PL-REASON-001');
      if (!s.speakers.some((e) => isSubsequence(chain, reasoningOf(e) ?? []))) {
        findings.push(finding('PL-REASON-001', 'reasoning-chain-not-audit', `${where}/reasoning_chain`, `no event speaking for ${s.agent} has the audit trail's reasoning steps, in order, in its reasoning_chain`, chain, best ? reasoningOf(best) ?? null : null));
      }
    }
    const ledger = ledgerExpectations(s);
    if (ledger.size > 0 && s.expected.confidence !== undefined && !s.expected.error) {
      exercised.push('PL-LEDGER-001');
      const totals = ledgerTotals(s);
      const problems = s.speakers.map((e) => ledgerProblems(e, ledger, totals));
      if (!problems.some((p) => p.length === 0)) {
        const shown = problems[problems.length - 1] ?? ['no event speaks for the agent'];
        findings.push(finding('PL-LEDGER-001', 'ledger-incomplete', `${where}/confidence_ledger`, `no event speaking for ${s.agent} lists every data source with its confidence and tier and the trail's totals: ${shown.join('; ')}`, [...ledger.keys()], best ? proofOf(best)?.confidence_ledger ?? null : null));
      }
    }
  }
  return judgeAll(obs.scenario.id, exercised, findings);
}
