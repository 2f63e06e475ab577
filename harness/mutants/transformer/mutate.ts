/**
 * Transformer mutants are the reference module (harness/targets/transformer/reference.ts) with one
 * deliberate defect, applied where a real implementation would get it wrong: on the events it
 * emits, on the lines it reads, or on its idle timer. Each mutant module is one line calling
 * `mutant(id)`; the defects live here, one per requirement, named by the mutant's id.
 */
import { randomUUID } from 'node:crypto';
import { createTransformer as createReference, type ModuleTransformerOptions } from '../../targets/transformer/reference.ts';
import type { BriefingEvent } from '../../../reference-impl/transformer/index.ts';
import { fieldMutations } from './field-mutations.ts';
import { issue29Mutations } from './issue29-mutations.ts';
import { longLivedMutations } from './long-lived-mutations.ts';
import { calibrationMutations } from './calibration-mutations.ts';

type Ctx = { sessionId: string; seen: Map<string, BriefingEvent>; emitted: BriefingEvent[]; state: Record<string, unknown> };
export type MutationContext = Ctx;

export type Mutation = {
  /** Rewrite (or drop, or multiply) each event the reference emits. */
  event?: (e: BriefingEvent, ctx: Ctx) => BriefingEvent | BriefingEvent[] | null;
  /** Rewrite or drop each input line before the reference reads it; extra events to emit before it reads the line, and after. */
  line?: (line: string, ctx: Ctx) => { line: string | null; before?: BriefingEvent[]; after?: BriefingEvent[] };
  /** Replace the idle window the reference gets. */
  idleMs?: number;
  /**
   * Read on after the error frame's ERROR: the lines after it go to a fresh reference instance
   * whose briefings are emitted too (issue 29 §1, a consumer with no "terminated" flag).
   */
  readsOnAfterError?: boolean;
  /** When an instance is created and when it ends (a long-lived defect's shared state). */
  opened?: (ctx: Ctx) => void;
  closed?: (ctx: Ctx) => void;
};

const clone = (e: BriefingEvent): BriefingEvent => structuredClone(e);
const isText = (e: BriefingEvent): boolean => e.proof_layer?.basis === 'text';
let runs = 0; // module-level state that leaks from run to run (the determinism defect)

const mutations: Record<string, Mutation> = {
  'transformer-status-without-summary': { event: (e) => (e.type === 'STATUS' ? { ...clone(e), content: Object.fromEntries(Object.entries(e.content).filter(([k]) => k !== 'summary')) as BriefingEvent['content'] } : e) },
  'transformer-sequential-event-ids': {
    event: (e, ctx) => {
      const ids = (ctx.state.ids ??= new Map<string, string>()) as Map<string, string>;
      ids.set(e.event_id, `evt-${ids.size + 1}`);
      return { ...e, event_id: ids.get(e.event_id) as string, parent_event_id: e.parent_event_id === null ? null : ids.get(e.parent_event_id) ?? e.parent_event_id };
    },
  },
  'transformer-correlation-per-agent': { event: (e) => ({ ...e, correlation_id: `${e.correlation_id}:${e.source_agent}` }) },
  'transformer-insights-without-parent': { event: (e) => (e.type === 'INSIGHT' ? { ...e, parent_event_id: null } : e) },
  'transformer-transfer-answer-attributed-to-root': {
    event: (e, ctx) => {
      const thinkers = (ctx.state.thinkers ??= []) as string[];
      if (e.state === 'THINKING') thinkers.push(e.source_agent);
      const root = thinkers[0];
      return e.state === 'COMPLETE' && root !== undefined && e.source_agent !== root && thinkers.includes(e.source_agent) ? { ...e, source_agent: root } : e;
    },
  },
  'transformer-no-thinking': { event: (e) => (e.state === 'THINKING' ? null : e) },
  'transformer-delegation-as-executing': { event: (e) => (e.state === 'DELEGATING' && !e.content.summary.includes('transfers') ? { ...e, state: 'EXECUTING' } : e) },
  'transformer-specialist-insight-from-caller': {
    event: (e, ctx) => {
      const parent = e.parent_event_id ? ctx.seen.get(e.parent_event_id) : undefined;
      return e.type === 'INSIGHT' && e.state === undefined && parent?.state === 'DELEGATING' ? { ...e, source_agent: parent.source_agent } : e;
    },
  },
  'transformer-final-answer-as-status': { event: (e) => (e.state === 'COMPLETE' ? { ...e, type: 'STATUS' } : e) },
  'transformer-error-without-suggestion': { event: (e) => (e.state === 'ERROR' ? { ...e, content: { summary: e.content.summary } } : e) },
  'transformer-synthesizing-too-early': {
    event: (e) => (e.state === 'THINKING'
      ? [e, { ...e, event_id: randomUUID(), state: 'SYNTHESIZING', content: { summary: `${e.source_agent} is synthesizing the answer` } }]
      : e),
  },
  'transformer-tool-failure-as-insight': { event: (e) => (e.type === 'ALERT' && e.error?.source === 'tool' ? { ...e, type: 'INSIGHT' } : e) },
  'transformer-emits-partial-chunks': {
    line: (line, ctx) => {
      let ev: Record<string, unknown>;
      try { ev = JSON.parse(line) as Record<string, unknown>; } catch { return { line }; }
      const parts = (ev.content as { parts?: Array<{ text?: unknown; thought?: unknown }> } | undefined)?.parts ?? [];
      const text = parts.filter((p) => typeof p.text === 'string' && p.thought !== true).map((p) => p.text as string).join('');
      if (ev.partial !== true || !text) return { line };
      const author = typeof ev.author === 'string' ? ev.author : 'agent';
      const chunk: BriefingEvent = { event_id: randomUUID(), correlation_id: ctx.sessionId, parent_event_id: null, type: 'INSIGHT', source_agent: author, content: { summary: text.trim() || text, detail: text }, sequence: 0, timestamp: new Date(0).toISOString() };
      return { line, before: [chunk] };
    },
  },
  'transformer-run-counter-in-summary': { event: (e, ctx) => (e.state === 'THINKING' ? { ...e, content: { ...e.content, summary: `${e.content.summary} (run ${(ctx.state.run ??= ++runs) as number})` } } : e) },
  'transformer-status-after-complete': {
    event: (e) => (e.state === 'COMPLETE' || e.state === 'ERROR'
      ? [e, { event_id: randomUUID(), correlation_id: e.correlation_id, parent_event_id: e.event_id, type: 'STATUS', source_agent: e.source_agent, content: { summary: 'run finished' }, sequence: e.sequence + 1, timestamp: e.timestamp }]
      : e),
  },
  'transformer-completes-cut-stream': {
    event: (e) => (e.state === 'ERROR' && e.error?.code === 'NO_FINAL_ANSWER' ? { ...e, type: 'INSIGHT', state: 'COMPLETE', content: { summary: 'The run finished.', detail: e.content.detail ?? '' } } : e),
  },
  'transformer-no-idle-timer': { idleMs: 1_000_000_000 },
  'transformer-ignores-done': { line: (line) => ({ line: line.trim() === '[DONE]' ? null : line }) },
  'transformer-audit-confidence-plus-margin': {
    event: (e) => (e.proof_layer?.basis === 'audit' && (e.proof_layer.confidence ?? 0) > 0 ? { ...e, proof_layer: { ...e.proof_layer, confidence: Math.min(1, Math.round(((e.proof_layer.confidence as number) + 0.03) * 100) / 100) } } : e),
  },
  'transformer-first-percentage-wins': {
    event: (e) => {
      const m = /(\d{1,3}(?:\.\d+)?)\s*%/.exec(e.content.detail ?? '');
      return isText(e) && e.proof_layer?.confidence !== undefined && m ? { ...e, proof_layer: { ...e.proof_layer, confidence: Number(m[1]) / 100 } } : e;
    },
  },
  'transformer-default-confidence-90': { event: (e) => (e.proof_layer && e.proof_layer.confidence === undefined ? { ...e, proof_layer: { ...e.proof_layer, confidence: 0.9 } } : e) },
  'transformer-failure-without-confidence': {
    // Only a failure's briefing (the ALERT): a tool_response that states 0.0 is PL-CONF-001's (audit_zero_confidence).
    event: (e) => {
      if (e.type !== 'ALERT' || !e.proof_layer || e.proof_layer.confidence !== 0) return e;
      const { confidence: _dropped, ...rest } = e.proof_layer;
      return { ...e, proof_layer: rest };
    },
  },
  'transformer-drops-audit-citations': { event: (e) => (e.proof_layer?.basis === 'audit' ? { ...e, proof_layer: { ...e.proof_layer, citations: [] } } : e) },
  'transformer-ignores-regulatory-basis': { event: (e) => (e.proof_layer ? { ...e, proof_layer: { ...e.proof_layer, citations: e.proof_layer.citations.filter((c) => c.source_type !== 'regulatory-basis') } } : e) },
  'transformer-reversed-reasoning-chain': { event: (e) => (e.proof_layer?.basis === 'audit' ? { ...e, proof_layer: { ...e.proof_layer, reasoning_chain: [...e.proof_layer.reasoning_chain].reverse() } } : e) },
  'transformer-ledger-always-null': { event: (e) => (e.proof_layer?.confidence_ledger ? { ...e, proof_layer: { ...e.proof_layer, confidence_ledger: null as unknown as undefined } } : e) },
  // Seed 000 §3.3 rule 4 taken literally: a number no data states (mapping rule MAP-PROOF-004).
  'transformer-recommendation-minus-margin': {
    event: (e) => {
      const ledger = e.proof_layer?.confidence_ledger;
      if (!ledger) return e;
      return { ...e, proof_layer: { ...e.proof_layer!, confidence_ledger: { ...ledger, recommendation_confidence: Math.max(0, Math.round((ledger.analysis_confidence - 0.03) * 100) / 100) } } };
    },
  },
  'transformer-no-degradation-notice': {
    event: (e) => {
      if (e.content.degradation_notice === undefined) return e;
      const { degradation_notice: _dropped, ...content } = e.content;
      return { ...e, content };
    },
  },
  ...fieldMutations,
  ...issue29Mutations,
  ...longLivedMutations,
  ...calibrationMutations,
};

export const mutationIds: readonly string[] = Object.keys(mutations);

/** The module-contract factory of one mutant. */
export function mutant(id: string): (options: ModuleTransformerOptions) => ReturnType<typeof createReference> {
  const m = mutations[id];
  if (!m) throw new Error(`no transformer mutation '${id}'; known: ${mutationIds.join(', ')}`);
  return (options) => {
    const ctx: Ctx = { sessionId: options.sessionId ?? 'session', seen: new Map(), emitted: [], state: {} };
    const forward = (e: BriefingEvent) => { ctx.emitted.push(e); options.onEvent(e); };
    m.opened?.(ctx);
    let closed = false;
    const close = () => { if (!closed) { closed = true; m.closed?.(ctx); } };
    let erred = false;
    let readOn: ReturnType<typeof createReference> | undefined;
    const inner = createReference({
      ...options,
      ...(m.idleMs !== undefined ? { idleMs: m.idleMs } : {}),
      onEvent: (e) => {
        ctx.seen.set(e.event_id, e);
        if (e.state === 'ERROR' && e.error?.source === 'error-frame') erred = true;
        const out = m.event ? m.event(e, ctx) : e;
        for (const x of out === null ? [] : Array.isArray(out) ? out : [out]) forward(x);
      },
    });
    return {
      push(line) {
        if (m.readsOnAfterError && erred) {
          readOn ??= createReference({ ...options, onEvent: forward });
          readOn.push(line);
          return;
        }
        const changed = m.line ? m.line(line, ctx) : { line };
        for (const e of changed.before ?? []) forward(e);
        if (changed.line !== null) inner.push(changed.line);
        for (const e of changed.after ?? []) forward(e);
      },
      end: () => { inner.end(); readOn?.end(); close(); },
      dispose: () => { inner.dispose(); readOn?.dispose(); close(); },
    };
  };
}
