/**
 * The tap's mutants (data only; kept beside the harness's so "proven by" lists them): defective
 * upstreams (tiny node:http or TCP servers in tap/test-support.ts)
 * whose traffic through a real tap must yield a finding of exactly the requirements listed, and no
 * other (tap/mutants.test.ts). They prove the live checks can fail; reports list them under
 * "proven by" next to the harness's own mutants.
 */
export type TapMutant = { id: string; description: string; kills: string[]; role: 'adk' | 'gateway' };

export const tapMutants: readonly TapMutant[] = [
  { id: 'tap-upstream-unterminated-event', role: 'adk', kills: ['ADK-SSE-001'], description: 'an ADK server that ends the body inside its final event (no blank line after it)' },
  { id: 'tap-upstream-crlf', role: 'adk', kills: ['ADK-SSE-002'], description: 'an ADK server that ends its lines with CRLF' },
  { id: 'tap-upstream-preamble-comment', role: 'adk', kills: ['ADK-SSE-002'], description: 'an ADK server (a framework\'s route helper) that opens the stream with a `: stream open` comment before the first event (issue 29)' },
  { id: 'tap-upstream-event-without-id', role: 'adk', kills: ['ADK-EVT-001'], description: 'an adk-js server whose final event has no id' },
  { id: 'tap-upstream-snake-case-key', role: 'adk', kills: ['ADK-KEY-001'], description: 'an adk-js server whose event carries a snake_case key (invocation_id) besides its own' },
  { id: 'tap-upstream-python-spaced-error-in-js', role: 'adk', kills: ['ADK-ERR-001'], description: 'an Express (adk-js) server that writes its error line with json.dumps spacing' },
  { id: 'tap-upstream-eof-after-call', role: 'adk', kills: ['ADK-END-001'], description: 'an ADK server that ends the stream right after a function call, with no answer' },
  { id: 'tap-upstream-mixed-python-versions', role: 'adk', kills: ['ADK-KEY-001'], description: 'an adk-python server whose last event lacks the nodeInfo every earlier (2.x) event carries: two versions in one stream' },
  { id: 'tap-upstream-holds-open', role: 'adk', kills: ['ADK-END-002'], description: 'an ADK server that keeps the connection open after the final answer' },
  { id: 'tap-upstream-not-http', role: 'adk', kills: ['ADK-HTTP-001'], description: 'an upstream that answers with bytes that are not HTTP' },
  { id: 'tap-gateway-no-accel-header', role: 'gateway', kills: ['GW-HDR-004'], description: 'a gateway that streams without X-Accel-Buffering: no' },
  { id: 'tap-gateway-ms-timestamp', role: 'gateway', kills: ['GW-ERR-005'], description: 'a gateway whose TIMEOUT frame stamps milliseconds' },
  { id: 'tap-gateway-adds-done', role: 'gateway', kills: ['GW-PASS-004'], description: 'a gateway that appends data: [DONE] to the ADK stream' },
  { id: 'tap-gateway-stream-error-after-answer', role: 'gateway', kills: ['GW-PASS-004'], description: 'a gateway that appends a STREAM_ERROR frame after the upstream ended normally with the root agent\'s final answer (one tap)' },
  // Two taps around a gateway (tap --pair, tap/pair.ts): the reference gateway with one break of
  // harness/mutants/gateway/, between a front and a back tap (tap/pair.test.ts runs each).
  { id: 'tap-pair-reserializes-json', role: 'gateway', kills: ['GW-PASS-001'], description: 'a gateway that re-serialises every data line in json.dumps spacing (break reserializes-json), seen between two taps' },
  { id: 'tap-pair-appends-done', role: 'gateway', kills: ['GW-PASS-004'], description: 'a gateway that appends data: [DONE] after the upstream\'s normal end (break appends-done), seen between two taps' },
  { id: 'tap-pair-drops-state-delta', role: 'gateway', kills: ['GW-PASS-002'], description: 'a gateway that forwards the run request without its stateDelta (break drops-state-delta), seen between two taps' },
  { id: 'tap-pair-retries-5xx', role: 'gateway', kills: ['GW-PASS-002'], description: 'a gateway that sends the run again when the upstream answers 5xx (break retries-5xx), seen between two taps' },
  { id: 'tap-pair-forwards-credentials', role: 'gateway', kills: ['GW-FWD-003'], description: 'a gateway that sends the client\'s Authorization and Cookie on to the ADK server (break forwards-credentials), seen between two taps' },
  { id: 'tap-pair-forwards-host', role: 'gateway', kills: ['GW-FWD-002'], description: 'a gateway that copies the client\'s Host onto its upstream request (break forwards-host), seen between two taps' },
  { id: 'tap-pair-glues-stream-error', role: 'gateway', kills: ['ADK-END-001', 'GW-ERR-004'], description: 'a gateway that writes STREAM_ERROR right after a cut\'s partial bytes (break glues-stream-error), seen between two taps: the client\'s stream then ends with no event that ends the run (ADK-END-001 on the front run)' },
  { id: 'tap-pair-buffers-until-eof', role: 'gateway', kills: ['GW-PASS-005'], description: 'a gateway that holds the stream until the upstream ends (break buffers-until-eof), seen between two taps' },
  { id: 'tap-pair-keeps-upstream-on-disconnect', role: 'gateway', kills: ['GW-ABORT-001'], description: 'a gateway that never notices its client leaving, so its upstream request stays open (break keeps-upstream-on-disconnect), seen between two taps' },
  { id: 'tap-pair-keeps-upstream-after-timeout', role: 'gateway', kills: ['GW-ABORT-002'], description: 'a gateway whose total timeout ends the client stream but leaves its upstream request open (break keeps-upstream-after-timeout), seen between two taps' },
  { id: 'tap-pair-read-timeout', role: 'gateway', kills: ['GW-TIMEOUT-002'], description: 'a gateway with a 1.2 s read timeout that gives up a healthy upstream silent for 3 s and ends the stream with a TIMEOUT frame (break read-timeout), seen between two taps' },
  { id: 'tap-pair-validates-after-forwarding', role: 'gateway', kills: ['GW-REQ-002'], description: 'a gateway that sends an invalid body upstream before refusing it (break validates-after-forwarding), seen between two taps' },
];

/** The gateway break (harness/mutants/gateway/) behind a tap-pair mutant: its id without `tap-pair-`. */
export function pairMutantBreak(id: string): string | undefined {
  return id.startsWith('tap-pair-') ? id.slice('tap-pair-'.length) : undefined;
}
