/**
 * The scripted model's side of the Gemini REST API: the `GenerateContentResponse`s a model play
 * becomes, in the shape the capture rig's fake returned (research/adk-wire-format.md §0:
 * `candidates[0].{content, finishReason, index}`, `usageMetadata`, `modelVersion`, `responseId`),
 * and the errors genai throws. ADK's own Gemini path (createLlmResponse, StreamingResponseAggregator)
 * then runs unchanged on them. Nothing here talks to a network.
 */
import type { PreparedTurn, UsageInput } from '../mock-adk/core/dialects/spec.ts';
import { transferArgs } from '../mock-adk/core/dialects/turn.ts';
import { geminiStatusName, type ModelErrorPlay, type ModelPlay } from './plays.ts';

/** The two genai classes the fake needs, handed in by whoever loaded the optional dependency. */
export type GenAiClasses = {
  ApiError: new (options: { message: string; status: number }) => Error;
  GenerateContentResponse: new () => object;
};

type Json = Record<string, unknown>;

export const MODEL_VERSION = 'gemini-2.5-flash';

/** Gemini REST's usage order: prompt, candidates, total, then the details and anything else. */
export function restUsage(u: UsageInput): Json {
  const out: Json = {};
  for (const key of ['promptTokenCount', 'candidatesTokenCount', 'totalTokenCount', 'promptTokensDetails']) {
    if (u[key] !== undefined) out[key] = u[key];
  }
  for (const [k, v] of Object.entries(u)) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}

function respond(genai: GenAiClasses, candidate: Json, usage: Json | undefined, responseId: string): object {
  const response = new genai.GenerateContentResponse() as Json;
  response['candidates'] = [candidate];
  if (usage !== undefined) response['usageMetadata'] = usage;
  response['modelVersion'] = MODEL_VERSION;
  response['responseId'] = responseId;
  return response;
}

function callParts(turn: PreparedTurn): Json[] {
  // Gemini returns calls without ids; ADK gives each an `adk-` id (research §4). A model calls
  // adk-js's transfer tool with the parameter it declares, agentName (the mock writes the same).
  return turn.calls.map((c) => ({ functionCall: { name: c.name, args: transferArgs(c, 'agentName') } }));
}

function textParts(turn: PreparedTurn): Json[] {
  const parts: Json[] = [];
  if (turn.thought !== undefined) parts.push({ text: turn.thought, thought: true });
  if (turn.text !== undefined) parts.push({ text: turn.text });
  return parts;
}

/** The thrown value for a scripted model failure: genai's ApiError carries the JSON error body as its message. */
export function modelError(genai: GenAiClasses, play: ModelErrorPlay): Error {
  if (play.kind === 'api-error') {
    const body = { error: { code: play.status, message: play.message, status: geminiStatusName(play.status) } };
    return new genai.ApiError({ message: JSON.stringify(body), status: play.status });
  }
  if (play.kind === 'error') return new Error(play.message);
  throw new TypeError('modelError: a finish play is a response, not a thrown error');
}

function finishResponse(genai: GenAiClasses, play: Extract<ModelErrorPlay, { kind: 'finish' }>, responseId: string): object {
  const candidate: Json = { finishReason: play.finishReason, index: 0 };
  if (play.finishMessage !== undefined) candidate['finishMessage'] = play.finishMessage;
  return respond(genai, candidate, play.usage === undefined ? undefined : restUsage(play.usage), responseId);
}

/** The specialist behind an AgentTool answers with the scripted result text, in one turn. */
function answerResponse(genai: GenAiClasses, text: string, responseId: string): object {
  const candidates = Math.max(1, Math.ceil(text.length / 4));
  return respond(genai, { content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }, restUsage({ promptTokenCount: 48, candidatesTokenCount: candidates, totalTokenCount: 48 + candidates }), responseId);
}

/** `models.generateContent`: one response for the whole turn, or the scripted failure. */
export function playOnce(genai: GenAiClasses, play: ModelPlay, responseId: string): object {
  switch (play.kind) {
    case 'answer': return answerResponse(genai, play.text, responseId);
    case 'throw-value': throw 'a bare string was thrown';
    case 'error':
      if (play.error.kind === 'finish') return finishResponse(genai, play.error, responseId);
      throw modelError(genai, play.error);
    case 'turn': {
      // A turn cut by an error never completes: the non-streaming call fails as a whole.
      if (play.error) {
        if (play.error.kind === 'finish') return finishResponse(genai, play.error, responseId);
        throw modelError(genai, play.error);
      }
      const t = play.turn;
      const candidate = { content: { role: 'model', parts: [...textParts(t), ...callParts(t)] }, finishReason: t.finishReason, index: 0 };
      return respond(genai, candidate, t.usageMissing ? undefined : restUsage(t.usage), responseId);
    }
  }
}

/**
 * `models.generateContentStream`: the turn as streamed chunks (3 to 4 words each unless the script
 * splits it), each with the running usage; the last chunk carries the finishReason and the turn's
 * usage, and the calls when there are any (research §5b to §5d). A scripted error is thrown after
 * the chunks it follows.
 */
export async function* playStream(genai: GenAiClasses, play: ModelPlay, responseId: string): AsyncGenerator<object> {
  if (play.kind !== 'turn') {
    yield playOnce(genai, play, responseId);
    return;
  }
  const t = play.turn;
  const chunkTexts: Json[] = [];
  if (t.thought !== undefined) chunkTexts.push({ text: t.thought, thought: true });
  const mixed = t.calls.length > 0 && t.callsWithLastChunk && t.textChunks.length > 0;
  const streamed = mixed ? t.textChunks.slice(0, -1) : t.textChunks;
  for (const c of streamed) chunkTexts.push({ text: c });
  let chars = 0;
  const finalUsage = t.usageMissing ? undefined : restUsage(t.usage);
  for (let i = 0; i < chunkTexts.length; i++) {
    const part = chunkTexts[i]!;
    chars += String(part['text']).length;
    const last = i === chunkTexts.length - 1 && t.calls.length === 0 && !play.error;
    const candidate: Json = { content: { role: 'model', parts: [part] }, index: 0 };
    if (last) candidate['finishReason'] = t.finishReason;
    const usage = last ? finalUsage : t.usageMissing ? undefined : restUsage(t.runningUsage(chars));
    yield respond(genai, last ? { content: candidate['content'], finishReason: t.finishReason, index: 0 } : candidate, usage, responseId);
  }
  if (play.error) {
    if (play.error.kind === 'finish') { yield finishResponse(genai, play.error, responseId); return; }
    throw modelError(genai, play.error);
  }
  if (t.calls.length > 0) {
    const parts = [...(mixed ? [{ text: t.textChunks[t.textChunks.length - 1]! }] : []), ...callParts(t)];
    yield respond(genai, { content: { role: 'model', parts }, finishReason: t.finishReason, index: 0 }, finalUsage, responseId);
  }
}
