/**
 * Real adk-js agents built from a RealScript: LlmAgents whose model is the real `Gemini` class with
 * only its `apiClient` replaced by an in-process fake (the capture rig of research §0), real
 * FunctionTools, real AgentTools and real sub-agents reached by ADK's own transfer_to_agent tool.
 *
 * Agents are built once per app (the devtools server caches a Runner per app); what they play is
 * read from the app's RunState, which `arm` replaces before every run, so each run starts at the
 * first model step and the first tool response.
 */
import type { BaseAgent, BaseLlm, BaseTool, Context } from '@google/adk';
import type { GoogleGenAI } from '@google/genai';
import { MODEL_VERSION, playOnce, playStream, type GenAiClasses } from './gemini-fake.ts';
import type { AdkModules } from './load.ts';
import type { AgentSpec, FunctionToolSpec, ModelPlay, RealScript, ToolCallPlay } from './plays.ts';

/** Where one run of one app is in its script. */
export type RunState = {
  script: RealScript;
  modelCalls: Map<string, number>;
  toolCalls: Map<string, number>;
  /** Multiplies scripted tool waits (silences); 0 plays them instantly. */
  timeScale: number;
};

export type RunStates = Map<string, RunState>;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function nextModelPlay(state: RunState | undefined, agent: string): ModelPlay | undefined {
  if (!state) return undefined;
  const n = state.modelCalls.get(agent) ?? 0;
  state.modelCalls.set(agent, n + 1);
  return state.script.agents.get(agent)?.plays[n];
}

function nextToolPlay(state: RunState | undefined, agent: string, tool: FunctionToolSpec): ToolCallPlay | undefined {
  if (!state) return undefined;
  const key = `${agent}/${tool.name}`;
  const n = state.toolCalls.get(key) ?? 0;
  state.toolCalls.set(key, n + 1);
  return tool.calls[n];
}

/** A genai Schema for the scripted arguments, so the declaration the model sees matches the calls. */
function schemaOf(m: AdkModules, value: unknown): Record<string, unknown> {
  const T = m.genai.Type;
  if (typeof value === 'string') return { type: T.STRING };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? T.INTEGER : T.NUMBER };
  if (typeof value === 'boolean') return { type: T.BOOLEAN };
  if (Array.isArray(value)) return { type: T.ARRAY, items: value.length > 0 ? schemaOf(m, value[0]) : { type: T.STRING } };
  if (value !== null && typeof value === 'object') {
    const properties: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) properties[k] = schemaOf(m, v);
    return { type: T.OBJECT, properties };
  }
  return { type: T.STRING };
}

export function createAgentBuilder(m: AdkModules, states: RunStates) {
  const genai = m.genai as unknown as GenAiClasses;
  let responses = 0;

  /** The real Gemini class with only its API client scripted (research §0, §8). */
  class ScriptedGemini extends m.adk.Gemini {
    readonly appName: string;
    readonly agentName: string;
    readonly fake: unknown;
    constructor(appName: string, agentName: string) {
      super({ model: MODEL_VERSION, apiKey: 'scripted-model-no-network', vertexai: false, project: 'scripted', location: 'scripted' });
      this.appName = appName;
      this.agentName = agentName;
      const play = (): ModelPlay => {
        const p = nextModelPlay(states.get(this.appName), this.agentName);
        // More LLM calls than the script gives this agent: a plain error, so the run shows it as an UNKNOWN_ERROR event.
        if (!p) throw new Error(`scripted model: agent ${this.agentName} has no model step for this LLM call`);
        return p;
      };
      this.fake = {
        vertexai: false,
        models: {
          generateContent: async () => playOnce(genai, play(), `scripted-${++responses}`),
          generateContentStream: async () => playStream(genai, play(), `scripted-${++responses}`),
        },
      };
    }
    override get apiClient(): GoogleGenAI {
      return this.fake as GoogleGenAI;
    }
  }

  function functionTool(appName: string, agent: string, spec: FunctionToolSpec): BaseTool {
    return new m.adk.FunctionTool({
      name: spec.name,
      description: `scripted tool ${spec.name}`,
      parameters: schemaOf(m, spec.args) as never,
      execute: async (_args: unknown, toolContext?: Context) => {
        const state = states.get(appName);
        const play = nextToolPlay(state, agent, spec);
        if (!play) throw new Error(`the script has no response for this call of ${spec.name}`);
        if (play.delayMs > 0 && state && state.timeScale > 0) await sleep(play.delayMs * state.timeScale);
        for (const [k, v] of Object.entries(play.stateDelta ?? {})) toolContext?.state.set(k, v);
        if (play.skipSummarization && toolContext) toolContext.actions.skipSummarization = true;
        if (play.outcome.kind === 'throw') throw new Error(play.outcome.message);
        return structuredClone(play.outcome.value);
      },
    });
  }

  function llmAgent(script: RealScript, spec: AgentSpec, built: Set<string>): BaseAgent {
    if (built.has(spec.name)) throw new Error(`agent ${spec.name} appears twice in the tree of ${script.appName}`);
    built.add(spec.name);
    const tools: BaseTool[] = spec.functionTools.map((t) => functionTool(script.appName, spec.name, t));
    for (const at of spec.agentTools) {
      const specialist = script.agents.get(at.name);
      if (!specialist) throw new Error(`agent tool ${at.name} has no agent`);
      tools.push(new m.adk.AgentTool({ agent: llmAgent(script, specialist, new Set()) as never, skipSummarization: at.skipSummarization }));
    }
    const subAgents = spec.subAgents.map((name) => {
      const sub = script.agents.get(name);
      if (!sub) throw new Error(`sub-agent ${name} has no agent`);
      return llmAgent(script, sub, built);
    });
    const beforeState = spec.beforeState;
    return new m.adk.LlmAgent({
      name: spec.name,
      description: `scripted agent ${spec.name}`,
      model: new ScriptedGemini(script.appName, spec.name) as unknown as BaseLlm,
      tools,
      subAgents,
      ...(spec.outputKey !== undefined ? { outputKey: spec.outputKey } : {}),
      // The state-only first event: adk-js emits it when a before-agent callback changed state.
      ...(beforeState ? { beforeAgentCallback: (context: Context) => { for (const [k, v] of Object.entries(beforeState)) context.state.set(k, v); return undefined; } } : {}),
    });
  }

  return {
    rootAgent(script: RealScript): BaseAgent {
      const root = script.agents.get(script.root);
      if (!root) throw new Error(`script ${script.scenarioId} has no root agent ${script.root}`);
      return llmAgent(script, root, new Set());
    },
  };
}
