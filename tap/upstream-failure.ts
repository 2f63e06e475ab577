/**
 * What an upstream request that got no HTTP response met, read from the `CODE: message` detail the
 * HTTP shell records (tap/server.ts). One reading for the three places that need it: the tap's 502
 * answer, the run's ADK-HTTP-001 finding, and the CLI's "never answered" exit.
 *
 * - not-http: bytes came back, but not an HTTP response (llhttp's `HPE_*` codes, "Parse Error");
 * - not-tls: an https:// upstream did not answer TLS (OpenSSL's "wrong version number": EPROTO,
 *   ERR_SSL_*), most often a plain-HTTP port;
 * - no-response: nothing answered (refused, reset, closed before any response).
 */
export type UpstreamFailure = 'not-http' | 'not-tls' | 'no-response';

export function upstreamFailure(detail: string | undefined): UpstreamFailure {
  const text = detail ?? '';
  if (/HPE_|Parse Error/i.test(text)) return 'not-http';
  if (/^(EPROTO|ERR_SSL_)/.test(text)) return 'not-tls';
  return 'no-response';
}
