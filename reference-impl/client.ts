/**
 * The reference POST SSE client (seed 004 "POST SSE Client": "Use `fetch` + `ReadableStream`
 * (standard EventSource doesn't support POST)"). It reads the body with core/sse.ts, so framing is
 * WHATWG-exact (CR, LF, CRLF, BOM, comments, multi-line data), and ends the run by the rules of
 * completion.ts. Pure: global fetch only, no node:http.
 */
import { createSseReader, type SseFrame, type SseReader, type SseReaderConfig } from '../core/sse.ts';
import { createCompletionDetector, type CompletionConfig, type CompletionDecision } from './completion.ts';
import { classifyData, type ClientFrame } from './transformer/frames.ts';

export type RunClientConfig = CompletionConfig & {
  /** Origin (and optional path prefix) of the ADK server or gateway, e.g. `http://127.0.0.1:8000`. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Extra request headers (Authorization, X-CSRF-Token, ...). */
  headers?: Record<string, string>;
  /** The streaming endpoint (default `/run_sse`; `/run_sse_enhanced` for seed 000's stream). */
  path?: string;
  /** Most bytes of a non-200 body kept for the http-error end (default 64 KiB). */
  maxErrorBodyBytes?: number;
  /**
   * The SSE reader (default core/sse.ts's). A seam for the kit's client mutants, which swap in a
   * reader with one framing defect (harness/mutants/client); nothing else needs it.
   */
  createReader?: (config: SseReaderConfig) => SseReader;
};

/** The `/run_sse` body (seed 004 "Request Format"); sent as given, field order included. */
export type RunRequest = Record<string, unknown>;

export type RunClient = {
  run: (request: RunRequest, options?: { signal?: AbortSignal }) => AsyncIterable<ClientFrame>;
};

export function createRunClient(config: RunClientConfig): RunClient {
  let url: URL;
  try {
    url = new URL((config.path ?? '/run_sse').replace(/^\/?/, ''), config.baseUrl.endsWith('/') ? config.baseUrl : `${config.baseUrl}/`);
  } catch {
    throw new TypeError(`createRunClient: baseUrl must be an absolute http(s) URL such as 'http://127.0.0.1:8000', got ${JSON.stringify(config.baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`createRunClient: baseUrl must use http or https, got '${url.protocol}'`);
  const fetchImpl = config.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('createRunClient: no fetch available; pass config.fetch');
  // Validate the windows now, not on the first run.
  createCompletionDetector(config);
  const maxErrorBodyBytes = config.maxErrorBodyBytes ?? 65_536;

  async function* run(request: RunRequest, options: { signal?: AbortSignal } = {}): AsyncGenerator<ClientFrame> {
    const outer = options.signal;
    if (outer?.aborted) { yield { kind: 'end', reason: 'aborted', message: 'aborted before the request was sent' }; return; }
    const controller = new AbortController();
    const onAbort = () => controller.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    // The body read to its end: nothing is left to tear down (an abort then only costs an AbortError).
    let drained = false;
    try {
      let response: Response;
      try {
        response = await fetchImpl(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...config.headers },
          body: JSON.stringify(request),
          signal: controller.signal,
        });
      } catch (error) {
        yield outer?.aborted ? { kind: 'end', reason: 'aborted', message: 'aborted while connecting' } : { kind: 'end', reason: 'network-error', message: describe(error) };
        return;
      }
      // Seed 004 "HTTP Status Errors": a non-200 answer is not a stream (ADK's 404 session JSON, 422, 501).
      if (response.status !== 200) {
        yield { kind: 'end', reason: 'http-error', status: response.status, body: await readText(response, maxErrorBodyBytes) };
        return;
      }
      const contentType = response.headers.get('content-type') ?? '';
      if (!/^text\/event-stream\b/i.test(contentType)) {
        yield { kind: 'issue', issue: { kind: 'content-type', offset: 0, message: `expected Content-Type text/event-stream, got '${contentType}'; reading the body as SSE anyway` } };
      }
      if (!response.body) { yield { kind: 'end', reason: 'eof' }; return; }
      reader = response.body.getReader();
      drained = yield* readFrames(reader, controller, outer);
    } finally {
      outer?.removeEventListener('abort', onAbort);
      // A consumer that stops early (break) or a terminal decision must not leave the socket open.
      if (!drained) {
        if (!controller.signal.aborted) controller.abort();
        reader?.cancel().catch(() => {});
      }
    }
  }

  /** Returns true when the body was read to its end (EOF), false when the run ended before it. */
  async function* readFrames(reader: ReadableStreamDefaultReader<Uint8Array>, controller: AbortController, outer: AbortSignal | undefined): AsyncGenerator<ClientFrame, boolean> {
    const detector = createCompletionDetector(config);
    const queue: ClientFrame[] = [];
    const sse = (config.createReader ?? createSseReader)({
      // The event name and id ride along: adk-go names its error frame `event: error`.
      onFrame: (frame: SseFrame) => queue.push({ ...classifyData(frame.data), ...(frame.event !== undefined || frame.id !== undefined ? { sse: { ...(frame.event !== undefined ? { event: frame.event } : {}), ...(frame.id !== undefined ? { id: frame.id } : {}) } } : {}) }),
      onIssue: (issue) => queue.push({ kind: 'issue', issue }),
    });
    let decision: CompletionDecision = detector.start();
    for (;;) {
      const waitMs = decision.done ? 0 : decision.waitMs;
      const next = await readWithin(reader, waitMs);
      if (next.kind === 'timeout') {
        const d = detector.timeout();
        yield { kind: 'end', reason: d.done ? d.reason : 'idle', message: `no frame for ${waitMs} ms` };
        return false;
      }
      if (next.kind === 'failed') {
        yield outer?.aborted || controller.signal.aborted ? { kind: 'end', reason: 'aborted' } : { kind: 'end', reason: 'network-error', message: describe(next.error) };
        return false;
      }
      if (next.kind === 'eof') sse.end(); else sse.feed(next.bytes);
      while (queue.length > 0) {
        const frame = queue.shift() as ClientFrame;
        yield frame;
        decision = detector.feed(frame);
        if (decision.done) { yield { kind: 'end', reason: decision.reason }; return next.kind === 'eof'; }
      }
      if (next.kind === 'eof') { yield { kind: 'end', reason: 'eof' }; return true; }
    }
  }

  return { run };
}

type ReadResult = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'eof' } | { kind: 'timeout' } | { kind: 'failed'; error: unknown };

async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, waitMs: number): Promise<ReadResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const read = reader.read().then(
    (r): ReadResult => (r.done ? { kind: 'eof' } : { kind: 'bytes', bytes: r.value }),
    (error: unknown): ReadResult => ({ kind: 'failed', error }),
  );
  const timeout = new Promise<ReadResult>((resolve) => { timer = setTimeout(() => resolve({ kind: 'timeout' }), waitMs); });
  try {
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function readText(response: Response, maxBytes: number): Promise<string> {
  try {
    const bytes = new Uint8Array(await response.arrayBuffer());
    return new TextDecoder().decode(bytes.subarray(0, maxBytes));
  } catch (error) {
    return `(the body could not be read: ${describe(error)})`;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}
