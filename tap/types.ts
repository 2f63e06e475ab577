/**
 * The tap's data and its plugin interface. The core (tap/core.ts) judges each run as its bytes
 * pass and tells observers what it saw; everything else the tap does (the bounded report, the
 * failing-run scenarios, and later `--pair`, `--otlp`, `--ui`, `--transform`) is an observer, so
 * a new output never changes the core. Nothing here does I/O.
 */
import type { Finding } from '../harness/model.ts';
import type { SseFrame } from '../core/sse.ts';

/** What the upstream behind the tap is: it decides which requirements a run is judged against. */
export type UpstreamRole = 'adk' | 'gateway';

/** The dialect a stream's events were detected as (per event: its timestamp; then headers). */
export type StreamDialect = 'adk-js' | 'adk-python' | 'adk-go' | 'unknown';

export type TapLimits = {
  /** An event longer than this is forwarded but not parsed or judged (memory stays bounded). */
  maxFrameBytes: number;
  /** A request body longer than this is forwarded but not judged. */
  maxRequestBytes: number;
  /** Silence allowed after the final answer or a terminal frame before the stream counts as held open. */
  holdOpenMs: number;
  /** Findings one run keeps (the rest are counted). */
  maxFindingsPerRun: number;
};

export const defaultLimits: TapLimits = { maxFrameBytes: 1024 * 1024, maxRequestBytes: 1024 * 1024, holdOpenMs: 5000, maxFindingsPerRun: 50 };

/** One request through the tap. `kind: 'run'` is POST /run_sse or /run_sse_enhanced; the rest are forwarded and judged only for transport. */
export type TapRun = {
  /** 1, 2, 3... in arrival order, over every request (a key that is unique within one tap). */
  seq: number;
  /** 1, 2, 3... among the requests of its kind: the first run is run 1 whatever requests came before it (set by the tap core; a TapRun built elsewhere may have none). */
  ordinal?: number;
  /** `tap-run-0001` for a run, `tap-request-0001` for another request: the scenario name reports use. */
  name: string;
  kind: 'run' | 'other';
  method: string;
  /** Path and query, as the client sent them. */
  url: string;
  startedAt: string;
  /** The client's header pairs in wire order (credentials included: observers that write must redact, see tap/save-failing.ts). */
  requestHeaders: ReadonlyArray<readonly [string, string]>;
  /** Set once the upstream answered. */
  response?: { status: number; headers: ReadonlyArray<readonly [string, string]> };
  dialect: StreamDialect;
  /**
   * The server and version its events show, named as the mock's `--dialect` names them: "adk-js@2.0
   * or adk-js@1.4-1.6" (their events are alike), adk-python@1.x-genC, adk-python@2.x (every event carries ADK 2.x's nodeInfo), adk-go@2.0.0.
   * Set with the first event.
   */
  server?: string;
};

/** One dispatched SSE event, classified. */
export type TapFrame = SseFrame & {
  /** 0-based among the run's dispatched events. */
  index: number;
  kind: 'event' | 'error-line' | 'gateway-error' | 'done' | 'invalid';
  /** The parsed payload, when it was JSON. */
  json?: unknown;
};

/**
 * How a run's exchange ended. eof: the upstream ended the body; upstream-cut: the upstream broke
 * the connection mid-body; client-closed: the client left first (the tap then closed the upstream);
 * upstream-failed: no HTTP response at all (refused, not HTTP); stopped: the tap shut down mid-run.
 */
export type RunEnding = 'eof' | 'upstream-cut' | 'client-closed' | 'upstream-failed' | 'stopped';

export type TapRunSummary = {
  ending: RunEnding;
  status?: number;
  frames: number;
  bytes: number;
  durationMs: number;
  /** Requirements this run exercised (judged), each with the findings it kept. */
  judged: ReadonlyMap<string, Finding[]>;
  /** Findings beyond limits.maxFindingsPerRun, counted and not kept. */
  droppedFindings: number;
  failed: boolean;
  /** The upstream's error when there was one (refused, not HTTP, reset). */
  error?: string;
};

/**
 * A plugin. Every callback runs after the bytes it concerns were forwarded; an observer that
 * throws is reported on stderr by the shell and never stops the bytes or the other observers.
 */
export type TapObserver = {
  onRunStart?: (run: TapRun) => void;
  /** The request body (as far as it was kept) once the client finished sending it. */
  onRequestBody?: (run: TapRun, body: Uint8Array, truncated: boolean) => void;
  /** The upstream's status line and headers, already forwarded. */
  onResponseHead?: (run: TapRun) => void;
  /** One body chunk exactly as it was forwarded, with its arrival time (ms since the response head). */
  onChunk?: (run: TapRun, chunk: Uint8Array, atMs: number) => void;
  /** One dispatched event and the findings judged on it. */
  onFrame?: (run: TapRun, frame: TapFrame, findings: readonly Finding[]) => void;
  /** Findings not tied to one event (headers, the request, framing, the end). */
  onFindings?: (run: TapRun, findings: readonly Finding[]) => void;
  onRunEnd?: (run: TapRun, summary: TapRunSummary) => void;
  /** The tap stops: flush and release (write reports, close exporters). */
  close?: () => void | Promise<void>;
};

/**
 * One judge: a set of requirements and the functions that judge them. The core calls each inside
 * its own try/catch, so a judge that throws becomes a `judge-error` finding and the bytes flow on.
 */
export type Judge = {
  name: string;
  /** The requirement a judging error is reported under. */
  requirement: string;
  frame?: (ctx: JudgeContext, frame: TapFrame) => Finding[];
  end?: (ctx: JudgeContext, ending: RunEnding) => Finding[];
};

/** What a judge may read about the run so far. */
export type JudgeContext = {
  run: TapRun;
  role: UpstreamRole;
  /** Frames so far, by kind, and the last one. */
  counts: Record<TapFrame['kind'], number>;
  last?: TapFrame | undefined;
};
