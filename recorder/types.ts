/**
 * What the recorder works on: one captured HTTP exchange (what a client sent, and every byte the
 * server answered with the moment it arrived), independent of how it was captured (the `record`
 * command's own client, or the mock's recording proxy).
 */
import type { Dialect } from '../mock-adk/core/types.ts';

/** One read from the response socket, as it arrived. */
export type CapturedChunk = {
  bytes: Uint8Array;
  /** Milliseconds after the response head arrived. */
  atMs: number;
};

export type CapturedResponse = {
  status: number;
  /** Header name/value pairs in wire order and spelling (Node's `rawHeaders`, paired). */
  headers: Array<[string, string]>;
  chunks: CapturedChunk[];
  /**
   * eof: the server ended the body; reset: the connection broke before the end; hold-open: the
   * recorder stopped waiting after an idle bound while the server still held the stream open.
   */
  end: 'eof' | 'reset' | 'hold-open';
  /** When the body ended (or the recorder stopped waiting), in the same clock as `atMs`. */
  endAtMs?: number;
};

export type CapturedRequest = {
  endpoint: '/run_sse' | '/run_sse_enhanced';
  appName: string;
  userId: string;
  sessionId: string;
  message: string;
  streaming: boolean;
  /** The session's initial state, when the recorder saw it created. */
  sessionState?: Record<string, unknown>;
};

export type CapturedExchange = {
  request: CapturedRequest;
  response: CapturedResponse;
  /** Where it was recorded from (origin only: credentials and query strings never land in a file). */
  upstream: string;
  /** ISO time of the recording. */
  recordedAt: string;
};

export type DialectEvidence = {
  dialect: Dialect;
  /** integer-ms (adk-js), float-seconds (adk-python), or none when no event carried a timestamp. */
  timestamps: 'integer-ms' | 'float-seconds' | 'mixed' | 'none';
  /** 8-char (adk-js), uuid (adk-python), other or none. */
  ids: '8-char' | 'uuid' | 'mixed' | 'other' | 'none';
  /** What the response headers say (X-Powered-By: Express, server: uvicorn), if anything. */
  server: 'express' | 'uvicorn' | 'go' | 'unknown';
  /** One sentence for the scenario's `replays` field. */
  summary: string;
};
