/**
 * Reading an AgentBriefingEvent the way the checks need it, accepting what the spec allows. Seed
 * 002 names the lifecycle states (§4.1) but gives the schema (§2) no field for them, so the state is
 * read from the first of these that holds a state name: `state` (the reference's choice,
 * docs/briefing-mapping.md), `agent_state`, `lifecycle_state`, `content.state`, `metadata.state`.
 * A suggestion (seed 002 §4.1 ERROR "Suggestion chip") is `suggestion`, `content.suggestion` or,
 * as the reference does, a non-empty `content.detail`.
 */
import type { EmittedEvent } from './observation.ts';

export const briefingStates = ['THINKING', 'DELEGATING', 'EXECUTING', 'SYNTHESIZING', 'COMPLETE', 'ERROR'] as const;
export type BriefingState = (typeof briefingStates)[number];

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function stateOf(e: EmittedEvent): BriefingState | undefined {
  const v = e.value;
  const content = isRecord(v.content) ? v.content : {};
  const metadata = isRecord(v.metadata) ? v.metadata : {};
  for (const candidate of [v.state, v.agent_state, v.lifecycle_state, content.state, metadata.state]) {
    const name = str(candidate)?.toUpperCase();
    if (name && (briefingStates as readonly string[]).includes(name)) return name as BriefingState;
  }
  return undefined;
}

export const typeOf = (e: EmittedEvent): string | undefined => str(e.value.type);
export const sourceOf = (e: EmittedEvent): string | undefined => str(e.value.source_agent);
export const idOf = (e: EmittedEvent): string | undefined => str(e.value.event_id);
export const isTerminal = (e: EmittedEvent): boolean => { const s = stateOf(e); return s === 'COMPLETE' || s === 'ERROR'; };

function contentOf(e: EmittedEvent): Record<string, unknown> {
  return isRecord(e.value.content) ? e.value.content : {};
}

export const summaryOf = (e: EmittedEvent): string | undefined => str(contentOf(e).summary);
export const detailOf = (e: EmittedEvent): string | undefined => str(contentOf(e).detail);
export const noticeOf = (e: EmittedEvent): string | undefined => str(contentOf(e).degradation_notice);

/** The body an event carries: its detail, else its summary. */
export const bodyOf = (e: EmittedEvent): string | undefined => detailOf(e) ?? summaryOf(e);

export function proofOf(e: EmittedEvent): Record<string, unknown> | undefined {
  return isRecord(e.value.proof_layer) ? e.value.proof_layer : undefined;
}

export function confidenceOf(e: EmittedEvent): number | undefined {
  const c = proofOf(e)?.confidence;
  return typeof c === 'number' ? c : undefined;
}

export function hasConfidence(e: EmittedEvent): boolean {
  const p = proofOf(e);
  return p !== undefined && p.confidence !== undefined && p.confidence !== null;
}

export function citationsOf(e: EmittedEvent): Array<Record<string, unknown>> {
  const c = proofOf(e)?.citations;
  return Array.isArray(c) ? c.filter(isRecord) : [];
}

/** Every string a citation carries (source, snippet, excerpt, reference_id, id, uri...). */
export function citationStrings(citation: Record<string, unknown>): string[] {
  return Object.values(citation).filter((v): v is string => typeof v === 'string');
}

export function reasoningOf(e: EmittedEvent): string[] | undefined {
  const r = proofOf(e)?.reasoning_chain;
  return Array.isArray(r) ? r.filter((s): s is string => typeof s === 'string') : undefined;
}

export function suggestionOf(e: EmittedEvent): string | undefined {
  const content = contentOf(e);
  for (const s of [e.value.suggestion, content.suggestion, content.detail]) if (typeof s === 'string' && s.trim()) return s;
  return undefined;
}

/** Every text an event shows a person: summary, detail, notice, skill, error message, target fields. */
export function textsOf(e: EmittedEvent): string[] {
  const v = e.value;
  const content = contentOf(e);
  const error = isRecord(v.error) ? v.error : {};
  return [content.summary, content.detail, content.degradation_notice, v.skill_id, error.message, v.delegate_to, v.target, v.target_agent]
    .filter((s): s is string => typeof s === 'string');
}

/** Whether the event names this agent or tool: a target field equal to it, or any text containing it. */
export function names(e: EmittedEvent, name: string): boolean {
  return textsOf(e).some((t) => t === name || t.includes(name));
}

/** A short view of an event for a finding's `actual`. */
export function brief(e: EmittedEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { type: typeOf(e), source_agent: sourceOf(e) };
  const state = stateOf(e);
  if (state) out.state = state;
  const summary = summaryOf(e);
  if (summary !== undefined) out.summary = summary.length > 80 ? `${summary.slice(0, 79)}…` : summary;
  const c = confidenceOf(e);
  if (c !== undefined) out.confidence = c;
  return out;
}

export const at = (e: EmittedEvent, pointer = ''): string => `event[${e.index}]${pointer}`;
