/**
 * What the fed frames say about texts, actions-only events and token usage, for the checks born of
 * field reports (ABE-TEXT-001, ABE-FINAL-001, ABE-USAGE-001). Like frame-facts.ts, read from the
 * frames alone, never from the reference transformer:
 * - a *model text* is the text of one complete (non-partial) model event, thoughts left out, the
 *   same (id, content) counted once (Python's artifact split); `streamed` is what the author's
 *   `partial: true` chunks had delivered of it before (adk-wire-format §5b: the aggregated event
 *   repeats the chunks; adk-docs PR #2076: a chunk that also carries a functionCall may stream none
 *   of its text, so `streamed` can be a proper prefix);
 * - an *actions-only* event has no parts, no errorCode, no usageMetadata, and non-empty actions: a
 *   callback's stateDelta (adk-python #2992, #7078) or the second half of Python's artifact split;
 * - the *usage* of a complete model event is its usageMetadata's three counts, or null without it.
 */
import type { TransformerObservation } from './observation.ts';
import { isRecord } from './briefing.ts';

export type ModelText = { frame: number; author: string; text: string; streamed: string };
export type ActionsOnly = { frame: number; author: string; actions: string[] };
export type FrameUsage = { prompt_token_count: number | null; candidates_token_count: number | null; total_token_count: number | null } | null;

export type FrameTexts = {
  texts: ModelText[];
  actionsOnly: ActionsOnly[];
  /** Usage of each complete model event (model-role content or an errorCode), by frame index. */
  usage: Map<number, FrameUsage>;
  /** What else the frames say that a briefing may repeat: every string of call arguments, tool results and error messages, and those objects as JSON. */
  dataTexts: string[];
};

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function partsOf(event: Record<string, unknown>): Array<Record<string, unknown>> {
  const content = isRecord(event.content) ? event.content : {};
  return Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];
}

/** Every string inside a JSON value. */
function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(leaves);
  return isRecord(value) ? Object.values(value).flatMap(leaves) : [];
}

const textOf = (parts: Array<Record<string, unknown>>): string => parts.filter((p) => typeof p.text === 'string' && p.thought !== true).map((p) => p.text as string).join('');

/** A map or scalar of `actions` that says something: a non-empty map, or a set scalar. */
function setActions(actions: unknown): string[] {
  if (!isRecord(actions)) return [];
  return Object.entries(actions).filter(([, v]) => (isRecord(v) ? Object.keys(v).length > 0 : v !== undefined && v !== null && v !== false)).map(([k]) => k);
}

export function frameTexts(obs: Pick<TransformerObservation, 'frames'>): FrameTexts {
  const out: FrameTexts = { texts: [], actionsOnly: [], usage: new Map(), dataTexts: [] };
  const running = new Map<string, string>();
  const seen = new Set<string>();
  for (const frame of obs.frames) {
    // `[DONE]` and an error frame end the run (docs/transform-contract.md "Bad lines"): nothing after them is owed.
    if (frame.kind === 'done' || frame.kind === 'error') break;
    if (frame.kind !== 'event' || !frame.json) continue;
    const e = frame.json;
    const author = str(e.author) ?? 'unknown';
    const parts = partsOf(e);
    const text = textOf(parts);
    const code = e.errorCode === undefined || e.errorCode === null ? undefined : String(e.errorCode);
    if (e.partial === true) {
      if (text) running.set(author, (running.get(author) ?? '') + text);
      continue;
    }
    const key = `${str(e.id) ?? frame.index}\u0000${JSON.stringify(e.content)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const responses = parts.flatMap((p) => (isRecord(p.functionResponse) ? [p.functionResponse.response] : []));
    const args = parts.flatMap((p) => (isRecord(p.functionCall) ? [p.functionCall.args] : []));
    for (const value of [...responses, ...args]) {
      out.dataTexts.push(...leaves(value));
      if (isRecord(value)) out.dataTexts.push(JSON.stringify(value), JSON.stringify(value, null, 2));
    }
    if (typeof e.errorMessage === 'string') out.dataTexts.push(e.errorMessage);
    const isModel = isRecord(e.content) && e.content.role === 'model';
    if (isModel || code !== undefined) {
      const u = isRecord(e.usageMetadata) ? e.usageMetadata : undefined;
      out.usage.set(frame.index, u ? { prompt_token_count: count(u.promptTokenCount), candidates_token_count: count(u.candidatesTokenCount), total_token_count: count(u.totalTokenCount) } : null);
    }
    if (parts.length === 0 && code === undefined && !isRecord(e.usageMetadata)) {
      const actions = setActions(e.actions);
      if (actions.length > 0) out.actionsOnly.push({ frame: frame.index, author, actions });
      continue;
    }
    if (responses.length === 0 && text.trim()) out.texts.push({ frame: frame.index, author, text, streamed: running.get(author) ?? '' });
    // A complete model event replaces its author's chunks; an error event without text leaves them unconfirmed.
    const calls = parts.some((p) => isRecord(p.functionCall));
    if (text || (calls && code === undefined)) running.delete(author);
  }
  return out;
}
