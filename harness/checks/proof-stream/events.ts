/**
 * What the proof-layer stream cases push (seed 002 AgentBriefingEvents, seed 000 §4.3 progressive
 * proof events, seed 000 §3.1 audit events) and how they read the state back: only the fields
 * docs/proof-stream-contract.md lists, each read defensively, since a module under test may return anything.
 */
import type { VirtualClock } from './clock.ts';

/** The module contract's stream (reference-impl/proof-layer-stream.ts is one implementation). */
export type ProofStream = { push: (event: unknown) => void; getState: () => Record<string, unknown>; dispose?: () => void };
export type ProofStreamFactory = (config: { now: () => number; setTimeout: (fn: () => void, ms: number) => unknown; clearTimeout: (handle: unknown) => void }) => ProofStream;

export type Fail = (path: string, message: string, expected: unknown, actual: unknown) => void;
/** One scripted case: one requirement, events pushed at chosen virtual times, the state read at the window edges. */
export type Case = { requirement: string; name: string; run: (s: ProofStream, clock: VirtualClock, fail: Fail) => void };

export const step = (sequence: number, text: string) => ({ proof_type: 'reasoning_step', sequence, proof_data: { step: text } });
export const confidence = (sequence: number, value: number) => ({ proof_type: 'confidence_update', sequence, proof_data: { confidence: value } });
export const citation = (sequence: number, value: Record<string, unknown>) => ({ proof_type: 'citation_accessed', sequence, proof_data: { citation: value } });
export const briefing = (id: string, type: string, extra: Record<string, unknown> = {}) => ({ event_id: id, type, source_agent: 'coordinator', correlation_id: 'c1', timestamp: '2026-11-23T00:00:00.000Z', content: { summary: id, detail: id }, ...extra });
export const audit = (id: string) => ({ event_type: 'tool_invocation', event_id: id, invocation_id: 'e-1', agent: 'burn_analyst', timestamp: '2026-11-23T00:00:00.000Z', payload: {} });
/** The final answer (seed 002 §4.1 "COMPLETE | INSIGHT"), with an empty reasoning chain unless given. */
export const finalAnswer = (id: string, proof: Record<string, unknown> = {}) => briefing(id, 'INSIGHT', { state: 'COMPLETE', proof_layer: { confidence: 0.9, citations: [], reasoning_chain: [], ...proof } });

export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const field = (v: unknown, key: string): unknown => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined);
export const ids = (v: unknown): unknown[] => arr(v).map((e) => field(e, 'event_id'));
export const texts = (v: unknown): unknown[] => arr(v).map((e) => field(e, 'text'));
export const confidences = (v: unknown): unknown[] => arr(v).map((e) => field(e, 'confidence'));
export const referenceIds = (v: unknown): unknown[] => arr(v).map((e) => field(e, 'reference_id'));

/** A list as a message shows it: `"step 3", "step 1"`, or `none`. */
export const list = (values: unknown[]): string => (values.length === 0 ? 'none' : values.map((v) => JSON.stringify(v) ?? String(v)).join(', '));

/** A STATUS as a message names it: `s1 (THINKING)`, or `null`. */
export function statusLabel(status: unknown): string {
  const id = field(status, 'event_id');
  if (id === undefined) return status === undefined || status === null ? 'null' : JSON.stringify(status) ?? String(status);
  const state = field(status, 'state');
  return state === undefined ? String(id) : `${String(id)} (${String(state)})`;
}

/** An event as a message names it: `STATUS e1 (state ERROR)`, `reasoning_step sequence 3`, `tool_invocation t1`. */
export function eventLabel(event: unknown): string {
  const proofType = field(event, 'proof_type');
  if (typeof proofType === 'string') return `${proofType} sequence ${String(field(event, 'sequence'))}`;
  const type = field(event, 'type');
  if (typeof type === 'string') {
    const state = field(event, 'state');
    return `${type} ${String(field(event, 'event_id'))}${state === undefined ? '' : ` (state ${String(state)})`}`;
  }
  const eventType = field(event, 'event_type');
  if (typeof eventType === 'string') return `${eventType} ${String(field(event, 'event_id'))}`;
  const text = JSON.stringify(event) ?? String(event);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
