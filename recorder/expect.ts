/**
 * The expectations of a recorded run, read off its own frames with the corpus's definitions
 * (docs/scenarios.md): `outcome`, `frames` (dispatched events), `completionPoint` (the last frame
 * for complete, error and hold-open runs, adk-go's named error frame when events follow it, null for
 * cut ones), `finalText`, `errorFrame`.
 */
import type { RenderedFrame } from '../mock-adk/core/types.ts';
import type { CapturedResponse } from './types.ts';

export type RecordedExpect = {
  status: number;
  outcome: 'complete' | 'error' | 'cut' | 'hold-open' | 'http-error';
  frames: number;
  completionPoint: number | null;
  finalText?: string;
  errorFrame?: Record<string, unknown>;
};

type EventJson = {
  partial?: unknown;
  errorCode?: unknown;
  content?: { parts?: Array<Record<string, unknown>> };
};

function partsOf(event: EventJson): Array<Record<string, unknown>> {
  return Array.isArray(event.content?.parts) ? event.content.parts : [];
}

/** The answer text of a non-partial event with no calls or responses (thought parts left out). */
function answerText(event: EventJson): string | undefined {
  if (event.partial === true || event.errorCode !== undefined) return undefined;
  const parts = partsOf(event);
  if (parts.some((p) => 'functionCall' in p || 'functionResponse' in p)) return undefined;
  const text = parts.filter((p) => typeof p['text'] === 'string' && p['thought'] !== true).map((p) => p['text'] as string).join('');
  return text.length > 0 ? text : undefined;
}

/** An `{"error": ...}` frame, an errorCode event, or a frame that is not JSON but names an error. */
function errorOf(frame: RenderedFrame): Record<string, unknown> | undefined {
  const json = frame.json;
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const record = json as Record<string, unknown>;
    if (!('invocationId' in record) && 'error' in record) return { error: record['error'] };
    // adk-js writes a thrown non-Error value as a bare `data: {}` (scenario empty_data_frame).
    if (Object.keys(record).length === 0) return {};
    if (typeof record['errorCode'] === 'string') return { errorCode: record['errorCode'] };
    return undefined;
  }
  if (frame.json === undefined && frame.data !== '[DONE]' && /error/i.test(frame.data)) return { raw: frame.data };
  return undefined;
}

export function expectationsOf(status: number, frames: readonly RenderedFrame[], end: CapturedResponse['end'], httpAnswer: boolean): RecordedExpect {
  if (httpAnswer) return { status, outcome: 'http-error', frames: 0, completionPoint: null };
  const meaningful = frames.filter((f) => f.data !== '[DONE]');
  const last = meaningful[meaningful.length - 1];
  const error = last ? errorOf(last) : undefined;
  const base = { status, frames: frames.length };
  // adk-go names its error frame (`event: error`) and goes on streaming the run's later events: the
  // run ended in error at that frame, whatever follows (CLI-END-002; scenario error_frame_adk_go_streams_on).
  const named = frames.findIndex((f) => f.event === 'error');
  if (!error && named >= 0 && named < frames.length - 1) {
    // No errorFrame: the corpus reads it off the last frame, and here the last frame is the run's later answer.
    return { ...base, outcome: 'error', completionPoint: named };
  }
  if (error) {
    const errorFrame = lastFrameSubset(frames, error);
    return { ...base, outcome: 'error', completionPoint: frames.length - 1, ...(errorFrame ? { errorFrame } : {}) };
  }
  let finalText: string | undefined;
  let final = false;
  for (const frame of [...meaningful].reverse()) {
    // skipSummarization: the tool's response is the final answer (adk-python-facts §3.3).
    if ((frame.json as { actions?: { skipSummarization?: unknown } } | undefined)?.actions?.skipSummarization === true) { final = true; break; }
    const text = frame.json !== null && typeof frame.json === 'object' ? answerText(frame.json as EventJson) : undefined;
    if (text !== undefined) { finalText = text; final = true; break; }
    // Partial chunks and metadata-only events (adk-js after a transfer, wire-format §5e) may
    // follow the final answer; a call, a response or anything else means the run went on.
    if (frame.json === null || typeof frame.json !== 'object') break;
    const event = frame.json as EventJson;
    if (event.partial !== true && partsOf(event).length > 0) break;
  }
  if (end === 'reset' || !final) return { ...base, outcome: 'cut', completionPoint: null };
  return { ...base, outcome: end === 'hold-open' ? 'hold-open' : 'complete', completionPoint: frames.length - 1, ...(finalText !== undefined ? { finalText } : {}) };
}

/** errorFrame is matched against the very last frame (a DONE after an error frame would break that). */
function lastFrameSubset(frames: readonly RenderedFrame[], error: Record<string, unknown>): Record<string, unknown> | undefined {
  return frames[frames.length - 1]?.data === '[DONE]' ? undefined : error;
}
