/**
 * The one SSE framing module of the kit: every part that writes or reads `text/event-stream`
 * bytes goes through here (the mock, the gateway, the client, the harness).
 *
 * Reading wraps eventsource-parser (WHATWG-exact line handling) and adds what a conformance kit
 * needs on top: byte-level UTF-8 decoding with a finding for invalid sequences, and a report of
 * the event that was still unterminated at EOF (which the spec says to drop, silently).
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
import { createParser, type ParseError } from 'eventsource-parser';
import { createUtf8Stream } from './utf8-stream.ts';

/** One dispatched SSE event. */
export type SseFrame = {
  data: string;
  /** The `event:` field, when the server set one (undefined means the default, `message`). */
  event?: string | undefined;
  /** The `id:` field of this event only; the last-event-id a browser keeps across events is the client's business. */
  id?: string | undefined;
  /** Bytes received (including the chunk that completed this frame) when it was dispatched. */
  offset: number;
};

/** Something about the byte stream itself that a conformance check may care about. */
export type SseIssue =
  | { kind: 'invalid-utf8'; offset: number; message: string }
  | { kind: 'unterminated-event'; offset: number; message: string; data: string }
  | { kind: 'parse-error'; offset: number; message: string; line?: string | undefined };

export type SseReaderConfig = {
  onFrame: (frame: SseFrame) => void;
  onIssue?: (issue: SseIssue) => void;
  onComment?: (comment: string) => void;
  onRetry?: (ms: number) => void;
};

export type SseReader = {
  /** Feed the next chunk of the body, exactly as it arrived. */
  feed: (chunk: Uint8Array | string) => void;
  /** The body ended (EOF). Reports, but does not dispatch, an unterminated event. */
  end: () => void;
  /** Forget everything, for a new stream. */
  reset: () => void;
};

export function createSseReader(config: SseReaderConfig): SseReader {
  let offset = 0;
  let atEof = false;
  // "The UTF-8 decode algorithm strips one leading UTF-8 Byte Order Mark (BOM), if any": the
  // stream decoder does exactly that, once per stream, and flags bytes that are not UTF-8.
  let decoder = createUtf8Stream();
  let reportedUtf8 = false;
  // A CR at the end of the input so far may be the first half of a CRLF, so the parser holds it.
  let endsWithCr = false;

  const parser = createParser({
    onEvent(message) {
      const frame: SseFrame = { data: message.data, event: message.event, id: message.id, offset };
      if (atEof) {
        // "If the file ends in the middle of an event, before the final empty line, the incomplete
        // event is not dispatched." We only surface it as an issue.
        config.onIssue?.({ kind: 'unterminated-event', offset, data: message.data, message: `the stream ended inside an event (no blank line after its last field); ${message.data.length} characters of data were dropped` });
        return;
      }
      config.onFrame(frame);
    },
    onError(error: ParseError) {
      config.onIssue?.({ kind: 'parse-error', offset, message: error.message, line: error.line });
    },
    onComment: config.onComment ? (comment) => config.onComment?.(comment) : undefined,
    onRetry: config.onRetry ? (ms) => config.onRetry?.(ms) : undefined,
  });

  function feed(chunk: Uint8Array | string): void {
    if (typeof chunk === 'string') {
      offset += Buffer.byteLength(chunk);
      if (chunk.length > 0) feedText(chunk);
      return;
    }
    offset += chunk.byteLength;
    const { text, invalid } = decoder.decode(chunk);
    if (invalid && !reportedUtf8) {
      reportedUtf8 = true;
      config.onIssue?.({ kind: 'invalid-utf8', offset, message: `invalid UTF-8 in the bytes ending at offset ${offset}; decoded with U+FFFD replacement characters` });
    }
    if (text.length > 0) feedText(text);
  }

  function feedText(text: string): void {
    // A held CR that is not followed by LF was a whole line end: settle it before the new text, or
    // the event it closed would wait for the next line end (and be lost at EOF).
    if (endsWithCr && !text.startsWith('\n')) parser.feed('\n');
    parser.feed(text);
    endsWithCr = text.endsWith('\r');
  }

  function end(): void {
    const tail = decoder.end();
    if (tail.text.length > 0) feedText(tail.text);
    if (tail.invalid && !reportedUtf8) {
      reportedUtf8 = true;
      config.onIssue?.({ kind: 'invalid-utf8', offset, message: 'the stream ended inside a multi-byte UTF-8 sequence' });
    }
    // Probe for a pending event: two line ends complete any pending line and dispatch what the
    // spec would have dropped; the flag turns that dispatch into an issue.
    // At EOF no LF can follow a trailing CR, so that CR was a whole line end: settle it first
    // (an LF right after a CR is the same line end, never a new one).
    if (endsWithCr) parser.feed('\n');
    atEof = true;
    parser.feed('\n\n');
    atEof = false;
    parser.reset();
  }

  function reset(): void {
    parser.reset();
    decoder = createUtf8Stream();
    reportedUtf8 = false;
    endsWithCr = false;
    offset = 0;
  }

  return { feed, end, reset };
}

/** Read a whole body (already in memory) into frames and issues. */
export function readSse(body: Uint8Array | string): { frames: SseFrame[]; issues: SseIssue[]; comments: string[] } {
  const frames: SseFrame[] = [];
  const issues: SseIssue[] = [];
  const comments: string[] = [];
  const reader = createSseReader({ onFrame: (f) => frames.push(f), onIssue: (i) => issues.push(i), onComment: (c) => comments.push(c) });
  reader.feed(body);
  reader.end();
  return { frames, issues, comments };
}

export type SseMessage = { data: string; event?: string; id?: string; retry?: number };

/**
 * Encode one event. Data is split on CR, LF and CRLF into one `data:` line each, as a server must
 * ("the data buffer ... with a U+000A LINE FEED character appended" per line on the reading side).
 * `event` and `id` must be single lines: a line break there would forge extra fields.
 */
export function encodeSse(message: SseMessage, eol: '\n' | '\r\n' | '\r' = '\n'): string {
  for (const key of ['event', 'id'] as const) {
    const value = message[key];
    if (value !== undefined && /[\r\n]/.test(value)) {
      throw new TypeError(`encodeSse: the '${key}' field must not contain CR or LF, got ${JSON.stringify(value)}`);
    }
  }
  let out = '';
  if (message.event !== undefined) out += `event: ${message.event}${eol}`;
  if (message.id !== undefined) out += `id: ${message.id}${eol}`;
  if (message.retry !== undefined) out += `retry: ${message.retry}${eol}`;
  for (const line of message.data.split(/\r\n|\r|\n/)) out += `data: ${line}${eol}`;
  return out + eol;
}

/** The ADK server's own framing: `data: ` + one-line JSON text + `\n\n`, nothing else. */
export function encodeAdkFrame(json: string): string {
  return `data: ${json}\n\n`;
}
