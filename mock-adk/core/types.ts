/**
 * The contracts between the mock's parts. Data flows one way:
 *   scenario --render(dialect)--> ReplayPlan --applyFaults--> ReplayPlan --replay--> bytes on a socket / a Response
 * Nothing in mock-adk/core imports fastify, msw or node:http: the shells (server/, msw/) adapt it.
 */
import type { Scenario } from '../../schemas/types.ts';

/**
 * The dialects the mock renders, by internal key. `adk-js` and `adk-python` keep their short keys
 * (every scenario of the corpus names them); they are adk-js 2.0 and adk-python Gen C. The
 * versioned names users see and may write are in dialects/names.ts.
 */
export type Dialect = 'adk-js' | 'adk-js@1.4-1.6' | 'adk-python' | 'adk-python@2.x' | 'adk-go@2.0.0';

/** Any name a caller may pass: an internal key, or the versioned name of adk-js / adk-python Gen C. */
export type DialectName = Dialect | 'adk-js@2.0' | 'adk-python@1.x-genC';

/** One write to the response body, after an optional wait. An empty chunk is a pure wait (e.g. silence before EOF). */
export type PlanChunk = {
  bytes: Uint8Array;
  /** Milliseconds to wait before writing this chunk. */
  delayMs: number;
  /** For reports and tests: which rendered frame this chunk belongs to (-1 for none). */
  frame: number;
};

/** What the server does after the last chunk. */
export type PlanEnd = 'eof' | 'hold-open' | 'reset';

/** Everything needed to reproduce one HTTP response exactly. */
export type ReplayPlan = {
  status: number;
  /** Header name/value pairs in wire order (the shells add nothing but what HTTP itself requires). */
  headers: Array<[string, string]>;
  chunks: PlanChunk[];
  end: PlanEnd;
  /** The JSON payloads of the rendered frames, in order (events, error frames), for expectations and the harness. */
  frames: RenderedFrame[];
  /** Milliseconds to wait before writing the status line and headers (the `delay-headers` fault); absent means 0. */
  headersDelayMs?: number;
};

export type RenderedFrame = {
  /** The exact `data:` payload text. */
  data: string;
  kind: 'event' | 'error' | 'raw';
  /** Parsed payload, when it is JSON. */
  json?: unknown;
  /** The `event:` field, for streams that name their events (the Anthropic Messages stream). */
  event?: string;
};

/** Per-request facts the renderer needs: names from the request, and the seed for ids. */
export type RenderContext = {
  /** Resolved by render() (a versioned name renders as its internal key). */
  dialect: DialectName;
  streaming: boolean;
  appName: string;
  userId: string;
  sessionId: string;
  /** Deterministic ids and timestamps derive from this (default: scenario id + session id). */
  seed?: string;
  /** /run_sse_enhanced: inject `_audit_metadata` and end with `data: [DONE]` (seed 000 §2.2B). */
  enhanced?: boolean;
};

export type RenderFn = (scenario: Scenario, ctx: RenderContext) => ReplayPlan;

/**
 * A header value the shells replace with the current HTTP date (`new Date().toUTCString()`) when they
 * write the response. Plans stay deterministic; the header keeps its wire position (uvicorn sends
 * `date` first, Express after `Connection`). Node's http then appends only what HTTP requires of it:
 * `Transfer-Encoding: chunked` for a body without Content-Length.
 */
export const HTTP_DATE = '{{http-date}}';

/** A plain (non-stream) HTTP answer of one dialect, exactly as that server writes it. */
export type HttpAnswer = {
  status: number;
  /** Header name/value pairs in wire order; a value equal to HTTP_DATE is filled by the shell. */
  headers: Array<[string, string]>;
  body: string;
};
