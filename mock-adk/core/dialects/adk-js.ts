/**
 * adk-js 2.0.0 (`adk api_server`, Express 4): event bytes and every plain HTTP answer, as captured
 * in research/adk-wire-format.md (§N below). Key orders follow `createEvent` in
 * google/adk-js core/src/events/event.ts (`{...params, id, invocationId, author, actions,
 * longRunningToolIds, branch, timestamp}`: keys already in params keep their place, undefined
 * ones vanish in JSON.stringify), verified against the source; the capture confirms each order.
 */
import { alphanumericId } from '../ids.ts';
import type { HttpAnswer } from '../types.ts';
import { HTTP_DATE } from '../types.ts';
import { expressEtag } from './etag.ts';
import type {
  DialectSpec, EmittedEvent, ModelErrorStepInput, PreparedTurn, ResolvedCall, SessionView, Stamp, ToolsStepInput, TurnEnv, TurnOutput, UsageInput,
} from './spec.ts';
import { transferArgs } from './turn.ts';

type Json = Record<string, unknown>;

/** `createEventActions()`: the four maps always, then scalars in the order they were set (§4). */
function actions(extra: { stateDelta?: Json; artifactDelta?: Record<string, number>; skipSummarization?: boolean; transferToAgent?: string } = {}): Json {
  const out: Json = { stateDelta: extra.stateDelta ?? {}, artifactDelta: extra.artifactDelta ?? {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} };
  if (extra.skipSummarization !== undefined) out.skipSummarization = extra.skipSummarization;
  if (extra.transferToAgent !== undefined) out.transferToAgent = extra.transferToAgent;
  return out;
}

/** The model flow's `createEvent({invocationId, author, branch})`: the head every model event starts with (§4 raw event). */
function modelHead(env: TurnEnv, author: string, stamp: Stamp, acts: Json = actions(), longRunningToolIds: string[] = []): Json {
  return { invocationId: env.invocationId, author, id: stamp.id, actions: acts, longRunningToolIds, timestamp: jsTimestamp(stamp) };
}

function jsTimestamp(stamp: Stamp): number {
  return stamp.pinnedTimestamp ?? Math.floor(stamp.micros / 1000);
}

/** Gemini REST usage order as the capture shows it: prompt, candidates, total, then details and the rest. */
function usage(u: UsageInput): Json {
  const out: Json = {};
  for (const key of ['promptTokenCount', 'candidatesTokenCount', 'totalTokenCount', 'promptTokensDetails']) {
    if (u[key] !== undefined) out[key] = u[key];
  }
  for (const [k, v] of Object.entries(u)) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}

/** §4: `{"functionCall":{"name","args","id"}}`. */
function callPart(call: ResolvedCall): Json {
  return { functionCall: { name: call.name, args: transferArgs(call, 'agentName'), id: call.id } };
}

function textParts(turn: PreparedTurn, text: string | undefined): Json[] {
  const parts: Json[] = [];
  if (turn.thought !== undefined) parts.push({ text: turn.thought, thought: true });
  if (text !== undefined) parts.push({ text });
  return parts;
}

function modelTurn(turn: PreparedTurn, env: TurnEnv): TurnOutput {
  const finalActions = actions({ stateDelta: turn.stateDelta, artifactDelta: turn.artifactDelta });
  // adk-js #645 (1.4 to 1.6, SSE): a turn whose usage never reaches an event carries no usageMetadata.
  const usageOf = (u: UsageInput): Json => (turn.usageMissing ? {} : { usageMetadata: usage(u) });
  // §5a: streaming:false is one event per LLM call, `finishReason` and no `partial` key.
  if (!env.streaming) {
    // A truncated turn never completed: generateContent fails as a whole (models/google_llm.js
    // yields nothing before the throw), so only the error that cut it reaches the wire.
    if (turn.truncate) return { events: [] };
    const stamp = env.stamp(turn.delayMs, 'llm');
    const parts = [...textParts(turn, turn.text), ...turn.calls.map(callPart)];
    const json = { ...modelHead(env, turn.author, stamp, finalActions, turn.longRunningToolIds), content: { role: 'model', parts }, ...usageOf(turn.usage), finishReason: turn.finishReason };
    return { events: [{ json, waitMs: turn.delayMs }] };
  }

  const events: EmittedEvent[] = [];
  const hasCalls = turn.calls.length > 0;
  // adk-docs PR #2076: when the model chunk that carries the calls also carries the last text,
  // the non-progressive aggregator adds that text to its buffer and streams no delta for it: the
  // text reaches the wire only in the partial:false text event flushed before the calls.
  const mixed = hasCalls && turn.callsWithLastChunk && turn.textChunks.length > 0;
  const streamed = mixed ? turn.textChunks.slice(0, -1) : turn.textChunks;
  let chars = 0;
  const chunkTexts: Array<{ part: Json; chars: number }> = [];
  if (turn.thought !== undefined) chunkTexts.push({ part: { text: turn.thought, thought: true }, chars: turn.thought.length });
  for (const c of streamed) chunkTexts.push({ part: { text: c }, chars: c.length });
  chunkTexts.forEach((chunk, i) => {
    const waitMs = i === 0 ? turn.delayMs : turn.chunkDelayMs;
    const stamp = env.stamp(waitMs, i === 0 ? 'llm' : 'chunk');
    chars += chunk.chars;
    // §5b: the last chunk of a text-only turn carries finishReason (still partial:true); when calls
    // follow, the calls chunk is the last one and the text chunks carry none (§5d). A truncated
    // turn's model never finished: no chunk of it has a finishReason.
    const last = i === chunkTexts.length - 1 && !hasCalls && !turn.truncate;
    const json: Json = { ...modelHead(env, turn.author, stamp), content: { role: 'model', parts: [chunk.part] }, ...usageOf(turn.runningUsage(chars)) };
    if (last) json.finishReason = turn.finishReason;
    json.partial = true;
    events.push({ json, waitMs });
  });
  // `truncate`: the model stream stops after its partial chunks; no aggregate is ever written.
  if (turn.truncate) return { events };

  if (!hasCalls) {
    // §5b: the aggregated final, partial:false, repeats all the text.
    const stamp = env.stamp(turn.chunkDelayMs, 'chunk');
    const json = { ...modelHead(env, turn.author, stamp, finalActions), content: { role: 'model', parts: textParts(turn, turn.text) }, ...usageOf(turn.usage), finishReason: turn.finishReason, partial: false };
    events.push({ json, waitMs: turn.chunkDelayMs });
    return { events };
  }

  let waited = events.length > 0;
  if (turn.thought !== undefined || turn.textChunks.length > 0) {
    // §5d: text before calls is flushed as a partial:false text-only event, no finishReason. Its
    // usage is the calls chunk's own (utils/streaming_utils.js NonProgressiveStrategy yields it with
    // `usageMetadata: llmResponse.usageMetadata` of the chunk that carries the calls), not a running count.
    const wait = waited ? turn.chunkDelayMs : turn.delayMs;
    const stamp = env.stamp(wait, waited ? 'chunk' : 'llm');
    const json = { ...modelHead(env, turn.author, stamp), content: { role: 'model', parts: textParts(turn, turn.text) }, ...usageOf(turn.usage), partial: false };
    events.push({ json, waitMs: wait });
    waited = true;
  }
  // §5c/§5d: the calls-only event, partial:false with finishReason.
  const callsWait = waited ? turn.chunkDelayMs : turn.delayMs;
  const stamp = env.stamp(callsWait, waited ? 'chunk' : 'llm');
  const json = { ...modelHead(env, turn.author, stamp, finalActions, turn.longRunningToolIds), content: { role: 'model', parts: turn.calls.map(callPart) }, ...usageOf(turn.usage), finishReason: turn.finishReason, partial: false };
  events.push({ json, waitMs: callsWait });
  // adk-js #645: the content-less report that would carry the usage is the one 1.4 to 1.6 drop.
  if (turn.usageMissing) return { events };
  // §5c: the aggregator's trailing usage report, written after the tool round: no content.
  const afterTools = (later: TurnEnv): EmittedEvent[] => {
    const s = later.stamp(0, 'chunk');
    return [{ json: { ...modelHead(later, turn.author, s), usageMetadata: usage(turn.usage), finishReason: turn.finishReason, partial: false }, waitMs: 0 }];
  };
  return { events, afterTools };
}

/**
 * An AgentTool's answer: the call's only argument is `request` (its declaration, tools/agent_tool.js)
 * and the tool returns the specialist's text, which functions.js wraps as `{result: text}`.
 */
export function isAgentToolAnswer(args: Record<string, unknown>, response: Record<string, unknown> | undefined): boolean {
  const argKeys = Object.keys(args);
  const resKeys = response ? Object.keys(response) : [];
  return argKeys.length === 1 && typeof args['request'] === 'string' && resKeys.length === 1 && typeof response?.['result'] === 'string';
}

function toolsEvent(step: ToolsStepInput, calls: ResolvedCall[], env: TurnEnv): EmittedEvent[] {
  const waitMs = step.delayMs ?? 0;
  const stamp = env.stamp(waitMs, 'tool');
  // The transfer tool is the server's own: adk-js's returns "Transfer queued", whatever another
  // server's script says (agents/processors/agent_transfer_llm_request_processor.js).
  const responseOf = (r: ToolsStepInput['responses'][number]): Record<string, unknown> => (r.name === 'transfer_to_agent' && step.transferToAgent !== undefined ? { result: 'Transfer queued' } : r.response);
  const parts = step.responses.map((r, i) => ({ functionResponse: { id: calls[i]!.id, name: r.name, response: responseOf(r) } }));
  // adk-js 2.0.0's AgentTool stores `skipSummarization` and nothing reads it (tools/agent_tool.js):
  // only a tool that sets toolContext.actions.skipSummarization itself marks its response.
  const agentToolsOnly = step.responses.every((r, i) => isAgentToolAnswer(calls[i]?.args ?? {}, r.response));
  const acts = actions({ stateDelta: step.stateDelta, skipSummarization: agentToolsOnly ? undefined : step.skipSummarization, transferToAgent: step.transferToAgent });
  const content = { role: 'user', parts };
  // §4: one response is the tool's own event (content before actions, no usage/finishReason/partial);
  // several are merged by mergeParallelFunctionResponseEvents, whose createEvent params put
  // timestamp before id (§5d; google/adk-js core/src/agents/functions.ts).
  const json = parts.length === 1
    ? { invocationId: env.invocationId, author: step.author, content, actions: acts, id: stamp.id, longRunningToolIds: [], timestamp: jsTimestamp(stamp) }
    : { invocationId: env.invocationId, author: step.author, content, actions: acts, timestamp: jsTimestamp(stamp), id: stamp.id, longRunningToolIds: [] };
  return [{ json, waitMs }];
}

function modelErrorEvent(step: ModelErrorStepInput, env: TurnEnv): EmittedEvent[] {
  const waitMs = step.delayMs ?? 0;
  const stamp = env.stamp(waitMs, 'llm');
  if (step.finishReason !== undefined || step.usage !== undefined) {
    // §6 SAFETY: a model response without content; createLlmResponse's error branch
    // ({errorCode, errorMessage, usageMetadata, finishReason}) is spread after the event head.
    const json: Json = { ...modelHead(env, step.author, stamp), errorCode: step.errorCode };
    if (step.errorMessage !== undefined) json.errorMessage = step.errorMessage;
    if (step.usage !== undefined) json.usageMetadata = usage(step.usage);
    if (step.finishReason !== undefined) json.finishReason = step.finishReason;
    // Streamed, StreamingResponseAggregator passes a content-less chunk whose finishReason is not
    // STOP through as is (no partial key), then close() reports it again, partial:false, when it
    // kept metadata (the usage) for it (utils/streaming_utils.js).
    if (!env.streaming || step.finishReason === undefined || step.usage === undefined) return [{ json, waitMs }];
    const again = env.stamp(0, 'chunk');
    return [{ json, waitMs }, { json: { ...json, id: again.id, timestamp: jsTimestamp(again), partial: false }, waitMs: 0 }];
  }
  // §6: a thrown model error becomes createEvent({invocationId, author, errorCode, errorMessage}).
  const json: Json = { invocationId: env.invocationId, author: step.author, errorCode: step.errorCode };
  if (step.errorMessage !== undefined) json.errorMessage = step.errorMessage;
  Object.assign(json, { id: stamp.id, actions: actions(), longRunningToolIds: [], timestamp: jsTimestamp(stamp) });
  return [{ json, waitMs }];
}

// ---- plain HTTP answers (Express) -------------------------------------------------------------

const encoder = new TextEncoder();

/** `res.send(body)` with a content type: X-Powered-By, Content-Type, Content-Length, ETag; Node then adds Date, Connection, Keep-Alive. */
function expressSend(status: number, contentType: string, body: string): HttpAnswer {
  return {
    status,
    headers: [['X-Powered-By', 'Express'], ['Content-Type', contentType], ['Content-Length', String(encoder.encode(body).length)], ['ETag', expressEtag(body)], ['Date', HTTP_DATE]],
    body,
  };
}

function expressJson(status: number, value: unknown): HttpAnswer {
  return expressSend(status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** finalhandler's error page (Express's default handler for 404s and thrown errors). */
export function finalhandler(status: number, message: string): HttpAnswer {
  const pre = escapeHtml(message).replace(/\n/g, '<br>').replace(/\x20{2}/g, ' &nbsp;');
  const body = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>${pre}</pre>\n</body>\n</html>\n`;
  return {
    status,
    headers: [['X-Powered-By', 'Express'], ['Content-Security-Policy', "default-src 'none'"], ['X-Content-Type-Options', 'nosniff'], ['Content-Type', 'text/html; charset=utf-8'], ['Content-Length', String(encoder.encode(body).length)], ['Date', HTTP_DATE]],
    body,
  };
}

/** encodeurl: percent-encode what may not appear in a URL, leaving valid %XX escapes alone. */
function encodeUrl(path: string): string {
  return path.replace(/(?:[^\x21\x23-\x3B\x3D\x3F-\x5F\x61-\x7A\x7C\x7E]|%(?:[^0-9A-Fa-f]|[0-9A-Fa-f][^0-9A-Fa-f]|$))+/g, (m) => encodeURI(m));
}

/** A plausible absolute install path: the real page leaks the server's own (NODE_ENV is not production). */
const MODULES = '/srv/adk/node_modules';

/**
 * JSON.parse's message as the captured server printed it (research/adk-wire-format.md: "Expected double-quoted
 * property name in JSON at position 24"): V8 12 (Node 22 on) adds " (line 1 column 25)", which would make the
 * mock's bytes the harness's Node's, not the server's.
 */
const v8Message = (e: unknown): string => (e as Error).message.replace(/ \(line \d+ column \d+\)$/, '');

/** body-parser's json `parse()`: strict mode rejects a first character other than `{`/`[` with JSON.parse's own message. */
function bodyParserMessage(raw: string): string | undefined {
  if (raw.length === 0) return undefined;
  const first = /^[\x20\x09\x0a\x0d]*(.)/.exec(raw)?.[1];
  if (first !== undefined && first !== '{' && first !== '[') {
    const index = raw.indexOf(first);
    const partial = `${raw.substring(0, index)}#`;
    try { JSON.parse(partial); } catch (e) {
      return v8Message(e).replace('#', () => raw.substring(index, index + 1));
    }
  }
  try { JSON.parse(raw); return undefined; } catch (e) { return v8Message(e); }
}

function malformedJson(rawBody: string): HttpAnswer {
  const message = bodyParserMessage(rawBody);
  if (message === undefined) {
    throw new TypeError('malformedJson: the body parses as JSON; answer it normally (express.json accepts it)');
  }
  const stack = [
    `SyntaxError: ${message}`,
    '    at JSON.parse (<anonymous>)',
    `    at parse (${MODULES}/body-parser/lib/types/json.js:92:19)`,
    `    at ${MODULES}/body-parser/lib/read.js:128:18`,
    '    at AsyncResource.runInAsyncScope (node:async_hooks:206:9)',
    `    at invokeCallback (${MODULES}/raw-body/index.js:238:16)`,
    `    at done (${MODULES}/raw-body/index.js:227:7)`,
    `    at IncomingMessage.onEnd (${MODULES}/raw-body/index.js:287:7)`,
    '    at IncomingMessage.emit (node:events:517:28)',
    '    at endReadableNT (node:internal/streams/readable:1400:12)',
  ].join('\n');
  return finalhandler(400, stack);
}

function sessionJson(s: SessionView): string {
  // The stored events are spliced in as the exact texts they were streamed as.
  const head = JSON.stringify({ id: s.id, appName: s.appName, userId: s.userId, state: s.state }).slice(0, -1);
  return `${head},"events":[${(s.events ?? []).join(',')}],"lastUpdateTime":${Math.floor(s.lastUpdateTime)}}`;
}

export const adkJs: DialectSpec = {
  name: 'adk-js',
  // §3: flushed before the agent runs; no charset, no CORS, no Content-Length.
  sseHeaders: () => [['X-Powered-By', 'Express'], ['Cache-Control', 'no-cache'], ['Content-Type', 'text/event-stream'], ['Connection', 'keep-alive'], ['Date', HTTP_DATE]],
  newEventId: (rng) => alphanumericId(rng, 8),
  timestamp: jsTimestamp,
  stringify: (value) => JSON.stringify(value),
  modelTurn,
  toolsEvent,
  modelErrorEvent,
  // agents/llm_agent.js runAsyncImpl runs the agent again only when its step's last event is a
  // content-less report of its own after tool calls: streamed, the aggregator's trailing report
  // comes after the sub-agent's run (§5e); without streaming the sub-agent's final answer is the
  // step's last event, so the transferring agent's loop ends and with it the run.
  reinvokesAfterTransfer: (streaming) => streaming,
  // §6: `res.write(`data: ${JSON.stringify({error: e.message})}\n\n`)`.
  errorFrameData: (step) => JSON.stringify({ error: step.message }),
  json: expressJson,
  sessionNotFound: (sessionId) => expressJson(404, { error: `Session not found: ${sessionId}` }),
  session: (s) => expressSend(200, 'application/json; charset=utf-8', sessionJson(s)),
  sessionExists: (sessionId) => expressJson(400, { error: `Session already exists: ${sessionId}` }),
  // InMemorySessionService.listSessions without a limit: page 1, limit = totalItems, state and events emptied.
  listSessions: (sessions) => {
    const listed = sessions.map((s) => sessionJson({ ...s, state: {}, events: [] }));
    const n = sessions.length;
    return expressSend(200, 'application/json; charset=utf-8', `{"sessions":[${listed.join(',')}],"page":1,"limit":${n},"totalItems":${n},"totalPages":${n === 0 ? 0 : 1}}`);
  },
  // `res.status(204).json({})`: Express drops the body and its Content-Type/Length, keeps the ETag of `{}`.
  deleteSession: () => ({ status: 204, headers: [['X-Powered-By', 'Express'], ['ETag', expressEtag('{}')], ['Date', HTTP_DATE]], body: '' }),
  malformedJson,
  notFound: (method, path) => finalhandler(404, `Cannot ${method} ${encodeUrl(path)}`),
  // Express has no 405: any unrouted method falls through to the 404 page (`GET /run_sse`, §1).
  methodNotAllowed: (method, path) => finalhandler(404, `Cannot ${method} ${encodeUrl(path)}`),
  health: () => expressSend(200, 'text/html; charset=utf-8', 'OK'),
  version: () => expressJson(200, { version: '2.0.0' }),
  listApps: (names) => expressJson(200, [...names].sort()),
  runResult: (eventTexts) => expressSend(200, 'application/json; charset=utf-8', `[${eventTexts.join(',')}]`),
};
