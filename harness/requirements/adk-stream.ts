/**
 * Requirements on the ADK server's own `/run_sse` stream: the bytes the upstream ADK server writes,
 * which a gateway passes on unchanged. No part the harness certifies produces them (the mock plays
 * the server), so they are judged live, on real traffic, by `adk-conformance tap` (docs/tap.md).
 * Each cites the research note (the real server's observed bytes) or seed sentence it comes from;
 * tap/mutants.test.ts holds the defective upstream that each one catches.
 */
import type { Requirement } from '../model.ts';

const as = (r: Omit<Requirement, 'part'>): Requirement => ({ ...r, part: 'adk-stream' });

export const adkStreamRequirements: Requirement[] = [
  as({ id: 'ADK-SSE-001', level: 'MUST', title: 'a 200 /run_sse answer is a UTF-8 text/event-stream whose every event ends with a blank line, none left unfinished at EOF', source: { doc: 'adk-wire-format', section: '3. Response headers and SSE framing (exact bytes)' }, quote: 'Each event is exactly `data: ` + `JSON.stringify(event)` + `\\n\\n`.', tags: ['framing', 'utf-8', 'eof'] }),
  as({ id: 'ADK-SSE-002', level: 'SHOULD', title: 'each event is one data line of one-line JSON ended by LF LF: no byte order mark, CR, comment, id or retry field, multi-line data, or event field other than adk-go\'s `event: error`', source: { doc: 'adk-wire-format', section: '3. Response headers and SSE framing (exact bytes)' }, quote: 'There are **no** `event:`, `id:` or `retry:` lines, no `:` comments or heartbeats, and **no `[DONE]` sentinel**.', tags: ['framing', 'line-endings', 'comments'] }),
  as({ id: 'ADK-EVT-001', level: 'MUST', title: 'every event payload is a JSON object valid against the ADK event schema of the stream\'s dialect (adk-js, adk-python; adk-go\'s required keys)', source: { doc: 'adk-wire-format', section: '4. Event JSON' }, quote: 'There is no explicit `null` anywhere.', tags: ['schema'] }),
  as({ id: 'ADK-KEY-001', level: 'SHOULD', title: 'every key of an event is a field ADK servers write, in camelCase, and every event of one stream is in the same dialect', source: { doc: 'adk-wire-format', section: '4. Event JSON' }, quote: 'Field names are camelCase.', tags: ['schema', 'dialect'] }),
  as({ id: 'ADK-ERR-001', level: 'MUST', title: 'an error line has its dialect\'s form (adk-js compact, adk-python json.dumps spacing or the structured line, adk-go after `event: error`) and, except in adk-go, nothing follows it', source: { doc: 'adk-wire-format', section: '6. Errors' }, quote: 'After the headers are sent, these produce exactly one `data: {"error":"<e.message>"}\\n\\n` line before EOF.', tags: ['errors', 'error-frame'] }),
  as({ id: 'ADK-END-001', level: 'MUST', title: 'a stream ends the run: EOF comes after the root agent\'s final answer (finishReason STOP with text), an error line or an error event, and the connection is not cut before EOF', source: { doc: 'seed-001', section: '3. ⚠️ Completion Detection: No DONE Event' }, quote: '- **Option A:** Detect `finishReason: "STOP"` in final model response', tags: ['completion'] }),
  as({ id: 'ADK-END-002', level: 'SHOULD', title: 'the server ends the stream once the run is over: the connection is not held open after the final answer or an error line', source: { doc: 'adk-wire-format', section: '3. Response headers and SSE framing (exact bytes)' }, quote: 'server calls `res.end()` (chunked terminator).', tags: ['completion', 'hold-open'] }),
  as({ id: 'ADK-HTTP-001', level: 'MUST', title: 'the upstream accepts the connection and answers every request with a well-formed HTTP response', source: { doc: 'seed-004', section: 'Base Endpoint' }, quote: '**Upstream Target:** `http://127.0.0.1:8080/run_sse` (ADK service)', tags: ['transport'] }),
];
