/**
 * The tap's own answers: what a client gets when the upstream behind the tap gave no HTTP answer
 * to forward. JSON `{code, error, fix}`, like the mock's; the run also gets an ADK-HTTP-001 finding.
 */
import type { ErrorCodeTable } from '../core/error-codes.ts';

export const tapErrorCodes = {
  TAP_UPSTREAM_UNREACHABLE: { status: 502, message: 'The tap could not connect to its upstream, or the upstream closed the connection before any response.', fix: 'Start the ADK server or gateway, or point `tap --upstream` at the URL it listens on.' },
  TAP_UPSTREAM_NOT_HTTP: { status: 502, message: 'The upstream answered with bytes that are not an HTTP response.', fix: 'Point `tap --upstream` at the HTTP port of the ADK server or gateway (not a TLS, gRPC or database port); use https:// for a TLS upstream.' },
  TAP_BAD_REQUEST: { status: 400, message: 'The client sent bytes that are not an HTTP/1.1 request, or a request whose framing is ambiguous and is refused as Node\'s parser refuses it (Content-Length with Transfer-Encoding, two lengths, obs-fold, a bare LF; docs/tap.md) (or a request head that did not arrive whole within 60 s, then with status 408); the tap closes that connection.', fix: 'Send HTTP/1.1 requests to the tap (HTTP/2 and TLS are not served: the tap listens in plain HTTP/1.1), each head whole and on time.' },
} as const satisfies ErrorCodeTable;
