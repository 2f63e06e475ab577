/**
 * adk-python 1.22+ / 2.x (`adk api_server`, `src/google/adk/cli/api_server.py` @024a4389, the
 * "Gen D" server; aggregator `src/google/adk/utils/streaming_utils.py` @11be7056). What differs
 * from Gen C (adk-python.ts, whose helpers this reuses):
 *
 * - Every event ends with the ADK 2.x `nodeInfo` (`Event.node_info`, a default_factory of empty
 *   strings, so `{"path":"","executionId":""}` on every frame: inferred from the model, not seen
 *   in a capture; its place after `timestamp` assumes the 2.x fields are declared last). `output`
 *   and the 2.x actions (`endOfAgent`, `agentState`, `route`, …) are None on a plain LLM agent's
 *   events, so exclude_none drops them.
 * - Progressive SSE streams function-call arguments (`partial_args`, Gemini 3 on Vertex with
 *   `stream_function_call_arguments`): the model's call chunks are yielded as they came, each a
 *   partial event. The first carries `name` and `willContinue:true` and the id the aggregator
 *   gave it (`_process_function_call_part`), which the aggregated call keeps; each argument chunk
 *   carries `partialArgs` and gets a fresh `adk-` id from populate_client_function_call_id (#5064).
 * - The in-stream error is `{"error": "<Type>: <msg>", "error_details": {...}}` (json.dumps).
 * - Errors before the stream (agent-load ValueError → 404, `__` apps → 403, missing session 404,
 *   no app name → 400) are HTTP answers in `{"detail": …}`: scripted with `upstream.kind: http`.
 */
import type { DialectSpec, EmittedEvent, PreparedTurn, ResolvedCall, Stamp, TurnEnv, TurnOutput } from './spec.ts';
import { actions, adkPython, allParts, callPart, errorFrameData, event, MODEL_VERSION, splitArtifact, thoughtPart, turnUsage } from './adk-python.ts';
import { pyFloat } from './py-json.ts';
import { transferArgs } from './turn.ts';

type Json = Record<string, unknown>;

/** NodeInfo(path='', execution_id='') with camelCase aliases: what a plain agent's event carries in 2.x. */
const NODE_INFO = Object.freeze({ path: '', executionId: '' });

function withNodeInfo(events: EmittedEvent[]): EmittedEvent[] {
  return events.map((e) => ({ ...e, json: { ...e.json, nodeInfo: { ...NODE_INFO } } }));
}

/** One PartialArg per leaf of the arguments, with its RFC 9535 path. */
function partialArgs(value: unknown, path: string): Json[] {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [`${path}[${i}]`, v] as const) : Object.entries(value).map(([k, v]) => [`${path}.${k}`, v] as const);
    return entries.flatMap(([p, v]) => partialArgs(v, p));
  }
  // python-genai's PartialArg field order was not read: this follows the js-genai declaration
  // generated alongside it (nullValue, numberValue, stringValue, boolValue, jsonPath, willContinue).
  if (value === null) return [{ nullValue: 'NULL_VALUE', jsonPath: path }];
  if (typeof value === 'number') return [{ numberValue: pyFloat(value), jsonPath: path }];
  if (typeof value === 'boolean') return [{ boolValue: value, jsonPath: path }];
  return [{ stringValue: String(value), jsonPath: path }];
}

/** The model's streamed chunks of one call, as FunctionCall dicts (genai order: id, args, name, partialArgs, willContinue). */
function streamedCall(call: ResolvedCall, freshId: (stamp: Stamp) => string): Array<(stamp: Stamp) => Json> {
  const args = partialArgs(transferArgs(call, 'agent_name'), '$');
  const head = (): Json => ({ functionCall: { id: call.id, name: call.name, willContinue: true } });
  const pieces = args.map((arg, i) => (stamp: Stamp): Json => ({
    functionCall: { id: freshId(stamp), partialArgs: [arg], willContinue: i < args.length - 1 ? true : undefined },
  }));
  // A call without arguments is one complete chunk: name and no willContinue.
  if (args.length === 0) return [() => ({ functionCall: { id: call.id, name: call.name } })];
  return [head, ...pieces];
}

/** A fresh, deterministic `adk-<uuid>` per chunk: derived from the chunk's own (seeded) event id. */
function chunkCallId(stamp: Stamp): string {
  return `adk-${stamp.id}`;
}

function streamingCallsTurn(turn: PreparedTurn, env: TurnEnv): TurnOutput {
  const lrt = turn.longRunningToolIds;
  const chunks: Array<(stamp: Stamp) => { parts: Json[]; lrt?: string[] }> = [];
  if (turn.thought !== undefined) chunks.push(() => ({ parts: [thoughtPart(turn.thought!)] }));
  const mixed = turn.callsWithLastChunk && turn.textChunks.length > 0;
  const streamed = mixed ? turn.textChunks.slice(0, -1) : turn.textChunks;
  for (const c of streamed) chunks.push(() => ({ parts: [{ text: c }] }));
  turn.calls.forEach((call, ci) => {
    streamedCall(call, chunkCallId).forEach((piece, pi) => {
      const lastText = mixed && ci === 0 && pi === 0 ? [{ text: turn.textChunks[turn.textChunks.length - 1] }] : [];
      chunks.push((stamp) => {
        const part = piece(stamp);
        const id = (part.functionCall as { id: string }).id;
        // _finalize_model_response_event: longRunningToolIds from this event's own calls.
        return { parts: [...lastText, part], lrt: lrt.includes(call.id) ? [id] : [] };
      });
    });
  });
  const events: EmittedEvent[] = chunks.map((make, i) => {
    const waitMs = i === 0 ? turn.delayMs : turn.chunkDelayMs;
    const stamp = env.stamp(waitMs, i === 0 ? 'llm' : 'chunk');
    const { parts, lrt: chunkLrt } = make(stamp);
    const finishReason = i === chunks.length - 1 ? turn.finishReason : undefined;
    const json = event(env, stamp, { modelVersion: MODEL_VERSION, content: { parts, role: 'model' }, partial: true, finishReason }, { author: turn.author, actions: actions(), longRunningToolIds: chunkLrt });
    return { json, waitMs };
  });
  if (turn.truncate) return { events };
  // close(): text and calls in arrival order, the calls under the ids their first chunk carried.
  const stamp = env.stamp(turn.chunkDelayMs, 'chunk');
  const errorCode = turn.finishReason !== 'STOP' ? turn.finishReason : undefined;
  const finalActions = actions({ stateDelta: turn.stateDelta, artifactDelta: turn.artifactDelta });
  const json = event(env, stamp, { modelVersion: MODEL_VERSION, content: { parts: allParts(turn), role: 'model' }, partial: false, finishReason: turn.finishReason, errorCode, usageMetadata: turnUsage(turn) }, { author: turn.author, actions: finalActions, longRunningToolIds: lrt });
  return { events: [...events, ...splitArtifact(json, turn, turn.chunkDelayMs)] };
}

function modelTurn(turn: PreparedTurn, env: TurnEnv): TurnOutput {
  const out = env.streaming && turn.calls.length > 0 ? streamingCallsTurn(turn, env) : adkPython.modelTurn(turn, env);
  return { events: withNodeInfo(out.events) };
}

export const adkPython2x: DialectSpec = {
  ...adkPython,
  name: 'adk-python@2.x',
  modelTurn,
  toolsEvent: (step, calls, env) => withNodeInfo(adkPython.toolsEvent(step, calls, env)),
  modelErrorEvent: (step, env) => withNodeInfo(adkPython.modelErrorEvent(step, env)),
  // api_server.py event_generator: the structured frame is this server's own (Gen C's plain one is a style).
  errorFrameData: (step, seconds) => errorFrameData({ ...step, style: step.style === undefined || step.style === 'dialect' ? 'python-structured' : step.style }, seconds),
  version: () => adkPython.json(200, { version: '2.13.0', language: 'python', language_version: '3.12.11' }),
};

/** For tests: the PartialArg list of some arguments. */
export const partialArgsOf = (args: Record<string, unknown>): Json[] => partialArgs(args, '$');
