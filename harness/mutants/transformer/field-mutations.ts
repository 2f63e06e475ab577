/**
 * The defects ADK users reported in the field (issue 11 §5), as mutations of the reference module:
 * each is how a real consumer got it wrong, applied where that consumer would, and each is caught
 * by exactly the requirement that was written for it (harness/mutants/transformer/suite.ts).
 */
import { randomUUID } from 'node:crypto';
import { callsOf, longRunningIdsOf, textOf, transferTarget } from '../../../reference-impl/transformer/adk-event.ts';
import { classifyCall, statusSummary } from '../../../reference-impl/transformer/lifecycle.ts';
import type { AdkEvent, BriefingEvent } from '../../../reference-impl/transformer/types.ts';
import type { Mutation, MutationContext } from './mutate.ts';

const parse = (line: string): AdkEvent | undefined => {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as AdkEvent) : undefined;
  } catch { return undefined; }
};
const authorOf = (e: AdkEvent): string => (typeof e.author === 'string' ? e.author : 'unknown');
const isAnnouncement = (e: BriefingEvent): boolean => e.state === 'DELEGATING' || e.state === 'EXECUTING';

type Turn = { text: string; streamed: string };

/** Per author: the partial text streamed since its last complete text, and that complete text with what had been streamed of it. */
function trackTurns(line: string, ctx: MutationContext): void {
  const e = parse(line);
  if (!e) return;
  const running = (ctx.state.running ??= new Map<string, string>()) as Map<string, string>;
  const last = (ctx.state.last ??= new Map<string, Turn>()) as Map<string, Turn>;
  const author = authorOf(e);
  const text = textOf(e);
  if (e.partial === true) { if (text) running.set(author, (running.get(author) ?? '') + text); return; }
  if (!text) return;
  last.set(author, { text, streamed: running.get(author) ?? '' });
  running.delete(author);
}

/** The narration a call turn's first announcement carries (the reference puts the turn's text first in its detail). */
function narrationOf(e: BriefingEvent, ctx: MutationContext): Turn | undefined {
  const last = ctx.state.last as Map<string, Turn> | undefined;
  const turn = last?.get(e.source_agent);
  if (!turn || !isAnnouncement(e) || !e.content.detail?.startsWith(turn.text)) return undefined;
  last?.delete(e.source_agent);
  return turn;
}

/** A STATUS announcing one call, as the reference words it. */
function announce(call: ReturnType<typeof callsOf>[number], author: string, narration: string, event: AdkEvent, ctx: MutationContext, sequence: number): BriefingEvent {
  const kind = classifyCall(call, undefined);
  const target = kind === 'transfer' ? (transferTarget(call) as string) : call.name;
  const request = kind === 'specialist' && typeof call.args.request === 'string' ? call.args.request : JSON.stringify(call.args);
  const waiting = call.id !== undefined && longRunningIdsOf(event).includes(call.id) ? '\n\nLong-running: the result arrives with a later request.' : '';
  const detail = [narration, kind === 'transfer' ? '' : `Request: ${request}${waiting}`].filter(Boolean).join('\n\n');
  const summary = kind === 'tool' ? statusSummary.executing(author, call.name) : kind === 'transfer' ? statusSummary.transferring(author, target) : statusSummary.delegating(author, target);
  return {
    event_id: randomUUID(), correlation_id: ctx.sessionId, parent_event_id: null, type: 'STATUS', source_agent: author,
    content: { summary, ...(detail ? { detail } : {}) }, state: kind === 'tool' ? 'EXECUTING' : 'DELEGATING',
    ...(kind === 'tool' ? { skill_id: call.name } : {}), delegate_to: target, sequence, timestamp: new Date().toISOString(),
  };
}

export const fieldMutations: Record<string, Mutation> = {
  // adk-docs PR #2076's naive fix: the turn's streamed deltas, then the aggregated text that repeats them.
  'transformer-narration-doubled': {
    line: (line, ctx) => { trackTurns(line, ctx); return { line }; },
    event: (e, ctx) => {
      const turn = narrationOf(e, ctx);
      return turn?.streamed ? { ...e, content: { ...e.content, detail: `${turn.streamed}${e.content.detail}` } } : e;
    },
  },
  // adk-docs PR #2076's bug: only partial deltas are rendered, so text that no delta carried is lost.
  'transformer-narration-from-deltas': {
    line: (line, ctx) => { trackTurns(line, ctx); return { line }; },
    event: (e, ctx) => {
      const turn = narrationOf(e, ctx);
      if (!turn) return e;
      const rest = (e.content.detail as string).slice(turn.text.length).replace(/^\n\n/, '');
      const detail = [turn.streamed, rest].filter(Boolean).join('\n\n');
      const { detail: _dropped, ...content } = e.content;
      return { ...e, content: detail ? { ...content, detail } : content };
    },
  },
  // ag-ui #968: calls announced from partial previews, de-duplicated by call id; adk-python 1.22 to
  // 2.4 runs the call under a fresh id (#4609, #5064), so it is announced twice. With stable ids the
  // output is the reference's: the run's announcement is dropped and its results point at the preview's.
  'transformer-announces-call-previews': {
    line: (line, ctx) => {
      trackTurns(line, ctx);
      const e = parse(line);
      const calls = e ? callsOf(e) : [];
      if (!e || calls.length === 0) return { line };
      const announced = (ctx.state.previewed ??= new Map<string, { target: string; eventId: string }>()) as Map<string, { target: string; eventId: string }>;
      if (e.partial !== true) {
        const drop = (ctx.state.drop ??= []) as Array<{ target: string; eventId: string }>;
        for (const c of calls) { const p = c.id !== undefined ? announced.get(c.id) : undefined; if (p) drop.push(p); }
        return { line };
      }
      const fresh = calls.filter((c) => c.id !== undefined && !announced.has(c.id));
      if (fresh.length === 0) return { line };
      const author = authorOf(e);
      const running = ((ctx.state.running as Map<string, string> | undefined)?.get(author)) ?? '';
      const next = (ctx.emitted.at(-1)?.sequence ?? -1) + 1;
      const after = fresh.map((c, i) => {
        const status = announce(c, author, i === 0 ? running : '', e, ctx, next + i);
        announced.set(c.id as string, { target: status.delegate_to as string, eventId: status.event_id });
        return status;
      });
      return { line, after };
    },
    event: (e, ctx) => {
      const remap = (ctx.state.remap ??= new Map<string, string>()) as Map<string, string>;
      const drop = (ctx.state.drop ??= []) as Array<{ target: string; eventId: string }>;
      const i = isAnnouncement(e) ? drop.findIndex((d) => d.target === e.delegate_to) : -1;
      if (i >= 0) { remap.set(e.event_id, drop[i]!.eventId); drop.splice(i, 1); return null; }
      const parent = e.parent_event_id !== null ? remap.get(e.parent_event_id) : undefined;
      return parent ? { ...e, parent_event_id: parent } : e;
    },
  },
  // adk-python #2992 / #7078: every is_final_response() event is an answer, the callback's state-only one included.
  'transformer-state-delta-as-answer': {
    line: (line, ctx) => {
      const e = parse(line);
      const parts = (e?.content as { parts?: unknown[] } | undefined)?.parts;
      const delta = e?.actions?.stateDelta;
      const stateOnly = e && e.partial !== true && !(Array.isArray(parts) && parts.length > 0) && e.errorCode === undefined && e.usageMetadata === undefined
        && typeof delta === 'object' && delta !== null && Object.keys(delta).length > 0;
      if (!stateOnly) return { line };
      const author = authorOf(e);
      const answer: BriefingEvent = {
        event_id: randomUUID(), correlation_id: ctx.sessionId, parent_event_id: null, type: 'INSIGHT', source_agent: author,
        content: { summary: `${author} answered`, detail: '', degradation_notice: 'No confidence score: the text states none. None is inferred (seed 000 §1.2).' },
        proof_layer: { reasoning_chain: [], citations: [], basis: 'none' }, sequence: (ctx.emitted.at(-1)?.sequence ?? -1) + 1, timestamp: new Date().toISOString(),
      };
      return { line, after: [answer] };
    },
  },
  // adk-js #645 downstream: a usage the model did not report is read as 0.
  'transformer-usage-absent-as-zero': {
    event: (e) => {
      if (!('usage' in e)) return e;
      const u = e.usage ?? { prompt_token_count: null, candidates_token_count: null, total_token_count: null };
      return { ...e, usage: { prompt_token_count: u.prompt_token_count ?? 0, candidates_token_count: u.candidates_token_count ?? 0, total_token_count: u.total_token_count ?? 0 } };
    },
  },
};
