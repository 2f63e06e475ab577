/**
 * Requirements on a POST SSE client of `/run_sse` (seed 004 "POST SSE Client", issue 13 §1). Seed
 * 004 advises "split by `\n\n`, extract `data:` lines"; the real servers and every intermediary
 * write what the WHATWG rules allow, so each framing requirement cites the WHATWG rule as its
 * source and the seed sentence it corrects as its second citation (`clientCitations`, checked
 * verbatim by harness/requirements/client.test.ts).
 *
 * Levels (issue 28 §1): a MUST is what a real ADK server, gateway or proxy writes or needs: LF and
 * CRLF frames (CRLF reported from the field, assistant-ui PR#4821), keep-alive comments (written by
 * gateways and proxies, ag-ui PR#1566), adk-go's `event: error`, the `data: ` every server writes.
 * What no real server is known to write (a CR alone, mixed line ends, multi-line data, `data:`
 * without a space, `id:`, `retry:`) is a SHOULD tagged `robustness`, which a profile can leave out
 * (`capabilities.robustness: false`, docs/configuration.md).
 */
import type { SpecDoc } from '../../core/spec-docs.ts';
import type { Requirement } from '../model.ts';

export type Citation = { doc: SpecDoc; section: string; quote: string };

const cl = (r: Omit<Requirement, 'part'>): Requirement => ({ ...r, part: 'client' });

// The seed's client advice, which every framing requirement refines.
const seedAdvice: Citation = { doc: 'seed-004', section: 'Frontend Implementation', quote: 'Parse SSE stream manually (split by `\\n\\n`, extract `data:` lines)' };
const seedFormat: Citation = { doc: 'seed-004', section: 'SSE Wire Format', quote: 'Events separated by blank lines (`\\n\\n`)' };
const parserBuffers = 'When a stream is parsed, a data buffer, an event type buffer, and a last event ID buffer must be associated with it. They must be initialized to the empty string.';
const lineEnds = 'Lines must be separated by either a U+000D CARRIAGE RETURN U+000A LINE FEED (CRLF) character pair, a single U+000A LINE FEED (LF) character, or a single U+000D CARRIAGE RETURN (CR) character.';

export const clientRequirements: Requirement[] = [
  cl({ id: 'CLI-SPLIT-001', level: 'MUST', title: 'every event of the stream is dispatched once, in order, with its exact data, and nothing else is', source: { doc: 'whatwg-sse', section: 'dispatch' }, quote: 'If the line is empty (a blank line) Dispatch the event, as defined below.', tags: ['framing'] }),
  cl({ id: 'CLI-EOL-001', level: 'MUST', title: 'a CRLF pair ends a line, like LF', source: { doc: 'whatwg-sse', section: 'line endings' }, quote: lineEnds, tags: ['framing', 'line-endings'] }),
  // CLI-EOL-002 and CLI-EOL-003 (MUST) retired: no ADK server, gateway or proxy is known to write a CR
  // alone. LF and CRLF in one stream (a proxy's CRLF keep-alive in an LF stream) stays CLI-EOL-001's.
  cl({ id: 'CLI-EOL-004', level: 'SHOULD', title: 'a CR alone ends a line, like LF', source: { doc: 'whatwg-sse', section: 'line endings' }, quote: lineEnds, tags: ['framing', 'line-endings', 'robustness'] }),
  cl({ id: 'CLI-EOL-005', level: 'SHOULD', title: 'CRLF, CR and LF mixed in one stream each end a line', source: { doc: 'whatwg-sse', section: 'line endings' }, quote: lineEnds, tags: ['framing', 'line-endings', 'robustness'] }),
  cl({ id: 'CLI-BOM-002', level: 'SHOULD', title: 'one leading byte order mark is stripped and the first event is kept', source: { doc: 'whatwg-sse', section: 'bom' }, quote: 'The UTF-8 decode algorithm strips one leading UTF-8 Byte Order Mark (BOM), if any.', tags: ['robustness', 'framing', 'utf-8'] }),
  cl({ id: 'CLI-COMMENT-001', level: 'MUST', title: 'a comment line or a blank line without data never dispatches an event', source: { doc: 'whatwg-sse', section: 'comments' }, quote: 'If the line starts with a U+003A COLON character (:) Ignore the line.', tags: ['framing', 'comments'] }),
  // CLI-DATA-001 and CLI-DATA-002 (MUST) retired: every ADK server writes one-line `data: ` + JSON. The
  // space of that `data: ` is judged by CLI-SPLIT-001 (the event's exact data) on every stream.
  cl({ id: 'CLI-DATA-003', level: 'SHOULD', title: 'the data lines of one event are joined with LF into one data value', source: { doc: 'whatwg-sse', section: 'multi-line data' }, quote: 'Append the field value to the data buffer, then append a single U+000A LINE FEED (LF) character to the data buffer.', tags: ['framing', 'multi-line-data', 'robustness'] }),
  cl({ id: 'CLI-DATA-004', level: 'SHOULD', title: 'a field value written without a space after the colon is kept whole, and of two spaces only the first is removed', source: { doc: 'whatwg-sse', section: 'data field' }, quote: 'If value starts with a U+0020 SPACE character, remove it from value.', tags: ['framing', 'robustness'] }),
  cl({ id: 'CLI-CHUNK-001', level: 'MUST', title: 'the events are the same wherever the body is split: inside a line, between CR and LF, inside a UTF-8 sequence', source: { doc: 'whatwg-sse', section: 'chunk boundaries' }, quote: 'Streams must be decoded using the UTF-8 decode algorithm.', tags: ['framing', 'chunking', 'utf-8'] }),
  cl({ id: 'CLI-UTF-002', level: 'SHOULD', title: 'invalid UTF-8 decodes to U+FFFD and the event that holds it is dispatched', source: { doc: 'whatwg-sse', section: 'utf-8 decode' }, quote: 'Event streams are always decoded as UTF-8. There is no way to specify another character encoding.', tags: ['robustness', 'framing', 'utf-8'] }),
  cl({ id: 'CLI-LS-001', level: 'MUST', title: 'U+2028 and U+2029 inside data are characters of the value, not line ends', source: { doc: 'whatwg-sse', section: 'line endings' }, quote: lineEnds, tags: ['framing', 'utf-8', 'line-endings'] }),
  cl({ id: 'CLI-EOF-001', level: 'MUST', title: 'an event the stream ends inside (no blank line after it) is not dispatched', source: { doc: 'whatwg-sse', section: 'incomplete event at eof' }, quote: 'If the file ends in the middle of an event, before the final empty line, the incomplete event is not dispatched.', tags: ['framing', 'eof'] }),
  cl({ id: 'CLI-LARGE-001', level: 'MUST', title: 'a multi-megabyte event is dispatched whole', source: { doc: 'whatwg-sse', section: 'data field' }, quote: 'Append the field value to the data buffer, then append a single U+000A LINE FEED (LF) character to the data buffer.', tags: ['framing', 'large-event'] }),
  cl({ id: 'CLI-LARGE-002', level: 'SHOULD', title: 'a multi-megabyte line costs the client little more than the same bytes as events: in 1 KiB pieces, one 3 MiB line takes at most 3 times the CPU time of 3 MiB of 32 KB events, or 100 ms over it if that is more', source: { doc: 'whatwg-sse', section: 'data field' }, quote: 'Append the field value to the data buffer, then append a single U+000A LINE FEED (LF) character to the data buffer.', tags: ['framing', 'large-event', 'performance'] }),
  cl({ id: 'CLI-EVENT-001', level: 'MUST', title: 'an event\'s `event:` field (adk-go\'s `event: error`) is reported with it', source: { doc: 'whatwg-sse', section: 'event field' }, quote: 'Set the event type buffer to the field value.', tags: ['framing', 'error-frame'] }),
  // CLI-ID-001 (MUST, "that event only") retired: its own citation keeps the last event ID buffer until the next `id:`.
  cl({ id: 'CLI-ID-002', level: 'SHOULD', title: 'an event with an `id:` field is reported with that id; an event without one with no id or with the last event ID still in effect', source: { doc: 'whatwg-sse', section: 'id field' }, quote: 'If the field value does not contain U+0000 NULL, then set the last event ID buffer to the field value.', tags: ['framing', 'robustness'] }),
  cl({ id: 'CLI-RETRY-001', level: 'SHOULD', title: 'a `retry:` field dispatches no event and changes no event', source: { doc: 'whatwg-sse', section: 'retry field' }, quote: 'If the field value consists of only ASCII digits, then interpret the field value as an integer in base ten, and set the event stream\'s reconnection time to that integer.', tags: ['framing', 'robustness'] }),
  cl({ id: 'CLI-END-001', level: 'MUST', title: 'the run ends by the kit\'s completion rule: EOF, a [DONE] sentinel, the final-answer rule on a held-open connection, or the idle fallback', source: { doc: 'seed-001', section: '3. ⚠️ Completion Detection: No DONE Event' }, quote: '**Recommended:** Option A + Option B (dual detection)', tags: ['completion'] }),
  cl({ id: 'CLI-END-002', level: 'MUST', title: 'an error frame, named (`event: error`) or not, ends the run reported as error-frame, not completed', source: { doc: 'seed-004', section: 'General Stream Errors' }, quote: '"error_code": "STREAM_ERROR",', tags: ['completion', 'error-frame'] }),
  cl({ id: 'CLI-END-003', level: 'MUST', title: 'a connection that breaks before the body ends is reported as cut, not completed', source: { doc: 'seed-004', section: 'Response Lifecycle' }, quote: '- Error occurs', tags: ['completion', 'cut'] }),
  cl({ id: 'CLI-HTTP-001', level: 'MUST', title: 'a non-200 answer ends the run as http-error, not completed, with no event, its HTTP status and the server\'s error text', source: { doc: 'seed-004', section: 'HTTP Status Errors (4xx, 5xx)' }, quote: '"detail": "Internal Server Error",', tags: ['completion', 'http-error'] }),
  cl({ id: 'CLI-OUT-001', level: 'MUST', title: 'the client reports one record per dispatched event and exactly one end record, last', source: { doc: 'seed-004', section: 'Frontend Implementation' }, quote: 'Route to ADK event handler (Phase 3.2)', tags: ['contract'] }),
  cl({ id: 'CLI-REQ-001', level: 'MUST', title: 'the client sends POST /run_sse with Accept: text/event-stream and Content-Type: application/json', source: { doc: 'seed-004', section: 'HTTP Headers' }, quote: 'Accept: text/event-stream', tags: ['request'] }),
  // CLI-REQ-002 (MUST, "in camelCase") retired: seed 004's Python model also reads snake_case, and `streaming` is optional.
  cl({ id: 'CLI-REQ-003', level: 'MUST', title: 'the targeted server\'s request model reads the body as the run the client was given: its appName, userId, sessionId, stateDelta and newMessage with role user (adk-python: camelCase or snake_case keys); `streaming` is the client\'s choice and may be absent', source: { doc: 'seed-004', section: 'Field Requirements' }, quote: '| `newMessage.role` | string | ✅ Yes | Message role (always "user" for input) |', tags: ['request'] }),
  cl({ id: 'CLI-ISO-001', level: 'SHOULD', title: 'a client instance reused for every run (one client object, one session process) reports the same records for a stream whatever it read before or reads beside it', source: { doc: 'whatwg-sse', section: '9.2.6' }, quote: parserBuffers, tags: ['framing', 'long-lived'] }),
  cl({ id: 'CLI-MEM-001', level: 'SHOULD', title: 'a client reused for every run (one client object, one session process) keeps less than 512 bytes of memory per finished stream, measured over 10,000 streams after warm-up', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'Memory usage bounded (no audit event leaks)', tags: ['memory', 'resources', 'long-lived'] }),
  cl({ id: 'CLI-REQ-004', level: 'MUST', title: 'one run is one POST /run_sse: the client never sends the run again, least of all while its first stream is still open (each POST appends the user\'s message to the session and runs the agent again)', source: { doc: 'seed-004', section: 'Critical Architectural Insight' }, quote: '**The canonical endpoint BOTH starts research AND streams results in a single request.**', tags: ['request'] }),
];

/** The second citation of each requirement: the seed for WHATWG-sourced ones, the WHATWG rule for seed-sourced ones. */
export const clientCitations: Record<string, Citation> = {
  'CLI-SPLIT-001': seedFormat,
  'CLI-EOL-001': seedAdvice,
  'CLI-EOL-004': seedAdvice,
  'CLI-EOL-005': seedAdvice,
  'CLI-BOM-002': seedAdvice,
  'CLI-COMMENT-001': seedAdvice,
  'CLI-DATA-003': { doc: 'seed-004', section: 'SSE Wire Format', quote: 'Event payload is JSON on a single line' },
  'CLI-DATA-004': { doc: 'seed-004', section: 'SSE Wire Format', quote: 'Each event starts with `data: `' },
  'CLI-CHUNK-001': { doc: 'seed-004', section: 'Frontend Implementation', quote: 'Use `fetch` + `ReadableStream` (standard EventSource doesn\'t support POST)' },
  'CLI-UTF-002': seedAdvice,
  'CLI-LS-001': seedAdvice,
  'CLI-EOF-001': seedAdvice,
  'CLI-LARGE-001': { doc: 'seed-004', section: 'SSE Wire Format', quote: 'Event payload is JSON on a single line' },
  'CLI-LARGE-002': { doc: 'seed-004', section: 'SSE Wire Format', quote: 'Event payload is JSON on a single line' },
  'CLI-EVENT-001': seedAdvice,
  'CLI-ID-002': seedAdvice,
  'CLI-RETRY-001': seedAdvice,
  'CLI-END-001': { doc: 'whatwg-sse', section: 'incomplete event at eof', quote: 'Once the end of the file is reached, any pending data must be discarded.' },
  'CLI-END-002': { doc: 'whatwg-sse', section: 'event field', quote: 'Set the event type buffer to the field value.' },
  'CLI-END-003': { doc: 'whatwg-sse', section: 'incomplete event at eof', quote: 'If the file ends in the middle of an event, before the final empty line, the incomplete event is not dispatched.' },
  'CLI-OUT-001': { doc: 'whatwg-sse', section: 'dispatch', quote: 'Queue a task which, if the readyState attribute is set to a value other than CLOSED, dispatches the newly created event at the EventSource object.' },
  'CLI-REQ-001': { doc: 'whatwg-sse', section: 'mime type', quote: 'Set (`Accept`, `text/event-stream`) in request\'s header list.' },
  'CLI-HTTP-001': { doc: 'whatwg-sse', section: 'http status', quote: 'if res\'s status is not 200, or if res\'s `Content-Type` is not `text/event-stream`, then fail the connection.' },
  'CLI-REQ-004': { doc: 'whatwg-sse', section: 'retry field', quote: 'If the field value consists of only ASCII digits, then interpret the field value as an integer in base ten, and set the event stream\'s reconnection time to that integer.' },
  'CLI-ISO-001': { doc: 'seed-004', section: 'Frontend Implementation', quote: 'Use `fetch` + `ReadableStream` (standard EventSource doesn\'t support POST)' },
  'CLI-MEM-001': { doc: 'whatwg-sse', section: '9.2.6', quote: parserBuffers },
  'CLI-REQ-003': { doc: 'whatwg-sse', section: '9.2', quote: 'Using this API consists of creating an EventSource object and registering an event listener.' },
};
