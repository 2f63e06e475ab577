/**
 * The client mutants: the reference client module with one defect each (mutate.ts), run through
 * `--client-module <file>` exactly as a team's module is. Each kills exactly the requirements it
 * names; harness/mutants/client/suite.ts proves it against the real mock and corpus.
 */
import { fileURLToPath } from 'node:url';
import { shellQuote } from '../../../core/shell.ts';
import type { Mutant } from '../types.ts';

export const clientMutantModule = (id: string): string => fileURLToPath(new URL(`./modules/${id}.ts`, import.meta.url));

/** A command mutant: examples/python-client/client.py with one defect (commands/<id with _>.py), run as `--client-cmd`. */
export const clientMutantCommand = (id: string): string => `python3 ${shellQuote(fileURLToPath(new URL(`./commands/${id.replace(/^client-command-/, 'client-').replace(/-/g, '_')}.py`, import.meta.url)))}`;

function m(id: string, kills: string[], description: string): Mutant {
  return { id, part: 'client', description, kills, target: { client: { module: clientMutantModule(id) } } };
}

function command(id: string, kills: string[], description: string): Mutant {
  return { id, part: 'client', description, kills, target: { client: { command: clientMutantCommand(id) } } };
}

const eol = ['CLI-EOL-001', 'CLI-EOL-004', 'CLI-EOL-005'];

export const clientMutants: Mutant[] = [
  m('client-naive-double-newline-split', [...eol, 'CLI-CHUNK-001', 'CLI-EVENT-001', 'CLI-ID-002'], 'seed 004\'s advice taken literally: the body is split at "\\n\\n" and only data: lines are read'),
  m('client-decodes-without-stream', ['CLI-CHUNK-001'], 'each chunk is decoded on its own (TextDecoder without stream: true), so a UTF-8 sequence split across chunks becomes U+FFFD'),
  m('client-flushes-unfinished-event', ['CLI-EOF-001'], 'at EOF the event still being read is dispatched'),
  m('client-keeps-leading-space', ['CLI-SPLIT-001', 'CLI-DATA-004'], 'a field value keeps the space after the colon'),
  m('client-ignores-cr', [...eol, 'CLI-CHUNK-001'], 'only LF ends a line; a CR stays in the value'),
  m('client-drops-event-field', ['CLI-EVENT-001'], 'the event: field is not read (adk-go\'s `event: error` is reported unnamed)'),
  m('client-drops-id-field', ['CLI-ID-002'], 'the id: field is not read'),
  m('client-splits-at-unicode-line-breaks', ['CLI-LS-001'], 'lines are split where Python\'s str.splitlines() splits them: U+2028, U+2029, U+0085 and more'),
  m('client-dispatches-blank-lines', ['CLI-COMMENT-001', 'CLI-RETRY-001'], 'every blank line dispatches an event, also one with no data'),
  m('client-keeps-bom', ['CLI-BOM-002'], 'the leading byte order mark is kept (TextDecoder with ignoreBOM: true), so the first data: line is not one'),
  m('client-drops-invalid-bytes', ['CLI-UTF-002'], 'bytes that are not UTF-8 are dropped instead of decoding to U+FFFD'),
  m('client-joins-data-lines-without-lf', ['CLI-DATA-003'], 'the data lines of one event are concatenated with no LF between them'),
  m('client-one-mib-line-limit', ['CLI-LARGE-001'], 'a line longer than 1 MiB is dropped, as buffer-capped parsers do'),
  m('client-cr-at-chunk-end-ends-line', ['CLI-CHUNK-001'], 'a CR at the end of a chunk ends its line at once, so the LF in the next chunk reads as a blank line'),
  m('client-reserializes-json', ['CLI-SPLIT-001', 'CLI-DATA-003', 'CLI-DATA-004'], 'each data value is parsed and re-serialized as JSON instead of reported as received'),
  m('client-ignores-done-sentinel', ['CLI-END-001'], 'a [DONE] sentinel does not end the run; the body\'s end does'),
  m('client-error-frame-not-terminal', ['CLI-END-002'], 'an error frame does not end the run; the body\'s end does, as a completed run'),
  m('client-reports-cut-as-eof', ['CLI-END-003'], 'a broken connection is reported as a normal end of the body'),
  m('client-no-end-record', ['CLI-OUT-001'], 'no end record is reported'),
  m('client-without-accept-header', ['CLI-REQ-001'], 'the request carries no Accept: text/event-stream'),
  m('client-sends-role-model', ['CLI-REQ-003'], 'the message is sent with role model instead of user'),
  m('client-sends-snake-case', ['CLI-REQ-003'], 'the request is spelled snake_case (app_name, new_message), which only adk-python reads: adk-js and adk-go runs never find the session'),
  m('client-waits-for-eof', ['CLI-END-001'], 'no idle or final-answer rule: only the end of the body ends the run, so a held-open connection hangs it'),
  m('client-reads-past-error-frame', ['CLI-END-002'], 'an error frame does not end the run: the client reads on and reports the events after it (adk-go streams on after `event: error`), ending at EOF as a completed run'),
  m('client-drops-http-error-text', ['CLI-HTTP-001'], 'a non-200 answer is reported as http-error with its status but without the server\'s error text'),
  m('client-strips-every-bom', ['CLI-BOM-002'], 'every leading byte order mark is stripped, not one, so the event after two BOMs is dispatched'),
  m('client-comment-resets-event', ['CLI-COMMENT-001'], 'a comment line is taken for a keep-alive block between events: the event being read is dropped'),
  m('client-reposts-run', ['CLI-REQ-004'], 'the run is POSTed a second time once the first stream\'s headers arrive, and the first stream is read on, never aborted'),
  m('client-ends-at-any-agents-answer', ['CLI-END-001'], 'on a held-open connection any agent\'s final answer ends the run after the grace window, a sub-agent\'s too, so the root agent\'s own answer is never read'),
  m('client-sends-state-key', ['CLI-REQ-003'], 'the run\'s context is sent under `state` (an empty object when there is none), a key no server reads: adk-js and adk-python drop it without a word, adk-go refuses the body'),
  m('client-dispatches-retry-blocks', ['CLI-RETRY-001'], 'a block with a retry: field dispatches an event even without data'),
  m('client-keeps-every-run', ['CLI-MEM-001'], 'the client module keeps a copy of every record it ever reported in a module-level list, never cleared: about 1 KB per stream, only memory grows (a long-lived app\'s debug log)'),
  m('client-decoder-shared-across-runs', ['CLI-ISO-001'], 'the client object keeps one reader (decoder, line buffer, event fields) for every run: a stream cut mid-line or inside a UTF-8 sequence spoils the next stream\'s first event'),
  // The command contract carries the answer's status too (ADK_CONFORMANCE_HTTP_STATUS): the same defect there.
  command('client-command-drops-http-error-text', ['CLI-HTTP-001'], 'under the command contract, a non-200 answer is reported as http-error with its status, and the error body on stdin is thrown away'),
  // The session form: one process reads every run, and its decoder is shared by them all.
  command('client-command-keeps-every-run', ['CLI-MEM-001'], 'examples/python-client/client.py speaking the session form, keeping every record it ever wrote in a module-level list, never cleared: about 1 KB per stream, only memory grows'),
  // The large-event probe hands the session process 3 MiB in 1 KiB pieces, as small events and as one line.
  command('client-command-rescans-line', ['CLI-LARGE-002'], 'examples/python-client/client.py with the reader it had before stop 49: each piece appended to one buffer searched from its start (str.find), so one 3 MiB line in 1 KiB pieces costs many times the same bytes as small events'),
  command('client-command-decoder-shared-across-runs', ['CLI-ISO-001'], 'examples/python-client/client.py speaking the session form with one UTF-8 decoder for every run, never flushed: a stream cut inside a UTF-8 sequence spoils the next stream\'s first line'),
];
