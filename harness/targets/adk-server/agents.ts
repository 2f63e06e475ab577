/**
 * The agents behind the Runner a server helper is given (docs/adk-server-contract.md): real adk-js
 * 2.0.0 agents over a scripted model that, unlike real-adk/gemini-fake.ts (whose responses go
 * through createLlmResponse, which drops `modelVersion`), hands ADK LlmResponses with every field
 * a real Gemini turn can carry: `modelVersion`, a part's `thoughtSignature`, a thought part. A
 * custom agent adds what adk-js 2.0's workflows write (`nodeInfo`, `output`) and
 * `actions.endOfAgent`. Each script counts its model calls, which is what the abort and
 * empty-message probes judge.
 */
import type { AdkModules } from '../../../real-adk/load.ts';

type Adk = AdkModules['adk'];
type LlmResponse = import('@google/adk').LlmResponse;
type Event = import('@google/adk').Event;
type InvocationContext = import('@google/adk').InvocationContext;
type BaseAgent = import('@google/adk').BaseAgent;

export const MODEL_VERSION = 'gemini-2.5-flash-scripted-001';
/** Base64, as Gemini sends it: a real thought signature is opaque bytes. */
export const THOUGHT_SIGNATURE = 'c2NyaXB0ZWQtdGhvdWdodC1zaWduYXR1cmU=';

export type ScriptKind = 'fields' | 'loop' | 'flood' | 'throws' | 'plain';

/** What the harness reads back from a script while a helper serves it. */
export type ModelCounter = { calls: number; callTimes: number[] };

export type FloodShape = { events: number; textBytes: number };

const usage = (prompt: number, out: number) => ({ promptTokenCount: prompt, candidatesTokenCount: out, totalTokenCount: prompt + out });

/** One model turn as the script plays it: the responses in order (the last is the turn's final). */
type Turn = (request: import('@google/adk').LlmRequest, stream: boolean) => LlmResponse[];

function scriptedModel(adk: Adk, counter: ModelCounter, turn: Turn, delayMs: number) {
  class ScriptedFieldsModel extends adk.BaseLlm {
    constructor() { super({ model: MODEL_VERSION }); }
    async *generateContentAsync(request: import('@google/adk').LlmRequest, stream?: boolean, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
      counter.calls++;
      counter.callTimes.push(performance.now());
      for (const response of turn(request, stream === true)) {
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        if (abortSignal?.aborted) return;
        yield response;
      }
    }
    async connect(): Promise<never> { throw new Error('the scripted model has no live mode'); }
  }
  return new ScriptedFieldsModel();
}

/** Whether the last content of the request is the tool's answer (the model's second turn). */
const afterTool = (request: import('@google/adk').LlmRequest): boolean => request.contents.at(-1)?.parts?.some((p) => p.functionResponse !== undefined) === true;

/** The fidelity script: a call with a thought signature, the tool's answer, then a streamed or whole text with a thought. */
const fieldsTurn: Turn = (request, stream) => {
  if (!afterTool(request)) {
    return [{ content: { role: 'model', parts: [{ functionCall: { name: 'lookup_fire', args: { fire_name: 'Cedar Creek' } }, thoughtSignature: THOUGHT_SIGNATURE }] }, finishReason: 'STOP' as never, usageMetadata: usage(40, 8), modelVersion: MODEL_VERSION }];
  }
  const thought = { text: 'The tool gave the acreage.', thought: true, thoughtSignature: THOUGHT_SIGNATURE };
  const text = 'Cedar Creek burned 127,283 acres — fully contained.';
  const final: LlmResponse = { content: { role: 'model', parts: [thought, { text }] }, finishReason: 'STOP' as never, usageMetadata: { ...usage(60, 14), thoughtsTokenCount: 5 }, modelVersion: MODEL_VERSION };
  if (!stream) return [final];
  return [
    { content: { role: 'model', parts: [thought] }, partial: true, usageMetadata: usage(60, 5), modelVersion: MODEL_VERSION },
    { content: { role: 'model', parts: [{ text: 'Cedar Creek burned ' }] }, partial: true, usageMetadata: usage(60, 9), modelVersion: MODEL_VERSION },
    { content: { role: 'model', parts: [{ text: '127,283 acres — fully contained.' }] }, partial: true, usageMetadata: usage(60, 14), modelVersion: MODEL_VERSION },
    { ...final, partial: false },
  ];
};

/** The abort script: the model calls the tool on every turn, so only an abort or an ended generator stops it. */
const loopTurn: Turn = () => [{ content: { role: 'model', parts: [{ functionCall: { name: 'lookup_fire', args: { fire_name: 'Cedar Creek' } } }] }, finishReason: 'STOP' as never, usageMetadata: usage(40, 8), modelVersion: MODEL_VERSION }];

const plainTurn: Turn = () => [{ content: { role: 'model', parts: [{ text: 'Hello.' }] }, finishReason: 'STOP' as never, usageMetadata: usage(10, 2), modelVersion: MODEL_VERSION }];

function lookupTool(adk: Adk, delayMs: number) {
  return new adk.FunctionTool({
    name: 'lookup_fire',
    description: 'Looks up a fire by name.',
    parameters: { type: 'OBJECT' as never, properties: { fire_name: { type: 'STRING' as never } }, required: ['fire_name'] },
    execute: async () => { if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs)); return { fire_name: 'Cedar Creek', acres: 127283, containment_pct: 100 }; },
  });
}

/** The agent a script kind runs as the Runner's root, and the counter of its model calls. */
export function scriptAgent(adk: Adk, kind: ScriptKind, flood: FloodShape = { events: 0, textBytes: 0 }): { agent: BaseAgent; counter: ModelCounter } {
  const counter: ModelCounter = { calls: 0, callTimes: [] };
  const llm = (name: string, turn: Turn, toolDelayMs: number, modelDelayMs: number) => new adk.LlmAgent({ name, description: 'Answers about wildfires.', instruction: 'Answer briefly.', model: scriptedModel(adk, counter, turn, modelDelayMs), tools: toolDelayMs >= 0 ? [lookupTool(adk, toolDelayMs)] : [] });
  if (kind === 'loop') return { agent: llm('looping_analyst', loopTurn, 25, 5), counter };
  if (kind === 'plain') return { agent: llm('plain_analyst', plainTurn, -1, 0), counter };
  const analyst = kind === 'fields' ? llm('fire_analyst', fieldsTurn, 0, 0) : undefined;
  class ScriptRoot extends adk.BaseAgent {
    protected async *runAsyncImpl(context: InvocationContext): AsyncGenerator<Event, void, void> {
      const event = (fields: Partial<Event>) => adk.createEvent({ invocationId: context.invocationId, author: this.name, ...fields } as never);
      if (kind === 'fields' && analyst) {
        yield* analyst.runAsync(context);
        // What an adk-js 2.0 workflow node writes at its end: its path, its output and endOfAgent.
        yield event({ content: { role: 'model', parts: [{ text: 'Summary: Cedar Creek, 127,283 acres.' }] }, finishReason: 'STOP' as never, modelVersion: MODEL_VERSION, nodeInfo: { path: 'briefing_root/summary', outputFor: ['briefing_root'] }, output: { fire_name: 'Cedar Creek', acres: 127283 }, actions: adk.createEventActions({ endOfAgent: true }) });
        return;
      }
      if (kind === 'throws') {
        yield event({ content: { role: 'model', parts: [{ text: 'Starting.' }] }, partial: true });
        throw new Error('scripted runner failure: the session store went away');
      }
      // flood: partial events (not stored in the session), as fast as they are pulled.
      const text = 'x'.repeat(flood.textBytes);
      for (let i = 0; i < flood.events; i++) yield event({ content: { role: 'model', parts: [{ text }] }, partial: true });
      yield event({ content: { role: 'model', parts: [{ text: 'Done.' }] }, finishReason: 'STOP' as never, partial: false });
    }
    protected async *runLiveImpl(): AsyncGenerator<Event, void, void> { throw new Error('no live mode'); }
  }
  return { agent: new ScriptRoot({ name: 'briefing_root', description: 'The scripted root.', ...(analyst ? { subAgents: [analyst] } : {}) }), counter };
}
