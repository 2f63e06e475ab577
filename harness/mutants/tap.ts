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
  { id: 'tap-upstream-event-without-id', role: 'adk', kills: ['ADK-EVT-001'], description: 'an adk-js server whose final event has no id' },
  { id: 'tap-upstream-snake-case-key', role: 'adk', kills: ['ADK-KEY-001'], description: 'an adk-js server whose event carries a snake_case key (invocation_id) besides its own' },
  { id: 'tap-upstream-python-spaced-error-in-js', role: 'adk', kills: ['ADK-ERR-001'], description: 'an Express (adk-js) server that writes its error line with json.dumps spacing' },
  { id: 'tap-upstream-eof-after-call', role: 'adk', kills: ['ADK-END-001'], description: 'an ADK server that ends the stream right after a function call, with no answer' },
  { id: 'tap-upstream-holds-open', role: 'adk', kills: ['ADK-END-002'], description: 'an ADK server that keeps the connection open after the final answer' },
  { id: 'tap-upstream-not-http', role: 'adk', kills: ['ADK-HTTP-001'], description: 'an upstream that answers with bytes that are not HTTP' },
  { id: 'tap-gateway-no-accel-header', role: 'gateway', kills: ['GW-HDR-004'], description: 'a gateway that streams without X-Accel-Buffering: no' },
  { id: 'tap-gateway-ms-timestamp', role: 'gateway', kills: ['GW-ERR-005'], description: 'a gateway whose TIMEOUT frame stamps milliseconds' },
  { id: 'tap-gateway-adds-done', role: 'gateway', kills: ['GW-PASS-004'], description: 'a gateway that appends data: [DONE] to the ADK stream' },
];
