/**
 * What one SSE `data:` field means to a consumer of `/run_sse`. The client yields these frames, the
 * completion detector and the transformer consume them, and `adk-conformance transform` builds
 * them from its input lines, so the three agree on every edge case.
 */
import type { SseIssue } from '../../core/sse.ts';
import type { AdkEvent } from './types.ts';

/** Why a run's stream ended, as the client saw it. */
export type EndReason =
  | 'eof' // the server closed the body
  | 'error-frame' // an `{"error": ...}` frame (ADK or gateway) is the last frame
  | 'done-sentinel' // `data: [DONE]` (seed 000 §2.2B, /run_sse_enhanced)
  | 'final-rule' // held-open connection: a final answer, then the grace window passed
  | 'idle' // held-open connection: nothing for the idle window
  | 'aborted' // the caller aborted
  | 'http-error' // a non-200 answer before any stream
  | 'network-error'; // the connection failed or broke

export type ClientIssue = SseIssue | { kind: 'content-type'; offset: number; message: string };

/** The SSE fields beside `data` (WHATWG `event:` and `id:`), when the client read the frame off a stream. */
export type SseFields = { sse?: { event?: string; id?: string } };

export type ClientFrame =
  | ({ kind: 'event'; event: AdkEvent; data: string } & SseFields)
  | ({ kind: 'error'; error: Record<string, unknown>; data: string; legacy?: boolean } & SseFields)
  | ({ kind: 'done'; data: string } & SseFields)
  | ({ kind: 'invalid'; data: string; reason: string } & SseFields)
  | { kind: 'issue'; issue: ClientIssue }
  | { kind: 'end'; reason: EndReason; status?: number; body?: string; message?: string };

/** A frame that came from a `data:` field (the others come from the transport). */
export type DataFrame = Extract<ClientFrame, { data: string }>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Classify one already-parsed payload (what `push(object)` receives). */
export function classifyPayload(payload: unknown, data: string = JSON.stringify(payload) ?? String(payload)): DataFrame {
  if (!isRecord(payload)) {
    return { kind: 'invalid', data, reason: `expected a JSON object (an ADK event or an error frame), got ${Array.isArray(payload) ? 'an array' : payload === null ? 'null' : typeof payload}` };
  }
  // An ADK event never has an `error` key (it reports model errors as errorCode/errorMessage), so
  // the key marks the server's exception line (adk-python-facts §1.3 step 9) and the gateway's
  // TIMEOUT / status / STREAM_ERROR frames (seed 004 "Error Handling").
  if (Object.hasOwn(payload, 'error')) return { kind: 'error', error: payload, data };
  // adk-js writes `{error: e.message}` for a thrown non-Error, and JSON.stringify drops the
  // undefined message: `data: {}` is that error line (adk-wire-format §6, last row).
  if (hasNoOwnKey(payload)) return { kind: 'error', error: {}, data };
  return { kind: 'event', event: payload as AdkEvent, data };
}

// Gen A wrote `data: {"error": "<str(e)>"}` without escaping (adk-python-facts §1.3 step 9), so a
// quote or newline in the message gives invalid JSON that is still, unmistakably, an error line.
const legacyErrorLine = /^\s*\{\s*"error"\s*:\s*"([\s\S]*)"\s*\}\s*$/;

/** `{}`: Object.keys would build every event's key list to learn that it is not empty. */
function hasNoOwnKey(value: Record<string, unknown>): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/** Classify the text of one `data:` field, exactly as received. */
export function classifyData(data: string): DataFrame {
  // The enhanced endpoint's sentinel (seed 000 §2.2B: `yield "data: [DONE]\n\n"`).
  if (data.trim() === '[DONE]') return { kind: 'done', data };
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch (error) {
    const legacy = legacyErrorLine.exec(data);
    if (legacy) return { kind: 'error', error: { error: legacy[1] }, data, legacy: true };
    return { kind: 'invalid', data, reason: `invalid JSON: ${(error as Error).message}` };
  }
  return classifyPayload(payload, data);
}
