/**
 * Gateway mutants: the reference gateway with one deliberate break each (breaks-*.ts), run as a
 * command exactly as a team's gateway is given with --gateway-cmd. Each names exactly the
 * requirements the harness reports as failed for it (proven by
 * harness/mutants/gateway.mutants.test.ts).
 */
import { fileURLToPath } from 'node:url';
import type { Mutant } from '../types.ts';
import { tsCommand } from '../ts-command.ts';

const serve = fileURLToPath(new URL('./serve.ts', import.meta.url));

/** The shell command that serves the reference gateway with break `name` on $PORT. */
export function gatewayMutantCommand(name: string): string {
  return tsCommand(serve, name);
}

const mutant = (name: string, description: string, kills: string[]): Mutant => ({
  id: `gateway-${name}`, part: 'gateway', description, kills, target: { gateway: { command: gatewayMutantCommand(name) } },
});

export const gatewayMutants: Mutant[] = [
  mutant('holds-back-last-chunk', 'writes each upstream chunk only when the next one arrives and loses the last one at EOF', ['GW-PASS-001', 'GW-PASS-005', 'GW-ENH-001']),
  mutant('reserializes-json', 'parses every data line and writes the JSON back in Python json.dumps spacing', ['GW-PASS-001', 'GW-ENH-001']),
  mutant('buffers-until-eof', 'holds the whole stream until the upstream ends, then writes it at once', ['GW-PASS-001', 'GW-PASS-005']),
  mutant('no-content-type', 'forgets the Content-Type header of the stream', ['GW-HDR-001']),
  mutant('no-cache-control', 'forgets the Cache-Control header of the stream', ['GW-HDR-002']),
  mutant('connection-close', 'answers the stream with Connection: close', ['GW-HDR-003']),
  mutant('no-accel-buffering', 'forgets the X-Accel-Buffering header of the stream', ['GW-HDR-004']),
  mutant('appends-done', 'appends data: [DONE] after a normal upstream end', ['GW-PASS-004']),
  mutant('no-timeout-frame', 'ends a timed-out stream without the TIMEOUT frame', ['GW-TIMEOUT-001']),
  mutant('swallows-upstream-errors', 'ends the stream without the status or STREAM_ERROR frame when the upstream fails', ['GW-ERR-001', 'GW-ERR-002', 'GW-ERR-003']),
  mutant('detail-from-httpx-error', 'writes str(exc) of httpx\'s HTTPStatusError as the status frame\'s detail: the internal upstream URL, without the upstream\'s own error text', ['GW-ERR-006']),
  mutant('doubles-error-frame', 'writes the status or STREAM_ERROR frame twice', ['GW-ERR-003']),
  mutant('read-timeout', 'has a 1.2 s read timeout: a silence between events closes the upstream and ends the stream with a TIMEOUT frame', ['GW-PASS-001', 'GW-TIMEOUT-002']),
  mutant('read-timeout-5s', 'has httpx\'s default 5 s read timeout: a silence of 6.5 s, under the total, ends the stream with a TIMEOUT frame', ['GW-TIMEOUT-002']),
  mutant('idle-timeout', 'times out after GATEWAY_TIMEOUT_MS without upstream bytes instead of after GATEWAY_TIMEOUT_MS in all, so a trickling stream never ends', ['GW-TIMEOUT-003']),
  mutant('keeps-upstream-after-timeout', 'ends the client stream with the TIMEOUT frame but leaves its upstream request streaming', ['GW-ABORT-002']),
  mutant('glues-stream-error', 'writes the STREAM_ERROR frame right after the partial bytes of a cut, without closing the broken event', ['GW-ERR-004']),
  mutant('glues-timeout-frame', 'writes the TIMEOUT frame right after the partial bytes of an event the timeout cut, without closing it', ['GW-TIMEOUT-001']),
  mutant('timestamp-ms', 'stamps its error frames with milliseconds (Date.now()) instead of seconds', ['GW-ERR-005']),
  mutant('forwards-credentials', 'sends the client\'s Authorization and Cookie headers on to the ADK server', ['GW-FWD-003']),
  mutant('retries-5xx', 'sends the run again when the upstream answers 5xx, so an ADK run that is not idempotent starts twice', ['GW-PASS-002']),
  mutant('forwards-host', 'copies the client\'s Host header onto the upstream request', ['GW-FWD-002']),
  mutant('late-abort', 'notices a client disconnect only once upstream bytes flow, so a client that leaves before the first event leaves the upstream open', ['GW-ABORT-001']),
  mutant('keeps-upstream-on-disconnect', 'never notices a client disconnect, so the upstream request stays open', ['GW-ABORT-001']),
  mutant('enhanced-to-run-sse', 'serves /run_sse_enhanced from the upstream\'s plain /run_sse', ['GW-ENH-001']),
  mutant('ignores-flag', 'serves /run_sse whatever ENABLE_ADK_CANONICAL_STREAM says', ['GW-FLAG-001']),
  mutant('flag-after-validation', 'checks ENABLE_ADK_CANONICAL_STREAM in the handler, after validating the body: switched off, an invalid body gets 422 instead of 501', ['GW-FLAG-001']),
  mutant('accepts-alg-none', 'lets an unsigned (alg: none) token through', ['GW-AUTH-003']),
  mutant('hs-rs-confusion', 'with an RSA public key configured, accepts HS256 tokens MACed with the key\'s PEM text', ['GW-AUTH-003']),
  mutant('ignores-signature', 'accepts an HS256 token whose signature does not verify', ['GW-AUTH-004']),
  mutant('accepts-expired', 'allows ten days of clock skew, so expired and not-yet-valid tokens pass', ['GW-AUTH-002']),
  mutant('accepts-token-in-url', 'takes the bearer token from ?token= when the Authorization header is missing', ['GW-AUTH-001']),
  mutant('proxy-token-in-url', 'the cookie proxy takes the token from ?access_token= when the cookie is missing', ['GW-PROXY-002']),
  mutant('allows-missing-token', 'serves /run_sse to a request without an Authorization header', ['GW-AUTH-001']),
  mutant('skips-csrf', 'never refuses a POST for its CSRF token', ['GW-CSRF-002']),
  mutant('csrf-accepts-any-token', 'accepts any X-CSRF-Token, whatever the double-submit cookie says', ['GW-CSRF-002']),
  mutant('csrf-skip-by-host-header', 'with CSRF_SKIP_LOCALHOST on (the seed-literal default), skips the CSRF check when the Host header says localhost, which any client or reverse proxy writes', ['GW-HOST-001']),
  mutant('server-token-accepts-any', 'issues CSRF tokens at GET /csrf-token but accepts any X-CSRF-Token on a POST', ['GW-CSRF-002']),
  mutant('proxy-trusts-any-cookie', 'the cookie proxy takes any access_token cookie without verifying it', ['GW-PROXY-002']),
  mutant('forwards-invalid-bodies', 'proxies a body that fails validation to the upstream as it came', ['GW-REQ-001', 'GW-REQ-002']),
  mutant('validates-after-forwarding', 'sends an invalid body upstream before refusing it', ['GW-REQ-002']),
  mutant('unnamed-validation-errors', 'refuses an invalid body with a bare {"error":"Bad Request"}', ['GW-REQ-001']),
  mutant('drops-state-delta', 'forwards the request without its stateDelta', ['GW-PASS-002']),
  mutant('text-parts-only', 'forwards only the text of newMessage.parts: inlineData, functionCall and functionResponse parts are dropped', ['GW-PASS-002']),
  mutant('drops-text-part-fields', 'forwards a text part as {"text"} alone: its thought flag and thoughtSignature are dropped', ['GW-PASS-002']),
  mutant('refuses-non-text-parts', 'refuses a newMessage whose parts are not all text with 422', ['GW-PASS-002']),
  mutant('legacy-post-no-success', 'answers the legacy POST with {"started": true}', ['GW-LEGACY-001']),
  mutant('legacy-no-complete', 'never sends research_complete on the legacy GET stream', ['GW-LEGACY-002']),
  mutant('leaks-16k-per-run', 'keeps 16 KiB of every finished run for ever (a copy of its bytes)', ['GW-MEM-002']),
  mutant('leaks-1k-per-run', 'keeps 1 KiB of every finished run for ever (a transcript string in a map)', ['GW-MEM-002']),
];

/** Designs other than the reference's that must pass every gateway requirement. */
export const gatewayVariants: Array<{ name: string; description: string; command: string }> = [
  { name: 'server-token-csrf', description: 'validates CSRF tokens it issues at GET /csrf-token instead of the double-submit cookie', command: gatewayMutantCommand('server-token-csrf') },
];
