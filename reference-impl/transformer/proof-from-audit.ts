/**
 * Seed 000 §3.3's mapping rules from the audit trail (`_audit_metadata`, seed 000 §2.2B) to the
 * proof layer. Entries come flat (seed 000 §2.2C `AuditTrailEvent`) or with a `payload` (seed 000
 * §3.2); both read the same. docs/briefing-mapping.md §"Proof from audit metadata" has the choices.
 */
import { tierOf, uniqueCitations, type Tier } from './proof-layer.ts';
import type { Citation, ConfidenceLedger, LedgerInput } from './types.ts';

/** One audit entry, normalised. */
export type AuditRecord = {
  key: string;
  type: string;
  /** Epoch ms when the timestamp parses. */
  at: number | undefined;
  agent?: string;
  tool?: string;
  skillId?: string;
  confidence?: number;
  dataSources: string[];
  steps: string[];
  description?: string;
  label?: string;
  fireId?: string;
  uri?: string;
  sourceType?: string;
  dataConfidence?: number;
  dataTier?: Tier;
  notes?: string;
  /** confidence_calc: the ledger the trail states itself (seed 000 §3.1). */
  statedInputs?: LedgerInput[];
  analysisConfidence?: number;
  recommendationConfidence?: number;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

function epochMs(value: unknown): number | undefined {
  if (typeof value === 'string') { const t = Date.parse(value); return Number.isNaN(t) ? undefined : t; }
  // Seconds (Python) or milliseconds (JS): nothing this century is below 1e11 ms.
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e11 ? value * 1000 : value;
  return undefined;
}

/** Normalise `_audit_metadata`; entries that are not objects with an `event_type` are skipped. */
export function readAuditTrail(metadata: unknown): AuditRecord[] {
  if (!Array.isArray(metadata)) return [];
  const records: AuditRecord[] = [];
  for (const entry of metadata) {
    if (!isRecord(entry) || typeof entry.event_type !== 'string') continue;
    const p = isRecord(entry.payload) ? { ...entry, ...entry.payload } : entry;
    const tier = num(p.data_tier);
    const record: AuditRecord = {
      key: str(entry.event_id) ?? JSON.stringify(entry),
      type: entry.event_type,
      at: epochMs(entry.timestamp),
      dataSources: strings(p.data_sources),
      steps: strings(p.reasoning_steps).length > 0 ? strings(p.reasoning_steps) : strings(p.reasoning_chain),
    };
    const optional: Partial<AuditRecord> = {
      agent: str(p.agent), tool: str(p.tool_name) ?? str(p.tool), skillId: str(p.skill_id), confidence: num(p.confidence),
      description: str(p.description) ?? str(p.step) ?? str(p.text), label: str(p.data_source_label) ?? str(p.source) ?? str(p.label),
      fireId: str(p.fire_id), uri: str(p.uri), sourceType: str(p.source_type), dataConfidence: num(p.data_confidence),
      notes: str(p.notes), dataTier: tier === 1 || tier === 2 || tier === 3 || tier === 4 ? tier : undefined,
      statedInputs: entry.event_type === 'confidence_calc' ? statedInputsOf(p.inputs) : undefined,
      analysisConfidence: num(p.analysis_confidence), recommendationConfidence: num(p.recommendation_confidence),
    };
    for (const [k, v] of Object.entries(optional)) if (v !== undefined) (record as Record<string, unknown>)[k] = v;
    records.push(record);
  }
  return records;
}

function statedInputsOf(value: unknown): LedgerInput[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const inputs: LedgerInput[] = [];
  for (const i of value) {
    if (!isRecord(i) || typeof i.source !== 'string') continue;
    const confidence = num(i.confidence);
    if (confidence === undefined) continue;
    const tier = num(i.tier);
    inputs.push({ source: i.source, confidence, tier: tier === 1 || tier === 2 || tier === 3 || tier === 4 ? tier : tierOf(confidence), notes: str(i.notes) ?? 'From confidence_calc' });
  }
  return inputs.length > 0 ? inputs : undefined;
}

export type AuditProof = {
  confidence?: number;
  whyNone?: string;
  citations: Citation[];
  reasoning: string[];
  ledger?: ConfidenceLedger;
  skillId?: string;
};

/**
 * The proof for one tool or specialist (`scope`: its name, matched against `tool` and `agent`) or,
 * without a scope, for the whole run. Undefined when the scope has no tool_response or tool_error:
 * then the audit trail does not speak for it and the text does.
 */
export function buildAuditProof(trail: AuditRecord[], scope?: string): AuditProof | undefined {
  const relevant = scope === undefined ? trail : scoped(trail, scope);
  const outcomes = relevant.filter((r) => r.type === 'tool_response' || r.type === 'tool_error');
  if (outcomes.length === 0) return undefined;
  const responses = outcomes.filter((r) => r.type === 'tool_response');
  const last = outcomes[outcomes.length - 1] as AuditRecord;

  // Rule 1: "confidence equals the tool_response's"; seed 000 §3.1: tool_error maps to confidence=0.0.
  let confidence: number | undefined;
  let whyNone: string | undefined;
  if (scope !== undefined || outcomes.length === 1) {
    confidence = last.type === 'tool_error' ? 0 : last.confidence;
    if (confidence === undefined) whyNone = `the ${last.tool ?? 'tool'} tool_response states no confidence`;
  } else {
    const scores = new Set(outcomes.map((r) => (r.type === 'tool_error' ? 0 : r.confidence)));
    if (scores.size === 1 && !scores.has(undefined)) confidence = [...scores][0];
    else whyNone = `the audit trail holds ${outcomes.length} tool outcomes with different confidences and no overall score`;
  }

  // Rule 2: data_load / mcp_fetch events, then the tools' own data_sources (seed 000 §7).
  const citations: Citation[] = [];
  for (const r of relevant) {
    if ((r.type === 'data_load' || r.type === 'mcp_fetch') && (r.label ?? r.fireId)) {
      // Rule 2 names (source_type, id, uri, excerpt) next to seed 002's (source, reference_id).
      const c: Citation = { source: (r.label ?? r.fireId) as string, source_type: r.sourceType ?? (r.type === 'data_load' ? 'RANGER-Fixtures' : 'MCP') };
      if (r.fireId) { c.reference_id = r.fireId; c.id = r.fireId; c.uri = r.uri ?? `ranger://fixtures/${r.fireId}`; } else if (r.uri) c.uri = r.uri;
      if (r.label) c.excerpt = r.label;
      citations.push(c);
    }
  }
  for (const r of responses) for (const source of r.dataSources) citations.push({ source, source_type: 'tool-data-source', ...(r.tool ? { reference_id: r.tool } : {}) });

  const proof: AuditProof = { citations: uniqueCitations(citations), reasoning: reasoningOf(relevant) };
  if (confidence !== undefined) proof.confidence = confidence; else if (whyNone) proof.whyNone = whyNone;
  const skillId = [...responses].reverse().find((r) => r.skillId)?.skillId;
  if (skillId) proof.skillId = skillId;
  if (confidence !== undefined) {
    const ledger = ledgerOf(relevant, responses, confidence);
    if (ledger) proof.ledger = ledger;
  }
  return proof;
}

/**
 * A specialist's records carry its name as `agent`; a plain tool's carry it as `tool_name`, and the
 * data_load / mcp_fetch / reasoning_step records of that tool run only as `agent`: those count when
 * they fall between the tool's invocation and its outcome (or have no timestamp to tell).
 */
function scoped(trail: AuditRecord[], scope: string): AuditRecord[] {
  if (trail.some((r) => r.agent === scope)) return trail.filter((r) => r.agent === scope || r.tool === scope);
  const windows: Array<{ agent: string | undefined; from: number; to: number }> = [];
  let from = -Infinity;
  for (const r of trail) {
    if (r.tool !== scope) continue;
    if (r.type === 'tool_invocation') from = r.at ?? -Infinity;
    if (r.type === 'tool_response' || r.type === 'tool_error') { windows.push({ agent: r.agent, from, to: r.at ?? Infinity }); from = -Infinity; }
  }
  return trail.filter((r) => r.tool === scope || (r.tool === undefined && windows.some((w) => r.agent === w.agent && (r.at === undefined || (r.at >= w.from && r.at <= w.to)))));
}

/** Rule 3: reasoning_step descriptions and the tools' reasoning steps, in timestamp order (stable). */
function reasoningOf(records: AuditRecord[]): string[] {
  const entries: Array<{ at: number | undefined; text: string }> = [];
  for (const r of records) {
    if (r.type === 'reasoning_step' && r.description) entries.push({ at: r.at, text: r.description });
    if (r.type === 'tool_response') for (const step of r.steps) entries.push({ at: r.at, text: step });
  }
  // Without a timestamp on every entry there is no total order to sort by: keep the trail's order.
  if (entries.every((e) => e.at !== undefined)) entries.sort((a, b) => (a.at as number) - (b.at as number));
  return entries.map((e) => e.text);
}

/**
 * MAP-PROOF-004: a confidence_calc entry states the ledger itself (seed 000 §3.1), taken as stated.
 * Otherwise rule 4 inputs (data_load / mcp_fetch with their own score and tier) plus seed 000
 * §2.2D's inputs (each tool data source at the tool's confidence, tier by score), and
 * recommendation_confidence equals analysis_confidence, as in §2.2D: §3.3's `confidence - 0.03`
 * would be an invented number.
 */
function ledgerOf(records: AuditRecord[], responses: AuditRecord[], confidence: number): ConfidenceLedger | undefined {
  const calc = records.filter((r) => r.type === 'confidence_calc' && r.statedInputs).at(-1);
  if (calc?.statedInputs) {
    const analysis = calc.analysisConfidence ?? confidence;
    return { inputs: calc.statedInputs, analysis_confidence: analysis, recommendation_confidence: calc.recommendationConfidence ?? analysis };
  }
  const inputs: LedgerInput[] = [];
  const listed = new Set<string>();
  for (const r of records) {
    if (r.type !== 'data_load' && r.type !== 'mcp_fetch') continue;
    const source = r.label ?? r.fireId;
    if (!source || listed.has(source)) continue;
    const score = r.dataConfidence ?? confidence;
    inputs.push({ source, confidence: score, tier: r.dataTier ?? tierOf(score), notes: r.notes ?? `From ${r.type}${r.tool ? ` in ${r.tool}` : ''}` });
    listed.add(source);
  }
  for (const r of responses) {
    for (const source of r.dataSources) {
      if (listed.has(source)) continue;
      const score = r.confidence ?? confidence;
      inputs.push({ source, confidence: score, tier: tierOf(score), notes: `From ${r.tool ?? 'tool'} execution` });
      listed.add(source);
    }
  }
  if (inputs.length === 0) return undefined;
  return { inputs, analysis_confidence: confidence, recommendation_confidence: confidence };
}
