/**
 * adk-python Gen C (`adk_web_server.py` @0022bd74, uvicorn + FastAPI) with progressive SSE
 * streaming: event bytes and every plain HTTP answer, from research/adk-python-facts.md (§N below).
 *
 * Events are `model_dump_json(exclude_none=True, by_alias=True)`: keys in pydantic field order,
 * LlmResponse fields first (modelVersion, content, partial, finishReason, errorCode, errorMessage,
 * usageMetadata), then Event fields (invocationId, author, actions, longRunningToolIds, id,
 * timestamp) (§2, and the #893 example there). genai models order their own fields: Content is
 * `{parts, role}`, FunctionCall `{id, args, name}`, FunctionResponse `{id, name, response}`, usage
 * keys alphabetical (the #893 example; seed 001 shows `{parts, role}` too).
 */
import { uuid4 } from '../ids.ts';
import type { HttpAnswer } from '../types.ts';
import { HTTP_DATE } from '../types.ts';
import { pyJsonError } from './py-json-errors.ts';
import { pyCompact, pyDumps, pyFloat } from './py-json.ts';
import type {
  DialectSpec, EmittedEvent, ModelErrorStepInput, PreparedTurn, ResolvedCall, SessionView, Stamp, ToolsStepInput, TurnEnv, TurnOutput, UsageInput,
} from './spec.ts';
import { transferArgs } from './turn.ts';

type Json = Record<string, unknown>;

/** The model seed 001's real Python capture reports. */
export const MODEL_VERSION = 'gemini-2.0-flash';

/** EventActions field order (§2.3): skipSummarization, stateDelta, artifactDelta, transferToAgent, escalate, requestedAuthConfigs, requestedToolConfirmations. */
export function actions(extra: { stateDelta?: Json; artifactDelta?: Record<string, number>; skipSummarization?: boolean; transferToAgent?: string } = {}): Json {
  return {
    skipSummarization: extra.skipSummarization,
    stateDelta: extra.stateDelta ?? {},
    artifactDelta: extra.artifactDelta ?? {},
    transferToAgent: extra.transferToAgent,
    requestedAuthConfigs: {},
    requestedToolConfirmations: {},
  };
}

function pyTimestamp(stamp: Stamp): unknown {
  return pyFloat(stamp.pinnedTimestamp ?? stamp.micros / 1e6);
}

/** GenerateContentResponseUsageMetadata declares its fields alphabetically. */
const USAGE_ORDER = ['cacheTokensDetails', 'cachedContentTokenCount', 'candidatesTokenCount', 'candidatesTokensDetails', 'promptTokenCount', 'promptTokensDetails', 'thoughtsTokenCount', 'toolUsePromptTokenCount', 'toolUsePromptTokensDetails', 'totalTokenCount', 'trafficType'];

export function usage(u: UsageInput): Json {
  const out: Json = {};
  for (const key of USAGE_ORDER) if (u[key] !== undefined) out[key] = u[key];
  for (const [k, v] of Object.entries(u)) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}

/** The turn's usage, or nothing when the model reported none (LlmResponse.usage_metadata None, exclude_none drops it). */
export function turnUsage(turn: PreparedTurn): Json | undefined {
  return turn.usageMissing ? undefined : usage(turn.usage);
}

export type LlmFields = { modelVersion?: string; content?: Json; partial?: boolean; finishReason?: string; errorCode?: string; errorMessage?: string; usageMetadata?: Json };
export type EventFields = { author: string; actions: Json; longRunningToolIds?: string[] };

/** One Event in pydantic order; undefined fields are the ones exclude_none drops. */
export function event(env: TurnEnv, stamp: Stamp, llm: LlmFields, ev: EventFields): Json {
  return {
    modelVersion: llm.modelVersion,
    content: llm.content,
    partial: llm.partial,
    finishReason: llm.finishReason,
    errorCode: llm.errorCode,
    errorMessage: llm.errorMessage,
    usageMetadata: llm.usageMetadata,
    invocationId: env.invocationId,
    author: ev.author,
    actions: ev.actions,
    longRunningToolIds: ev.longRunningToolIds,
    id: stamp.id,
    timestamp: pyTimestamp(stamp),
  };
}

export function callPart(call: ResolvedCall): Json {
  return { functionCall: { id: call.id, args: transferArgs(call, 'agent_name'), name: call.name } };
}

export function thoughtPart(text: string): Json {
  // Part's older genai field order puts `thought` before `text` (as `thoughtSignature` precedes `functionCall` in #893).
  return { thought: true, text };
}

export function allParts(turn: PreparedTurn): Json[] {
  const parts: Json[] = [];
  if (turn.thought !== undefined) parts.push(thoughtPart(turn.thought));
  if (turn.text !== undefined) parts.push({ text: turn.text });
  return [...parts, ...turn.calls.map(callPart)];
}

/**
 * §1.3 step 7: an event with both content and an artifactDelta goes out as two frames with the
 * same id: a copy with `artifactDelta: {}`, then a copy without content.
 */
export function splitArtifact(json: Json, turn: PreparedTurn, waitMs: number): EmittedEvent[] {
  if (Object.keys(turn.artifactDelta).length === 0 || json.content === undefined) return [{ json, waitMs }];
  const acts = json.actions as Json;
  const first = { ...json, actions: { ...acts, artifactDelta: {} } };
  const second = { ...json, content: undefined };
  return [{ json: first, waitMs }, { json: second, waitMs: 0 }];
}

function modelTurn(turn: PreparedTurn, env: TurnEnv): TurnOutput {
  const hasCalls = turn.calls.length > 0;
  // §2.5 / _finalize_model_response_event: longRunningToolIds is set only when the event has calls.
  const lrt = hasCalls ? turn.longRunningToolIds : undefined;
  const finalActions = actions({ stateDelta: turn.stateDelta, artifactDelta: turn.artifactDelta });
  if (!env.streaming) {
    // §3.1: one event per LLM call, no `partial` at all.
    const stamp = env.stamp(turn.delayMs, 'llm');
    const json = event(env, stamp, { modelVersion: MODEL_VERSION, content: { parts: allParts(turn), role: 'model' }, finishReason: turn.finishReason, usageMetadata: turnUsage(turn) }, { author: turn.author, actions: finalActions, longRunningToolIds: lrt });
    return { events: splitArtifact(json, turn, turn.delayMs) };
  }

  // §3.2 progressive SSE: every model chunk is an event with partial:true and no usage
  // (thought deltas, text deltas, then the function-call preview chunk). A chunk that carries the
  // last text and the calls together (adk-docs PR #2076) is one partial event with both; the
  // previews carry the ids the aggregator gave them, which 1.22 to 2.4 gave afresh to the
  // aggregated event (#4609, #5064, ag-ui #968).
  const chunks: Json[][] = [];
  if (turn.thought !== undefined) chunks.push([thoughtPart(turn.thought)]);
  const mixed = hasCalls && turn.callsWithLastChunk && turn.textChunks.length > 0;
  const streamed = mixed ? turn.textChunks.slice(0, -1) : turn.textChunks;
  for (const c of streamed) chunks.push([{ text: c }]);
  if (hasCalls) chunks.push([...(mixed ? [{ text: turn.textChunks[turn.textChunks.length - 1] }] : []), ...turn.previewCalls.map(callPart)]);
  const previewLrt = lrt && lrt.length > 0 ? turn.previewCalls.map((c) => c.id) : lrt;
  const events: EmittedEvent[] = chunks.map((parts, i) => {
    const waitMs = i === 0 ? turn.delayMs : turn.chunkDelayMs;
    const stamp = env.stamp(waitMs, i === 0 ? 'llm' : 'chunk');
    const isCalls = hasCalls && i === chunks.length - 1;
    // LlmResponse.create copies the candidate's finish_reason, which Gemini sets on its last chunk.
    const finishReason = i === chunks.length - 1 ? turn.finishReason : undefined;
    const json = event(env, stamp, { modelVersion: MODEL_VERSION, content: { parts, role: 'model' }, partial: true, finishReason }, { author: turn.author, actions: actions(), longRunningToolIds: isCalls ? previewLrt : undefined });
    return { json, waitMs };
  });
  if (turn.truncate) return { events };

  // StreamingResponseAggregator.close(): one partial:false event with all text, the calls, the
  // last usage and finishReason; a non-STOP finish also becomes errorCode (finish_message is
  // None for Gemini's MAX_TOKENS, so no errorMessage).
  const stamp = env.stamp(turn.chunkDelayMs, 'chunk');
  const errorCode = turn.finishReason !== 'STOP' ? turn.finishReason : undefined;
  const json = event(env, stamp, { modelVersion: MODEL_VERSION, content: { parts: allParts(turn), role: 'model' }, partial: false, finishReason: turn.finishReason, errorCode, usageMetadata: turnUsage(turn) }, { author: turn.author, actions: finalActions, longRunningToolIds: lrt });
  return { events: [...events, ...splitArtifact(json, turn, turn.chunkDelayMs)] };
}

function toolsEvent(step: ToolsStepInput, calls: ResolvedCall[], env: TurnEnv): EmittedEvent[] {
  const waitMs = step.delayMs ?? 0;
  const stamp = env.stamp(waitMs, 'tool');
  // §3.4: one merged event, role user, responses in call order.
  const parts = step.responses.map((r, i) => ({ functionResponse: { id: calls[i]!.id, name: r.name, response: r.response } }));
  const acts = actions({ stateDelta: step.stateDelta, skipSummarization: step.skipSummarization, transferToAgent: step.transferToAgent });
  return [{ json: event(env, stamp, { content: { parts, role: 'user' } }, { author: step.author, actions: acts }), waitMs }];
}

function modelErrorEvent(step: ModelErrorStepInput, env: TurnEnv): EmittedEvent[] {
  // §2.1 LlmResponse.create: no content, errorCode = finish reason, errorMessage = finish message.
  const waitMs = step.delayMs ?? 0;
  const stamp = env.stamp(waitMs, 'llm');
  const json = event(env, stamp, {
    modelVersion: MODEL_VERSION, finishReason: step.finishReason, errorCode: step.errorCode, errorMessage: step.errorMessage,
    usageMetadata: step.usage !== undefined ? usage(step.usage) : undefined,
  }, { author: step.author, actions: actions() });
  return [{ json, waitMs }];
}

export function errorFrameData(step: { message: string; style?: string; errorType?: string }, timestampSeconds: number): string {
  switch (step.style ?? 'dialect') {
    // §1.3 step 9, Gen A: an f-string, not escaped: a quote in the message makes invalid JSON.
    case 'python-legacy-unescaped': return `{"error": "${step.message}"}`;
    // Gen D: "<ExcType>: <msg>" plus snake_case error_details.
    case 'python-structured': {
      const type = step.errorType ?? 'ValueError';
      return pyDumps({ error: `${type}: ${step.message}`, error_details: { error_type: type, error_message: step.message, timestamp: pyFloat(timestampSeconds) } });
    }
    // Gen C: json.dumps({'error': str(e)}).
    default: return pyDumps({ error: step.message });
  }
}

// ---- plain HTTP answers (uvicorn + Starlette) -------------------------------------------------

const encoder = new TextEncoder();

/** uvicorn writes `date` and `server` first; Starlette's Response adds content-length, then content-type. */
function starlette(status: number, contentType: string, body: string, extra: Array<[string, string]> = []): HttpAnswer {
  return {
    status,
    headers: [['date', HTTP_DATE], ['server', 'uvicorn'], ...extra, ['content-length', String(encoder.encode(body).length)], ['content-type', contentType]],
    body,
  };
}

function json(status: number, value: unknown, extra: Array<[string, string]> = []): HttpAnswer {
  return starlette(status, 'application/json', pyCompact(value), extra);
}

function sessionJson(s: SessionView): string {
  const head = pyCompact({ id: s.id, appName: s.appName, userId: s.userId, state: s.state }).slice(0, -1);
  return `${head},"events":[${(s.events ?? []).join(',')}],"lastUpdateTime":${pyCompact(pyFloat(s.lastUpdateTime / 1000))}}`;
}

function malformedJson(rawBody: string): HttpAnswer {
  const err = pyJsonError(rawBody);
  if (err === undefined) throw new TypeError('malformedJson: the body parses as JSON in Python; answer it normally');
  // FastAPI's JSONDecodeError branch of request body parsing (fastapi/routing.py).
  return json(422, { detail: [{ type: 'json_invalid', loc: ['body', err.pos], msg: 'JSON decode error', input: {}, ctx: { error: err.msg } }] });
}

export const adkPython: DialectSpec = {
  name: 'adk-python',
  // §1.3 step 5: StreamingResponse(media_type="text/event-stream"), no custom headers.
  sseHeaders: () => [['date', HTTP_DATE], ['server', 'uvicorn'], ['content-type', 'text/event-stream; charset=utf-8'], ['transfer-encoding', 'chunked']],
  newEventId: (rng) => uuid4(rng),
  timestamp: pyTimestamp,
  stringify: pyCompact,
  modelTurn,
  toolsEvent,
  modelErrorEvent,
  errorFrameData,
  json: (status, value) => json(status, value),
  // §1.3 step 4 for /run_sse; §1.5 GET session says only "Session not found". DELETE never 404s (handled by deleteSession).
  sessionNotFound: (sessionId, route = 'run') => json(404, { detail: route === 'get' ? 'Session not found' : `Session not found: ${sessionId}` }),
  session: (s) => starlette(200, 'application/json', sessionJson(s)),
  sessionExists: (sessionId) => json(409, { detail: `Session already exists: ${sessionId}` }),
  // §1.1: list_sessions strips events and state; a plain list.
  listSessions: (sessions) => starlette(200, 'application/json', `[${sessions.map((s) => sessionJson({ ...s, state: {}, events: [] })).join(',')}]`),
  deleteSession: () => json(200, null),
  malformedJson,
  notFound: () => json(404, { detail: 'Not Found' }),
  methodNotAllowed: (_method, _path, allowed) => json(405, { detail: 'Method Not Allowed' }, [['allow', allowed.join(', ')]]),
  health: () => json(200, { status: 'ok' }),
  version: () => json(200, { version: '1.28.0', language: 'python', language_version: '3.12.11' }),
  listApps: (names) => json(200, [...names].sort()),
  runResult: (eventTexts) => starlette(200, 'application/json', `[${eventTexts.join(',')}]`),
};
