/**
 * Client mutants are the reference client module (harness/targets/client/reference.ts) with one
 * deliberate defect where real clients get it wrong: in the SSE reader (a hand-written reader with
 * one defect, hand-reader.ts), in the request it sends (a fetch wrapper), or in what it reports
 * (a record rewrite). Each mutant module is one line calling `clientMutant(id)`.
 */
import { createReferenceClient, type ReferenceClientHooks } from '../../targets/client/reference.ts';
import type { ClientFactory } from '../../targets/client/drive.ts';
import { endRecord, type EndRecord, type EventRecord } from '../../checks/client/expected.ts';
import { createHandReader, type ReaderDefect, type ReaderVariant } from './hand-reader.ts';
import { createSseReader, type SseReader, type SseReaderConfig } from '../../../core/sse.ts';
import { classifyData } from '../../../reference-impl/transformer/frames.ts';

type Rewrite = (record: EventRecord | EndRecord) => EventRecord | EndRecord | null;
type RequestEdit = (headers: Headers, body: Record<string, unknown>) => void;
type Mutation = { reader?: ReaderDefect; variant?: ReaderVariant; record?: Rewrite; request?: RequestEdit; ignoresWindows?: true; readsPastError?: true; reposts?: true; anyAuthorsAnswer?: true; sharedReader?: true };

const isEnd = (r: EventRecord | EndRecord): r is EndRecord => 'end' in r;
const endAs = (from: EndRecord['end'], to: EndRecord['end']): Rewrite => (r) => (isEnd(r) && r.end === from ? endRecord(to) : r);

// Every record every client of this module ever reported, never cleared (client-keeps-every-run):
// the log an app keeps "for debugging" that grows with every run of its life.
const everyRecord: Array<EventRecord | EndRecord> = [];

export const clientMutations: Record<string, Mutation> = {
  'client-keeps-every-run': { record: (r) => { everyRecord.push(structuredClone(r)); return r; } },
  'client-naive-double-newline-split': { reader: 'naiveSplit' },
  'client-decodes-without-stream': { reader: 'noStreamDecode' },
  'client-flushes-unfinished-event': { reader: 'flushAtEof' },
  'client-keeps-leading-space': { reader: 'keepSpace' },
  'client-ignores-cr': { reader: 'ignoreCr' },
  'client-drops-event-field': { reader: 'dropEvent' },
  'client-drops-id-field': { reader: 'dropId' },
  'client-splits-at-unicode-line-breaks': { reader: 'unicodeLineBreaks' },
  'client-dispatches-blank-lines': { reader: 'blankDispatchesEmpty' },
  'client-keeps-bom': { reader: 'keepBom' },
  'client-drops-invalid-bytes': { reader: 'dropInvalid' },
  'client-joins-data-lines-without-lf': { reader: 'joinWithoutLf' },
  'client-one-mib-line-limit': { reader: 'lineLimit' },
  'client-cr-at-chunk-end-ends-line': { reader: 'noCrHold' },
  'client-dispatches-retry-blocks': { reader: 'retryDispatches' },
  'client-reserializes-json': { record: (r) => { if (isEnd(r)) return r; try { return { ...r, data: JSON.stringify(JSON.parse(r.data)) }; } catch { return r; } } },
  'client-ignores-done-sentinel': { record: endAs('done-sentinel', 'eof') },
  'client-error-frame-not-terminal': { record: endAs('error-frame', 'eof') },
  'client-reports-cut-as-eof': { record: endAs('cut', 'eof') },
  'client-no-end-record': { record: (r) => (isEnd(r) ? null : r) },
  'client-without-accept-header': { request: (headers) => headers.delete('accept') },
  'client-sends-role-model': { request: (_headers, body) => { (body.newMessage as Record<string, unknown>).role = 'model'; } },
  'client-sends-snake-case': { request: snakeCase },
  'client-waits-for-eof': { ignoresWindows: true },
  'client-reads-past-error-frame': { readsPastError: true, record: (r) => (!isEnd(r) && r.data.startsWith(hidden) ? { ...r, data: r.data.slice(hidden.length) } : r) },
  'client-drops-http-error-text': { record: (r) => { if (!isEnd(r) || r.end !== 'http-error') return r; const { error: _dropped, ...rest } = r; return rest; } },
  'client-strips-every-bom': { reader: 'stripEveryBom' },
  'client-comment-resets-event': { reader: 'commentResetsEvent' },
  'client-reposts-run': { reposts: true },
  'client-ends-at-any-agents-answer': { anyAuthorsAnswer: true },
  'client-decoder-shared-across-runs': { sharedReader: true },
  'client-sends-state-key': { request: (_headers, body) => { body.state = body.stateDelta ?? {}; delete body.stateDelta; } },
};

/**
 * `client-reads-past-error-frame`: an error frame is handed on with this mark in front, so the
 * completion rule takes it for an unreadable payload and reads on; the record drops the mark again.
 * So the client reports the error frame, then every later event, and ends at EOF as a completed run.
 */
const hidden = '\u0001';
const isErrorData = (data: string): boolean => classifyData(data).kind === 'error';
const readsPastError = (config: SseReaderConfig): SseReader => createSseReader({ ...config, onFrame: (f) => config.onFrame(isErrorData(f.data) ? { ...f, data: hidden + f.data } : f) });

/**
 * `client-ends-at-any-agents-answer`: the completion rule sees every event under one author, so any
 * agent's final answer gets the root's short grace. The records carry the data as received: each
 * rewritten event carries its frame's original text in a key of its own, which its record takes back.
 * Nothing is kept between frames, so runs open at once on one client object do not mix (it fails
 * CLI-END-001 only, not CLI-ISO-001).
 */
const originalKey = 'adk-conformance:original';
function anyAuthorsAnswer(): Pick<ReferenceClientHooks, 'record'> & { createReader: (config: SseReaderConfig) => SseReader } {
  const oneAuthor = (data: string): string => {
    try {
      const v = JSON.parse(data) as unknown;
      if (typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Record<string, unknown>).author === 'string') return JSON.stringify({ ...v, author: 'root', [originalKey]: data });
    } catch { /* not JSON: as it is */ }
    return data;
  };
  const original = (data: string): string => {
    if (!data.includes(originalKey)) return data;
    try {
      const v = JSON.parse(data) as Record<string, unknown>;
      return typeof v[originalKey] === 'string' ? v[originalKey] : data;
    } catch {
      return data;
    }
  };
  return {
    createReader: (config) => createSseReader({ ...config, onFrame: (f) => config.onFrame({ ...f, data: oneAuthor(f.data) }) }),
    record: (r) => (isEnd(r) ? r : { ...r, data: original(r.data) }),
  };
}

/**
 * `client-decoder-shared-across-runs`: the client object keeps one reader (its TextDecoder, line
 * buffer and event fields) for every run, as a class with `this.decoder` and `this.buffer` does.
 * Each run's frames go to that run's handler and EOF is read as usual, but nothing is reset between
 * runs: a stream cut mid-line or inside a UTF-8 sequence, or one that ended inside an event, spoils
 * the next stream's first event, and runs open at once read into one buffer. A client used once
 * (a fresh instance per run) reads every stream as the defect-free hand reader does.
 */
function sharedReader(): (config: SseReaderConfig) => SseReader {
  let current: SseReaderConfig | undefined;
  let shared: SseReader | undefined;
  return (config) => {
    current = config;
    shared ??= createHandReader({ onFrame: (f) => current?.onFrame(f), onIssue: (i) => current?.onIssue?.(i) });
    const reader = shared;
    return { feed: (chunk) => reader.feed(chunk), end: () => reader.end(), reset: () => {} };
  };
}

/**
 * `client-reposts-run`: once the first stream's headers arrive, the run is POSTed again (a retry
 * on a slow first byte) and that answer dropped, while the first stream is read on, never aborted.
 * The first body is taken in as it arrives while the retry is under way (a cut loses nothing that
 * came before it), and handed on once the retry was answered, so the server has both POSTs before
 * the run can end.
 */
function repostingFetch(): typeof fetch {
  return async (input, init) => {
    const first = await fetch(input, init);
    const { signal: _own, ...again } = init ?? {};
    const retry = fetch(input, again).then((r) => r.body?.cancel()).catch(() => {});
    if (!first.body) { await retry; return first; }
    const source = first.body.getReader();
    const chunks: Uint8Array[] = [];
    let ended = false;
    let failed: unknown;
    let wake: (() => void) | undefined;
    void (async () => {
      try {
        for (;;) { const r = await source.read(); if (r.done) break; chunks.push(r.value); wake?.(); }
        ended = true;
      } catch (error) { failed = error ?? new Error('the connection broke'); }
      wake?.();
    })();
    await retry;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        while (chunks.length === 0 && !ended && failed === undefined) await new Promise<void>((resolve) => { wake = resolve; });
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else if (failed !== undefined) controller.error(failed);
        else controller.close();
      },
      cancel: (reason) => source.cancel(reason),
    });
    return new Response(body, { status: first.status, statusText: first.statusText, headers: first.headers });
  };
}

const snakeKeys: Record<string, string> = { appName: 'app_name', userId: 'user_id', sessionId: 'session_id', newMessage: 'new_message', stateDelta: 'state_delta' };

/** adk-python's spelling of the run request (seed 004 "Python Model": `populate_by_name=True`). */
function snakeCase(_headers: Headers, body: Record<string, unknown>): void {
  for (const [camel, snake] of Object.entries(snakeKeys)) {
    if (!(camel in body)) continue;
    body[snake] = body[camel];
    delete body[camel];
  }
}

/**
 * Clients that do what the seeds and the servers allow, each a way real clients differ from the
 * reference: every one must be certified as the reference is (harness/mutants/client/suite.ts).
 * snake_case is allowed by adk-python only, so that client is certified under a profile naming it.
 */
export const allowedClientVariants: Record<string, Mutation> = {
  'client-allowed-last-event-id': { reader: undefined, variant: { lastEventId: true } },
  'client-allowed-streaming-always': { request: (_headers, body) => { body.streaming = true; } },
  'client-allowed-no-streaming-key': { request: (_headers, body) => { delete body.streaming; } },
  'client-allowed-snake-case': { request: snakeCase },
  'client-allowed-omits-done-record': { record: (r) => (!isEnd(r) && r.data.trim() === '[DONE]' ? null : r) },
};

function requestFetch(edit: RequestEdit): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    edit(headers, body);
    return fetch(input, { ...init, headers, body: JSON.stringify(body) });
  };
}

export function clientMutant(id: string): ClientFactory {
  const m = clientMutations[id] ?? allowedClientVariants[id];
  if (!m) throw new Error(`unknown client mutant ${id}`);
  // Built per client: `client-ends-at-any-agents-answer` keeps per-run state in its hooks.
  const hooksFor = (): ReferenceClientHooks => {
    const one = m.anyAuthorsAnswer ? anyAuthorsAnswer() : undefined;
    return {
      config: {
        ...(m.reader || m.variant ? { createReader: (config) => createHandReader(config, m.reader, m.variant) } : {}),
        ...(m.request ? { fetch: requestFetch(m.request) } : m.reposts ? { fetch: repostingFetch() } : {}),
        ...(m.readsPastError ? { createReader: readsPastError } : {}),
        ...(one ? { createReader: one.createReader } : {}),
        ...(m.sharedReader ? { createReader: sharedReader() } : {}),
      },
      ...(m.record ? { record: m.record } : one ? { record: one.record } : {}),
    };
  };
  // No completion rule of its own: only the body's end ends the run, so a held-open connection hangs it.
  const forever = 3_600_000;
  return (options) => createReferenceClient(m.ignoresWindows ? { ...options, idleMs: forever, graceMs: forever, callIdleMs: forever } : options, hooksFor());
}
