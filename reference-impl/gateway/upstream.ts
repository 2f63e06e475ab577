/**
 * One streaming POST to the ADK server, as seed 004's inline generator does it:
 *   `async with client.stream("POST", "http://127.0.0.1:8080/run_sse", json=...) as upstream:`
 * Bytes go to the sink as each chunk arrives (no buffering, no re-chunking), honouring the
 * sink's backpressure; the promise settles with how the exchange ended. It never rejects: every
 * failure is an outcome, and the caller decides which frame (if any) the client gets.
 */
import http from 'node:http';
import https from 'node:https';
import { upstreamDetail } from './error-frames.ts';

export type UpstreamOutcome =
  | { kind: 'eof' }
  | { kind: 'status'; status: number; detail: string }
  | { kind: 'timeout' }
  | { kind: 'stream-error'; message: string }
  | { kind: 'aborted' };

export type UpstreamSink = {
  /** A chunk of a 2xx body. Return false to pause the upstream until `onceDrain` calls back. */
  write: (chunk: Buffer) => boolean;
  onceDrain: (resume: () => void) => void;
};

export type UpstreamRequest = {
  url: string;
  /** The exact JSON text sent upstream. */
  body: string;
  /** Total time for the whole exchange (seed 004: "300s timeout with no read timeout"). */
  timeoutMs: number;
  /** Aborted when the client leaves: the upstream request is torn down at once. */
  signal?: AbortSignal | undefined;
  agents?: { http: http.Agent; https: https.Agent } | undefined;
  /** Called when the upstream request opens and when it is finished, however it ends (for the stream counters). */
  onOpen?: () => void;
  onClose?: (outcome: UpstreamOutcome) => void;
};

/** Error bodies are read up to this size for the status frame's detail; the rest is dropped. */
const ERROR_BODY_LIMIT = 64 * 1024;

export function streamUpstream(request: UpstreamRequest, sink: UpstreamSink): Promise<UpstreamOutcome> {
  return new Promise((resolve) => {
    const controller = new AbortController();
    let settled = false;

    const finish = (outcome: UpstreamOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onClientAbort);
      // A finished response lets its socket close by itself; anything else tears it down at once.
      if (outcome.kind !== 'eof' && outcome.kind !== 'status') controller.abort();
      request.onClose?.(outcome);
      resolve(outcome);
    };

    // Seed 004: "Connection closes when: ... Timeout (300s) reached".
    const timer = setTimeout(() => finish({ kind: 'timeout' }), request.timeoutMs);
    // Seed 004: "Connection closes when: ... Client disconnects".
    const onClientAbort = (): void => finish({ kind: 'aborted' });
    if (request.signal?.aborted) {
      clearTimeout(timer);
      resolve({ kind: 'aborted' });
      return;
    }
    request.signal?.addEventListener('abort', onClientAbort, { once: true });

    const url = new URL(request.url);
    const isHttps = url.protocol === 'https:';
    const send = isHttps ? https.request : http.request;
    const agent = isHttps ? request.agents?.https : request.agents?.http;
    request.onOpen?.();
    const req = send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': Buffer.byteLength(request.body) },
      signal: controller.signal,
      ...(agent ? { agent } : {}),
    }, (res) => {
      const status = res.statusCode ?? 0;
      // Seed 004 § HTTP Status Errors (4xx, 5xx): `upstream.raise_for_status()` becomes the status frame.
      if (status >= 400 && status <= 599) {
        readErrorBody(res, (text) => finish({ kind: 'status', status, detail: upstreamDetail(status, text, res.headers['content-type']) }));
        return;
      }
      // Anything else that is not 2xx (a redirect, an odd status) is no stream and no 4xx/5xx either.
      if (status < 200 || status > 299) {
        res.resume();
        finish({ kind: 'stream-error', message: `ADK upstream answered HTTP ${status}, not a 2xx stream` });
        return;
      }
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (!sink.write(chunk)) {
          res.pause();
          sink.onceDrain(() => { if (!settled) res.resume(); });
        }
      });
      res.on('end', () => finish({ kind: 'eof' }));
      res.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'stream-error', message: `ADK upstream stream broken: ${describe(error)}` }));
      res.on('close', () => {
        if (!res.complete) finish({ kind: 'stream-error', message: 'ADK upstream stream broken: the connection closed before the response ended' });
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'stream-error', message: `ADK upstream connection failed: ${describe(error)}` }));
    req.end(request.body);
  });
}

function readErrorBody(res: http.IncomingMessage, done: (text: string) => void): void {
  const parts: Buffer[] = [];
  let size = 0;
  let called = false;
  const complete = (): void => {
    if (called) return;
    called = true;
    done(Buffer.concat(parts).toString('utf8'));
  };
  res.on('data', (chunk: Buffer) => {
    if (size >= ERROR_BODY_LIMIT) return;
    parts.push(chunk.subarray(0, ERROR_BODY_LIMIT - size));
    size += chunk.length;
  });
  // A broken error body still yields the status frame with what arrived: the status is what matters.
  res.on('end', complete);
  res.on('error', complete);
  res.on('close', complete);
}

function describe(error: NodeJS.ErrnoException): string {
  return error.code && !error.message.includes(error.code) ? `${error.message} (${error.code})` : error.message;
}
