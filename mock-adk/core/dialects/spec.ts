/**
 * The contract between the renderer and a dialect (one real ADK server's bytes). The renderer
 * walks the run script, owns ids, time, delays and the audit bridge; a dialect decides which
 * events one step becomes and writes each of them with that server's field order and encoding.
 */
import type { Rng } from '../ids.ts';
import type { Dialect, HttpAnswer } from '../types.ts';

/** The run-script step shapes of schemas/scenario.schema.json, with defaults left optional (the loader may or may not fill them). */
export type UsageInput = { promptTokenCount?: number; candidatesTokenCount?: number; totalTokenCount?: number; [key: string]: unknown };

export type ModelStepInput = {
  author: string;
  text?: string;
  thought?: string;
  calls?: Array<{ name: string; args: Record<string, unknown>; id?: string }>;
  chunks?: string[];
  finishReason?: string;
  usage?: UsageInput;
  stateDelta?: Record<string, unknown>;
  artifactDelta?: Record<string, number>;
  longRunning?: boolean;
  truncate?: boolean;
  callsWithLastChunk?: boolean;
  reissuedCallIds?: boolean;
  usageMissing?: boolean;
  delayMs?: number;
  chunkDelayMs?: number;
};

export type ToolsStepInput = {
  author: string;
  responses: Array<{ name: string; response: Record<string, unknown> }>;
  stateDelta?: Record<string, unknown>;
  transferToAgent?: string;
  skipSummarization?: boolean;
  delayMs?: number;
};

export type ModelErrorStepInput = {
  author: string;
  errorCode: string;
  errorMessage?: string;
  finishReason?: string;
  usage?: UsageInput;
  delayMs?: number;
};

export type ErrorFrameStepInput = {
  message: string;
  style?: 'dialect' | 'python-legacy-unescaped' | 'python-structured';
  errorType?: string;
  delayMs?: number;
};

export type RawStepInput = { text?: string; base64?: string; delayMs?: number };

export type AuditEventInput = { event_type: string; [key: string]: unknown };

export type StepInput = { audit?: AuditEventInput[] } & (
  | { model: ModelStepInput }
  | { tools: ToolsStepInput }
  | { modelError: ModelErrorStepInput }
  | { errorFrame: ErrorFrameStepInput }
  | { raw: RawStepInput }
  | { silence: { ms: number } }
  | Record<never, never>
);

export type RunUpstreamInput = {
  kind: 'run';
  steps: StepInput[];
  end?: 'eof' | 'hold-open' | 'reset';
  invocationId?: string;
  startTime?: number;
  ids?: { events?: string[]; calls?: string[]; timestamps?: number[] };
};

/** When one event is written: its id, and its time (µs on the script clock, or a pinned value in the dialect's unit). */
export type Stamp = { id: string; micros: number; pinnedTimestamp?: number };

/** How far the script clock jumps before an event: an LLM call's latency, a streamed chunk's gap, a tool's run. */
export type Pace = 'llm' | 'chunk' | 'tool';

/** What the renderer lends a dialect while it renders one step. */
export type TurnEnv = {
  invocationId: string;
  streaming: boolean;
  /** Draw the next event's id and time; the event is written after waiting `waitMs`. */
  stamp: (waitMs: number, pace: Pace) => Stamp;
};

/** A function call with its id resolved (pinned by the scenario or drawn). */
export type ResolvedCall = { name: string; args: Record<string, unknown>; id: string };

/**
 * One model step made ready for a dialect: text split into stream chunks, usage filled in, call
 * ids resolved. Both dialects render the same PreparedTurn, so they agree on content.
 */
export type PreparedTurn = {
  stepIndex: number;
  author: string;
  thought: string | undefined;
  text: string | undefined;
  /** The streaming split of `text` (joins back to it); empty when there is no text. */
  textChunks: string[];
  calls: ResolvedCall[];
  finishReason: string;
  /** Usage of the whole turn (what the aggregated/final event carries). */
  usage: UsageInput;
  /** Running usage after `chars` characters of output, for adk-js partial chunks. */
  runningUsage: (chars: number) => UsageInput;
  stateDelta: Record<string, unknown>;
  artifactDelta: Record<string, number>;
  longRunningToolIds: string[];
  truncate: boolean;
  /** Streaming: the last text chunk came in the model chunk that carries the calls (adk-docs PR #2076). */
  callsWithLastChunk: boolean;
  /**
   * The calls as the partial function-call previews carry them: the same calls under fresh ids
   * (adk-python 1.22 to 2.4, #4609 / #5064), or `calls` itself when the server keeps its ids.
   */
  previewCalls: ResolvedCall[];
  /** The model reported no token usage for this turn: no event of the turn carries usageMetadata (adk-js #645). */
  usageMissing: boolean;
  delayMs: number;
  chunkDelayMs: number;
};

/** One event as a dialect built it: a JSON object whose key order is the wire order. */
export type EmittedEvent = { json: Record<string, unknown>; waitMs: number };

export type TurnOutput = {
  events: EmittedEvent[];
  /**
   * Events the server writes only after the tool round that answers this turn (adk-js: the
   * aggregator's metadata-only event). Built lazily so ids and time are drawn in emission order.
   */
  afterTools?: (env: TurnEnv) => EmittedEvent[];
};

export type SessionView = {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  /** The stored events, as the exact JSON texts the stream carried (keeps Python floats intact). */
  events?: string[];
  /** Epoch milliseconds of the last update. */
  lastUpdateTime: number;
};

export type DialectSpec = {
  name: Dialect;
  /** Response headers of `/run_sse`, in wire order. */
  sseHeaders: () => Array<[string, string]>;
  /** A fresh event id (adk-js: 8 alphanumerics; Python: uuid4). */
  newEventId: (rng: Rng) => string;
  /** The event's `timestamp` value in this dialect's unit. */
  timestamp: (stamp: Stamp) => unknown;
  /** Serialise an event (or any value) the way this server serialises events. */
  stringify: (value: unknown) => string;

  modelTurn: (turn: PreparedTurn, env: TurnEnv) => TurnOutput;
  toolsEvent: (step: ToolsStepInput, calls: ResolvedCall[], env: TurnEnv) => EmittedEvent[];
  modelErrorEvent: (step: ModelErrorStepInput, env: TurnEnv) => EmittedEvent[];
  /** The `data:` payload of an in-stream error frame (`errorFrame` step); `timestampSeconds` feeds Gen D's `error_details`. */
  errorFrameData: (step: ErrorFrameStepInput, timestampSeconds: number) => string;
  /** The SSE `event:` name written before an error frame's `data:` line (adk-go: `error`); absent means none. */
  errorFrameEvent?: string;
  /**
   * Whether the agent that transferred runs again once its sub-agent's run is over. `false`: the
   * run ends there, and a later step by that agent is never reached (adk-js without streaming).
   * Absent: every scripted step is rendered.
   */
  reinvokesAfterTransfer?: (streaming: boolean) => boolean;

  /**
   * Where this server's HTTP stack puts headers a scripted `http` answer adds or overrides (absent:
   * overrides in place, additions last). adk-go: net/http's order.
   */
  orderHeaders?: (headers: Array<[string, string]>) => Array<[string, string]>;
  /** A JSON answer with this server's JSON headers. */
  json: (status: number, value: unknown) => HttpAnswer;
  /** `/run_sse` (route `run`), `GET`/`DELETE` session (routes `get`, `delete`) for a session that does not exist. */
  sessionNotFound: (sessionId: string, route?: 'run' | 'get' | 'delete') => HttpAnswer;
  session: (session: SessionView) => HttpAnswer;
  sessionExists: (sessionId: string) => HttpAnswer;
  listSessions: (sessions: SessionView[]) => HttpAnswer;
  deleteSession: () => HttpAnswer;
  /** The answer to a request whose JSON body does not parse (`rawBody` as received). */
  malformedJson: (rawBody: string) => HttpAnswer;
  notFound: (method: string, path: string) => HttpAnswer;
  /** A known path asked with a method it does not serve (Express: the 404 page; Starlette: 405 with `allow`). */
  methodNotAllowed: (method: string, path: string, allowed: string[]) => HttpAnswer;
  health: () => HttpAnswer;
  version: () => HttpAnswer;
  listApps: (appNames: string[]) => HttpAnswer;
  /** `POST /run`: the JSON array of the events (their exact texts). */
  runResult: (eventTexts: string[]) => HttpAnswer;
};
