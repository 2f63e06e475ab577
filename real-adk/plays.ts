/**
 * The vocabulary of a real-runtime script (script.ts reads a scenario into it; agents.ts and
 * gemini-fake.ts play it): what an agent's model does on one LLM call, what a tool does on one
 * call, and the run-level facts the client side needs.
 */
import type { PreparedTurn } from '../mock-adk/core/dialects/spec.ts';

export type ModelErrorPlay =
  /** genai's ApiError: ADK parses its JSON message into errorCode "<status>" (research §6). */
  | { kind: 'api-error'; status: number; message: string }
  /** A plain Error: ADK reports errorCode UNKNOWN_ERROR with its message. */
  | { kind: 'error'; message: string }
  /** A content-less candidate: createLlmResponse turns its finishReason into the errorCode. */
  | { kind: 'finish'; finishReason: string; finishMessage: string | undefined; usage: Record<string, unknown> | undefined };

/** What an agent's model does on one LLM call. */
export type ModelPlay =
  | { kind: 'turn'; turn: PreparedTurn; error?: ModelErrorPlay }
  | { kind: 'error'; error: ModelErrorPlay }
  /** A thrown non-Error value (no message): adk-js writes `data: {}` (research §6). */
  | { kind: 'throw-value' }
  /** An AgentTool specialist: its run answers with the scripted result text. */
  | { kind: 'answer'; text: string };

export type ToolOutcome =
  | { kind: 'return'; value: Record<string, unknown> }
  /** FunctionTool wraps a thrown Error as `{"error": "Error in tool '<name>': <message>"}`. */
  | { kind: 'throw'; message: string };

export type ToolCallPlay = { outcome: ToolOutcome; stateDelta?: Record<string, unknown>; skipSummarization?: boolean; delayMs: number };

export type FunctionToolSpec = { name: string; args: Record<string, unknown>; calls: ToolCallPlay[] };
export type AgentToolSpec = { name: string; skipSummarization: boolean };

export type AgentSpec = {
  name: string;
  plays: ModelPlay[];
  functionTools: FunctionToolSpec[];
  /** AgentTools by specialist name (each specialist is an AgentSpec of its own). */
  agentTools: AgentToolSpec[];
  subAgents: string[];
  /** Tools the model calls that the agent does not have (an UNKNOWN_ERROR "not found in the toolsDict"). */
  missingTools?: string[];
  /** State a before-agent callback sets (the state-only first event). */
  beforeState?: Record<string, unknown>;
  outputKey?: string;
};

/** Where the session service fails an append with the scripted message (an exception outside the event path). */
export type SessionFault = { afterFunctionResponses: number; message: string };

export type RealScript = {
  scenarioId: string;
  /** The app name both servers are asked to run. */
  appName: string;
  root: string;
  agents: Map<string, AgentSpec>;
  /** The session does not exist (scenario `session.create: false`). */
  createSession: boolean;
  sessionState: Record<string, unknown>;
  /** newMessage.parts is [] (the in-stream "No parts" error). */
  emptyParts: boolean;
  message: string;
  stateDelta?: Record<string, unknown>;
  sessionFault?: SessionFault;
  /** The agent loader's not-found answer, when the scenario scripts it. */
  unknownApp?: { dir: string; available: string[] };
  /** Every usage count is pinned by the script (else token counts are normalised). */
  usagePinned: boolean;
};

/** A mode the script cannot be played in, with the reason (the other mode still can). */
export type ModeGaps = { streaming?: string };

export type Expressed = { ok: true; script: RealScript; notIn?: ModeGaps } | { ok: false; reason: string };

/** google.rpc status names Gemini puts beside an HTTP code in its error body. */
const GEMINI_STATUS: Record<number, string> = { 400: 'INVALID_ARGUMENT', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED' };

export function geminiStatusName(code: number): string {
  return GEMINI_STATUS[code] ?? 'UNKNOWN';
}
