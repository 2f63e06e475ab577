/**
 * adk-go 2.0.0 (`server/adkrest`, google/adk-go @0a51e153, `internal/version/version.go`
 * "2.0.0"): `controllers/runtime.go` RunSSEHandler, the event model
 * `internal/models/event.go`, the aggregator `internal/llminternal/stream_aggregator.go`, with
 * genai Go types from googleapis/go-genai @6fd3e65e `types.go`. Bytes follow encoding/json:
 *
 * - Struct keys in field order. Event.MarshalJSON marshals an anonymous struct embedding the
 *   Event with `Content` re-declared at depth 0, so `content` comes LAST (encoding/json sorts the
 *   dominant fields by index sequence: [1] sorts after every [0,i]); `groundingMetadata`,
 *   `usageMetadata` and `content` have no omitempty: `null` when unset. No `timestamp` field.
 *   `partial` is omitempty: an aggregated event has no `partial` key at all.
 * - Content is `{role, parts}` (ProxyContent re-declares Parts after the embedded Content);
 *   FunctionCall `{id, name, args}` (ProxyFunctionCall re-declares Args); FunctionResponse
 *   `{id, name, response}`; usage keys in genai's (alphabetical) order.
 * - Maps (`args`, `response`, `stateDelta`, session `state`) marshal with sorted keys, and every
 *   string escapes `<`, `>`, `&`, U+2028 and U+2029 (json.Marshal's HTML-safe default).
 * - The SSE error is `event: error` then `data: {"error":"<msg>"}` (flashErrorEvent), and the loop
 *   `continue`s: the stream goes on after it if the runner yields more.
 * - Every non-stream answer is net/http's: handler headers sorted by name, then Date, then
 *   Content-Length; errors are `http.Error` text/plain with a trailing newline.
 */
import { uuid4 } from '../ids.ts';
import type { HttpAnswer } from '../types.ts';
import { HTTP_DATE } from '../types.ts';
import type { DialectSpec, EmittedEvent, ModelErrorStepInput, PreparedTurn, ResolvedCall, SessionView, ToolsStepInput, TurnEnv, TurnOutput, UsageInput } from './spec.ts';
import { usage as pyUsage } from './adk-python.ts';
import { transferArgs } from './turn.ts';

type Json = Record<string, unknown>;

const MODEL_VERSION = 'gemini-2.5-flash';

/** A Go map: marshalled with its keys sorted, recursively (values that are maps too). */
function goMap(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(goMap);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const k of Object.keys(value).sort()) out[k] = goMap((value as Json)[k]);
  return out;
}

/** json.Marshal's HTML-safe escaping, applied to the already-serialised text (these characters only occur inside strings). */
function goStringify(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** models.EventActions: stateDelta, artifactDelta, then the omitempty scalars. */
function actions(extra: { stateDelta?: Json; artifactDelta?: Record<string, number>; skipSummarization?: boolean; transferToAgent?: string } = {}): Json {
  return {
    stateDelta: goMap(extra.stateDelta ?? {}),
    artifactDelta: goMap(extra.artifactDelta ?? {}),
    skipSummarization: extra.skipSummarization === true ? true : undefined,
    transferToAgent: extra.transferToAgent || undefined,
  };
}

type GoFields = {
  author: string; partial?: boolean; longRunningToolIds?: string[]; usageMetadata?: Json; turnComplete?: boolean;
  errorCode?: string; errorMessage?: string; finishReason?: string; modelVersion?: string; actions: Json; content?: Json;
};

/** models.Event in marshal order (see the header): content last, three keys always present. */
function event(env: TurnEnv, id: string, f: GoFields): Json {
  return {
    id,
    invocationId: env.invocationId,
    author: f.author,
    partial: f.partial === true ? true : undefined,
    longRunningToolIds: f.longRunningToolIds && f.longRunningToolIds.length > 0 ? f.longRunningToolIds : undefined,
    groundingMetadata: null,
    usageMetadata: f.usageMetadata ?? null,
    turnComplete: f.turnComplete === true ? true : undefined,
    errorCode: f.errorCode || undefined,
    errorMessage: f.errorMessage || undefined,
    finishReason: f.finishReason || undefined,
    modelVersion: f.modelVersion || undefined,
    actions: f.actions,
    content: f.content ?? null,
  };
}

function callPart(call: ResolvedCall): Json {
  return { functionCall: { id: call.id, name: call.name, args: goMap(transferArgs(call, 'agent_name')) } };
}

/** genai.Part field order puts `text` before `thought`. */
function textParts(turn: PreparedTurn, text: string | undefined): Json[] {
  const parts: Json[] = [];
  if (turn.thought !== undefined) parts.push({ text: turn.thought, thought: true });
  if (text !== undefined) parts.push({ text });
  return parts;
}

function usage(u: UsageInput): Json {
  // GenerateContentResponseUsageMetadata's Go fields are alphabetical, like Python's.
  return pyUsage(u);
}

function modelTurn(turn: PreparedTurn, env: TurnEnv): TurnOutput {
  const lrt = turn.longRunningToolIds;
  const finalActions = actions({ stateDelta: turn.stateDelta, artifactDelta: turn.artifactDelta });
  const allParts = [...textParts(turn, turn.text), ...turn.calls.map(callPart)];
  const usageOf = (u: UsageInput): Json | undefined => (turn.usageMissing ? undefined : usage(u));
  if (!env.streaming) {
    const stamp = env.stamp(turn.delayMs, 'llm');
    const json = event(env, stamp.id, { author: turn.author, longRunningToolIds: lrt, usageMetadata: usageOf(turn.usage), finishReason: turn.finishReason, modelVersion: MODEL_VERSION, actions: finalActions, content: { role: 'model', parts: allParts } });
    return { events: [{ json, waitMs: turn.delayMs }] };
  }
  // ProcessResponse yields every Gemini chunk as partial:true, with the chunk's own usage and model
  // version; TurnComplete is set on the chunk that carries a finish reason (the last one).
  const chunks: Json[][] = [];
  const texts: Array<{ part: Json; chars: number }> = [];
  if (turn.thought !== undefined) texts.push({ part: { text: turn.thought, thought: true }, chars: turn.thought.length });
  for (const c of turn.textChunks) texts.push({ part: { text: c }, chars: c.length });
  const mixed = turn.calls.length > 0 && turn.callsWithLastChunk && turn.textChunks.length > 0;
  const own = mixed ? texts.slice(0, -1) : texts;
  for (const t of own) chunks.push([t.part]);
  // The calls chunk shares its genai.Part pointers with the aggregate: PopulateClientFunctionCallID
  // sets each id once, so the partial and the final call carry the same id (unlike adk-python).
  if (turn.calls.length > 0) chunks.push([...(mixed ? [texts[texts.length - 1]!.part] : []), ...turn.calls.map(callPart)]);
  let chars = 0;
  const events: EmittedEvent[] = chunks.map((parts, i) => {
    const waitMs = i === 0 ? turn.delayMs : turn.chunkDelayMs;
    const stamp = env.stamp(waitMs, i === 0 ? 'llm' : 'chunk');
    for (const p of parts) chars += typeof p.text === 'string' ? p.text.length : 0;
    const last = i === chunks.length - 1;
    const hasCalls = parts.some((p) => 'functionCall' in p);
    const json = event(env, stamp.id, {
      author: turn.author, partial: true, longRunningToolIds: hasCalls ? lrt : undefined, usageMetadata: usageOf(last ? turn.usage : turn.runningUsage(chars)),
      turnComplete: last, finishReason: last ? turn.finishReason : undefined, modelVersion: MODEL_VERSION, actions: actions({ stateDelta: turn.stateDelta }), content: { role: 'model', parts },
    });
    return { json, waitMs };
  });
  if (turn.truncate) return { events };
  // Close(): no model version, no turnComplete; errorCode only when a chunk carried one (a chunk
  // with content never does), so a MAX_TOKENS aggregate has a finishReason and no errorCode.
  const stamp = env.stamp(turn.chunkDelayMs, 'chunk');
  const json = event(env, stamp.id, { author: turn.author, longRunningToolIds: lrt, usageMetadata: usageOf(turn.usage), finishReason: turn.finishReason, actions: finalActions, content: { role: 'model', parts: allParts } });
  return { events: [...events, { json, waitMs: turn.chunkDelayMs }] };
}

function toolsEvent(step: ToolsStepInput, calls: ResolvedCall[], env: TurnEnv): EmittedEvent[] {
  const waitMs = step.delayMs ?? 0;
  const stamp = env.stamp(waitMs, 'tool');
  const parts = step.responses.map((r, i) => ({ functionResponse: { id: calls[i]!.id, name: r.name, response: goMap(r.response) } }));
  const acts = actions({ stateDelta: step.stateDelta, skipSummarization: step.skipSummarization, transferToAgent: step.transferToAgent });
  return [{ json: event(env, stamp.id, { author: step.author, actions: acts, content: { role: 'user', parts } }), waitMs }];
}

function modelErrorEvent(step: ModelErrorStepInput, env: TurnEnv): EmittedEvent[] {
  // Genai2LLMResponse's error branch: no content, errorCode = finish reason, errorMessage = finish message.
  const waitMs = step.delayMs ?? 0;
  const stamp = env.stamp(waitMs, 'llm');
  const json = event(env, stamp.id, {
    author: step.author, usageMetadata: step.usage !== undefined ? usage(step.usage) : undefined, errorCode: step.errorCode,
    errorMessage: step.errorMessage, finishReason: step.finishReason, modelVersion: MODEL_VERSION, actions: actions(),
  });
  return [{ json, waitMs }];
}

// ---- plain HTTP answers (net/http + gorilla/mux) ----------------------------------------------

const encoder = new TextEncoder();

/** net/http writes the handler's headers sorted by name, then Date, then Content-Length. */
function goAnswer(status: number, handlerHeaders: Array<[string, string]>, body: string): HttpAnswer {
  return { status, headers: netHttpOrder([...handlerHeaders, ['Date', HTTP_DATE], ['Content-Length', String(encoder.encode(body).length)]]), body };
}

const SERVER_SET = ['date', 'content-length', 'transfer-encoding'];

/** Handler headers sorted by name, then the ones net/http adds itself (Date, then the length or chunking). */
function netHttpOrder(headers: Array<[string, string]>): Array<[string, string]> {
  const own = headers.filter(([n]) => !SERVER_SET.includes(n.toLowerCase())).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const added = SERVER_SET.flatMap((name) => headers.filter(([n]) => n.toLowerCase() === name));
  return [...own, ...added];
}

/** EncodeJSONResponse: json.NewEncoder(w).Encode adds a newline; a nil value writes nothing. */
function goJson(status: number, value: unknown): HttpAnswer {
  return goAnswer(status, [['Content-Type', 'application/json; charset=UTF-8']], value === undefined ? '' : `${goStringify(value)}\n`);
}

/** http.Error: text/plain, nosniff, the message and a newline. */
export function goError(status: number, message: string): HttpAnswer {
  return goAnswer(status, [['Content-Type', 'text/plain; charset=utf-8'], ['X-Content-Type-Options', 'nosniff']], `${message}\n`);
}

/** models.Session: id, appName, userId, lastUpdateTime (Unix seconds, an int64), events, state. */
function sessionJson(s: SessionView): string {
  const head = goStringify({ id: s.id, appName: s.appName, userId: s.userId, lastUpdateTime: Math.floor(s.lastUpdateTime / 1000) }).slice(0, -1);
  return `${head},"events":[${(s.events ?? []).join(',')}],"state":${goStringify(goMap(s.state))}}`;
}

export const adkGo: DialectSpec = {
  name: 'adk-go@2.0.0',
  // Set after the pre-stream checks, then rc.Flush(): sorted handler headers, Date, chunked.
  sseHeaders: () => [['Cache-Control', 'no-cache'], ['Connection', 'keep-alive'], ['Content-Type', 'text/event-stream'], ['Date', HTTP_DATE], ['Transfer-Encoding', 'chunked']],
  newEventId: (rng) => uuid4(rng),
  // models.Event has no timestamp field.
  timestamp: () => undefined,
  stringify: goStringify,
  modelTurn,
  toolsEvent,
  modelErrorEvent,
  errorFrameData: (step) => goStringify({ error: step.message }),
  errorFrameEvent: 'error',
  orderHeaders: netHttpOrder,
  json: goJson,
  // RunSSEHandler wraps validateSessionExists' error; GetSessionHandler answers any Get error with 500.
  sessionNotFound: (sessionId, route = 'run') => (route === 'run'
    ? goError(404, `failed to find the session: failed to get session: session ${sessionId} not found`)
    : goError(500, `session ${sessionId} not found`)),
  session: (s) => goAnswer(200, [['Content-Type', 'application/json; charset=UTF-8']], `${sessionJson(s)}\n`),
  sessionExists: (sessionId) => goError(500, `session ${sessionId} already exists`),
  // `var sessions []models.Session` stays nil with no sessions: `null`.
  listSessions: (sessions) => goAnswer(200, [['Content-Type', 'application/json; charset=UTF-8']], sessions.length === 0 ? 'null\n' : `[${sessions.map((s) => sessionJson(s)).join(',')}]\n`),
  deleteSession: () => goJson(200, undefined),
  // The decoder's own message (Go's json syntax errors) is paraphrased: its offsets are Go's.
  malformedJson: () => goError(400, 'failed to decode request body: failed to decode request: invalid character looking for beginning of value'),
  notFound: () => goError(404, '404 page not found'),
  // gorilla/mux's method mismatch: 405 and no body.
  methodNotAllowed: () => goAnswer(405, [], ''),
  health: () => goAnswer(200, [['Content-Type', 'application/json']], '{"status":"ok"}\n'),
  // adk-go serves no /version route.
  version: () => goError(404, '404 page not found'),
  listApps: (names) => goJson(200, [...names].sort()),
  runResult: (eventTexts) => goAnswer(200, [['Content-Type', 'application/json; charset=UTF-8']], eventTexts.length === 0 ? 'null\n' : `[${eventTexts.join(',')}]\n`),
};
