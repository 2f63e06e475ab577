/**
 * What a conforming client reports for a byte stream, computed by the kit's own pieces and nothing
 * else: core/sse.ts reads the bytes (the one SSE module), reference-impl/transformer/frames.ts
 * classifies each data field, reference-impl/completion.ts decides the end. So the expectation and
 * the reference client cannot disagree on framing or on completion by construction.
 */
import { createSseReader, type SseFrame } from '../../../core/sse.ts';
import { createCompletionDetector, type CompletionConfig, type CompletionDecision } from '../../../reference-impl/completion.ts';
import { classifyData } from '../../../reference-impl/transformer/frames.ts';

/** One dispatched event as the contract reports it (docs/client-contract.md). */
export type EventRecord = { data: string; event?: string; id?: string };

/** How a run ended, as the contract reports it. */
export type EndName = 'eof' | 'done-sentinel' | 'final-rule' | 'idle' | 'error-frame' | 'cut' | 'http-error' | 'aborted';

/**
 * `status` and `error` only on `http-error`: the answer's status and the server's error text (its
 * whole body, or the message the body holds; expected: the message, which either must contain).
 */
export type EndRecord = { end: EndName; completed: boolean; status?: number; error?: string };

/** How the transport ended the body: closed (EOF), broke (reset), or stayed open (hold-open). */
export type TransportEnd = 'eof' | 'reset' | 'hold-open';

export type Expected = {
  events: EventRecord[];
  /**
   * The last event ID in effect when each event was dispatched (WHATWG: the buffer keeps an `id:`
   * until the next one), parallel to `events`: an event without its own `id:` may be reported with it.
   */
  lastEventIds?: Array<string | undefined>;
  end: EndRecord;
  /** Data of an event the body ended inside of (never dispatched), if any. */
  unterminated?: string;
  /**
   * A non-200 answer's body as received: an `error` holding it passes as well as one holding the
   * message (`end.error`), which differs from the body's text where JSON escapes it (a newline in `detail`).
   */
  errorBody?: string;
};

/** What a client reports for a non-200 answer: no event, an http-error end with its status and the server's message. */
export function httpErrorExpected(status: number, body: string, message = serverMessage(body)): Expected {
  return { events: [], end: endRecord('http-error', status, message), errorBody: body };
}

/** The end reasons after which the run is whole: the stream's own end or the final-answer rule. */
const completedEnds: ReadonlySet<EndName> = new Set(['eof', 'done-sentinel', 'final-rule']);

export function isCompletedEnd(end: EndName): boolean {
  return completedEnds.has(end);
}

export function endRecord(end: EndName, status?: number, error?: string): EndRecord {
  return { end, completed: isCompletedEnd(end), ...(status !== undefined ? { status } : {}), ...(error !== undefined ? { error } : {}) };
}

/**
 * The message a non-200 answer carries, which a client must pass on (CLI-HTTP-001): adk-python's
 * `detail` (a string, or pydantic's list whose first `msg` is taken), adk-js's `error`, else the
 * whole body trimmed (Starlette's text/plain "Internal Server Error", adk-js's 400 HTML).
 */
export function serverMessage(body: string): string {
  try {
    const v = JSON.parse(body) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      for (const key of ['detail', 'error']) {
        const x = o[key];
        if (typeof x === 'string' && x !== '') return x;
        const first = Array.isArray(x) ? (x[0] as Record<string, unknown> | undefined) : undefined;
        if (first && typeof first.msg === 'string') return first.msg;
      }
    }
  } catch { /* not JSON: the text itself */ }
  return body.trim().slice(0, 200);
}

export function toRecord(frame: Pick<SseFrame, 'data' | 'event' | 'id'>): EventRecord {
  return { data: frame.data, ...(frame.event !== undefined ? { event: frame.event } : {}), ...(frame.id !== undefined ? { id: frame.id } : {}) };
}

/**
 * The expected records for `chunks` as they arrived. A terminal frame (error frame, `[DONE]`)
 * ends the run where it stands: nothing after it is dispatched. Otherwise the transport decides:
 * EOF, a cut, or (held open) the completion rule's verdict on the silence that follows.
 */
export function expectedFor(chunks: readonly Uint8Array[], transport: TransportEnd, windows: CompletionConfig = {}): Expected {
  const detector = createCompletionDetector(windows);
  const events: EventRecord[] = [];
  const lastEventIds: Array<string | undefined> = [];
  let lastId: string | undefined;
  let decided: CompletionDecision = detector.start();
  let unterminated: string | undefined;
  const reader = createSseReader({
    onFrame: (frame) => {
      if (decided.done) return;
      if (frame.id !== undefined) lastId = frame.id;
      events.push(toRecord(frame));
      lastEventIds.push(lastId);
      decided = detector.feed(classifyData(frame.data));
    },
    onIssue: (issue) => { if (issue.kind === 'unterminated-event' && !decided.done) unterminated = issue.data; },
  });
  for (const chunk of chunks) reader.feed(chunk);
  // A cut body has no EOF, but the reader's end() only reports the pending event, never dispatches it.
  reader.end();
  const result = (end: EndRecord): Expected => ({ events, lastEventIds, end, ...(unterminated !== undefined ? { unterminated } : {}) });
  if (decided.done) return result(endRecord(decided.reason as EndName));
  if (transport === 'reset') return result(endRecord('cut'));
  if (transport === 'hold-open') {
    const d = detector.timeout();
    return result(endRecord(d.done ? (d.reason as EndName) : 'idle'));
  }
  return result(endRecord('eof'));
}
