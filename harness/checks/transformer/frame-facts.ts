/**
 * What the fed frames themselves say, independently of any transformer: the calls and their
 * results (adk-wire-format §4-§6, adk-python-facts §3), the texts that were streamed and the ones
 * that were complete, the errors, and the audit trail (`_audit_metadata`, seed 000 §2.2B). The
 * checks compare an implementation's briefings with these facts, so nothing here imports the
 * reference transformer.
 */
import type { FedFrame, TransformerObservation } from './observation.ts';
import { isRecord } from './briefing.ts';

export type CallKind = 'specialist' | 'transfer' | 'tool';

export type CallFact = { frame: number; author: string; name: string; id?: string; kind: CallKind; target: string };

export type ResultFact = {
  frame: number;
  author: string;
  name: string;
  kind: CallKind;
  /** The tool failed: `{"error": ...}` in its response (adk-wire-format §6 "tool throws"). */
  failure?: string;
  /** A specialist's answer text (`{"result": "..."}`, adk-python-facts §3.3). */
  text?: string;
  /** A structured `proof_layer.confidence` in the response (seed 001 Option B). */
  structuredConfidence?: number;
  skipSummarization: boolean;
};

export type TextFact = { frame: number; author: string; text: string };

export type AuditFact = {
  key: string;
  frame: number;
  type: string;
  agent?: string;
  tool?: string;
  confidence?: number;
  dataSources: string[];
  steps: string[];
  description?: string;
  label?: string;
  dataConfidence?: number;
  dataTier?: number;
  /** confidence_calc inputs: `{source, confidence, tier}`. */
  inputs: Array<{ source: string; confidence?: number; tier?: number }>;
  /** confidence_calc's stated analysis_confidence and recommendation_confidence. */
  analysisConfidence?: number;
  recommendationConfidence?: number;
  at?: number;
};

export type FrameFacts = {
  calls: CallFact[];
  results: ResultFact[];
  /** Text deltas of `partial: true` events, in order. */
  chunks: TextFact[];
  /** Answer texts of non-partial events (no calls, responses or errorCode), one per (id, content). */
  answers: TextFact[];
  /** The text of every non-partial event, answers and the narration beside calls alike, one per (id, content). */
  completeTexts: TextFact[];
  /** Whether any model activity (a model-role event, a partial, an errorCode) came. */
  modelActivity: boolean;
  errorCodes: Array<{ frame: number; author: string; code: string }>;
  /** errorCode or finishReason saying the response was refused (SAFETY and its kin). */
  blocked: Array<{ frame: number; author: string; code: string }>;
  audit: AuditFact[];
  /** The final answer and who gave it, when the scenario or the frames tell. */
  final?: { author: string; text?: string };
};

const blockedCodes = new Set(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'IMAGE_SAFETY', 'RECITATION']);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

function partsOf(event: Record<string, unknown>): Array<Record<string, unknown>> {
  const content = isRecord(event.content) ? event.content : {};
  return Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];
}

function textOf(event: Record<string, unknown>): string {
  return partsOf(event).filter((p) => typeof p.text === 'string' && p.thought !== true).map((p) => p.text as string).join('');
}

/** AgentTool's declaration is `{request: STRING}` (adk-python-facts §3.3); transfer_to_agent names its target. */
function classify(name: string, args: Record<string, unknown>): { kind: CallKind; target: string } {
  if (name === 'transfer_to_agent') return { kind: 'transfer', target: str(args.agentName) ?? str(args.agent_name) ?? 'unknown_agent' };
  const keys = Object.keys(args);
  return { kind: keys.length === 1 && keys[0] === 'request' && typeof args.request === 'string' ? 'specialist' : 'tool', target: name };
}

function readAudit(entry: unknown, frame: number): AuditFact | undefined {
  if (!isRecord(entry) || typeof entry.event_type !== 'string') return undefined;
  const p = isRecord(entry.payload) ? { ...entry, ...entry.payload } : entry;
  const time = typeof entry.timestamp === 'string' ? Date.parse(entry.timestamp) : Number.NaN;
  const fact: AuditFact = {
    key: str(entry.event_id) ?? JSON.stringify(entry), frame, type: entry.event_type,
    dataSources: strings(p.data_sources),
    steps: strings(p.reasoning_steps).length > 0 ? strings(p.reasoning_steps) : strings(p.reasoning_chain),
    inputs: Array.isArray(p.inputs) ? p.inputs.filter(isRecord).filter((i) => typeof i.source === 'string').map((i) => ({ source: i.source as string, ...(num(i.confidence) !== undefined ? { confidence: num(i.confidence) } : {}), ...(num(i.tier) !== undefined ? { tier: num(i.tier) } : {}) })) : [],
  };
  const optional: Partial<AuditFact> = {
    agent: str(p.agent), tool: str(p.tool_name) ?? str(p.tool), confidence: num(p.confidence),
    description: str(p.description) ?? str(p.step), label: str(p.data_source_label) ?? str(p.source),
    dataConfidence: num(p.data_confidence), dataTier: num(p.data_tier), at: Number.isNaN(time) ? undefined : time,
    analysisConfidence: num(p.analysis_confidence), recommendationConfidence: num(p.recommendation_confidence),
  };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) (fact as Record<string, unknown>)[k] = v;
  return fact;
}

export function frameFacts(obs: Pick<TransformerObservation, 'frames' | 'scenario'>): FrameFacts {
  const facts: FrameFacts = { calls: [], results: [], chunks: [], answers: [], completeTexts: [], modelActivity: false, errorCodes: [], blocked: [], audit: [] };
  const kinds = new Map<string, CallKind>();
  const seenAudit = new Set<string>();
  const seenContent = new Set<string>();
  for (const frame of obs.frames) {
    if (frame.kind !== 'event' || !frame.json) continue;
    const e = frame.json;
    const author = str(e.author) ?? 'unknown';
    for (const entry of Array.isArray(e._audit_metadata) ? e._audit_metadata : []) {
      const fact = readAudit(entry, frame.index);
      if (fact && !seenAudit.has(fact.key)) { seenAudit.add(fact.key); facts.audit.push(fact); }
    }
    const content = isRecord(e.content) ? e.content : undefined;
    const code = e.errorCode === undefined || e.errorCode === null ? undefined : String(e.errorCode);
    if (content?.role === 'model' || code !== undefined || e.partial === true) facts.modelActivity = true;
    if (code !== undefined) facts.errorCodes.push({ frame: frame.index, author, code });
    const refused = code !== undefined && blockedCodes.has(code) ? code : blockedCodes.has(str(e.finishReason) ?? '') ? (e.finishReason as string) : undefined;
    if (refused) facts.blocked.push({ frame: frame.index, author, code: refused });
    const text = textOf(e);
    if (e.partial === true) { if (text) facts.chunks.push({ frame: frame.index, author, text }); continue; }
    // Python's artifact split repeats an event's id: the same (id, content) is one event.
    const key = `${str(e.id) ?? frame.index}\u0000${JSON.stringify(e.content)}`;
    if (seenContent.has(key)) continue;
    seenContent.add(key);
    if (text) facts.completeTexts.push({ frame: frame.index, author, text });
    let sawCallOrResult = false;
    for (const part of partsOf(e)) {
      const call = isRecord(part.functionCall) ? part.functionCall : undefined;
      const response = isRecord(part.functionResponse) ? part.functionResponse : undefined;
      if (call) {
        sawCallOrResult = true;
        const name = str(call.name) ?? 'unknown_tool';
        const { kind, target } = classify(name, isRecord(call.args) ? call.args : {});
        const id = str(call.id);
        kinds.set(id ?? `name:${name}`, kind);
        facts.calls.push({ frame: frame.index, author, name, kind, target, ...(id ? { id } : {}) });
      }
      if (response) {
        sawCallOrResult = true;
        const name = str(response.name) ?? 'unknown_tool';
        const kind = kinds.get(str(response.id) ?? '') ?? kinds.get(`name:${name}`) ?? 'tool';
        const r = response.response;
        const error = isRecord(r) ? r.error : undefined;
        const failure = typeof error === 'string' && error ? error : isRecord(error) ? JSON.stringify(error) : undefined;
        const resultText = typeof r === 'string' ? r : isRecord(r) && typeof r.result === 'string' ? r.result : undefined;
        const skip = isRecord(e.actions) && e.actions.skipSummarization === true;
        const structured = isRecord(r) && isRecord(r.proof_layer) ? num(r.proof_layer.confidence) : undefined;
        facts.results.push({
          frame: frame.index, author, name, kind, skipSummarization: skip, ...(failure ? { failure } : {}),
          ...(resultText !== undefined && !failure ? { text: resultText } : {}), ...(structured !== undefined ? { structuredConfidence: structured } : {}),
        });
      }
    }
    if (!sawCallOrResult && code === undefined && text) facts.answers.push({ frame: frame.index, author, text });
  }
  facts.final = finalOf(obs.scenario.expect.finalText, facts);
  return facts;
}

function finalOf(finalText: string | undefined, facts: FrameFacts): FrameFacts['final'] {
  if (finalText !== undefined) {
    const answer = [...facts.answers].reverse().find((a) => a.text === finalText);
    return answer ? { author: answer.author, text: finalText } : undefined;
  }
  // skipSummarization: the function response is the final answer (adk-python-facts §3.3).
  const last = facts.results[facts.results.length - 1];
  if (last?.skipSummarization && !last.failure) return { author: last.kind === 'specialist' ? last.name : last.author, ...(last.text !== undefined ? { text: last.text } : {}) };
  return undefined;
}

export const framesOfKind = (frames: FedFrame[], kind: FedFrame['kind']): FedFrame[] => frames.filter((f) => f.kind === kind);
