/**
 * The gateway's error codes, merged into the one registry by core/error-codes-all.ts and
 * documented in docs/error-codes.md. HTTP answers carry them as `{error, code, reason}`;
 * TIMEOUT and STREAM_ERROR are seed 004's in-stream `error_code` values.
 */
import type { ErrorCodeTable } from '../../core/error-codes.ts';

export const gatewayErrorCodes = {
  GW_FLAG_DISABLED: { status: 501, message: 'The canonical streaming endpoints are switched off; the body is seed 004\'s exact {"detail": ...}.', fix: 'Set ENABLE_ADK_CANONICAL_STREAM=true (or pass --enable-canonical) to serve POST /run_sse.' },
  GW_AUTH_MISSING: { status: 401, message: 'The request carries no bearer token (no Authorization header, or no token cookie on a cookie route).', fix: 'Send Authorization: Bearer <jwt>; mint a development token with `adk-conformance gateway token --secret S`, or set ALLOW_UNAUTHENTICATED_SSE=true for development.' },
  GW_AUTH_MALFORMED: { status: 401, message: 'The Authorization header or the token is not a well-formed `Bearer <compact JWS>`.', fix: 'Send exactly `Authorization: Bearer <header>.<payload>.<signature>`.' },
  GW_AUTH_EXPIRED: { status: 401, message: 'The token\'s exp is in the past (beyond the clock tolerance).', fix: 'Mint a fresh token; JWT_CLOCK_TOLERANCE_S sets the accepted clock skew.' },
  GW_AUTH_NOT_YET_VALID: { status: 401, message: 'The token\'s nbf is in the future (beyond the clock tolerance).', fix: 'Check the issuer\'s clock or the nbf claim.' },
  GW_AUTH_BAD_SIGNATURE: { status: 401, message: 'The token\'s signature does not verify with the configured key.', fix: 'Sign with the key the gateway is configured with (JWT_SECRET, JWT_PUBLIC_KEY or JWT_JWKS_FILE).' },
  GW_AUTH_ALG_NOT_ALLOWED: { status: 401, message: 'The token\'s alg is not the one pinned for the configured key type (alg none, or HS256 against a public key).', fix: 'Use HS256 with JWT_SECRET, RS256 with an RSA key, ES256 with a P-256 key.' },
  GW_AUTH_CLAIM_INVALID: { status: 401, message: 'A required claim is missing or wrong (exp missing, iss or aud not the configured value).', fix: 'Include exp; set iss/aud to JWT_ISSUER/JWT_AUDIENCE when those are configured.' },
  GW_AUTH_NO_MATCHING_KEY: { status: 401, message: 'No key of the configured JWKS matches the token (kid or key type).', fix: 'Add the signing key to the JWKS file, or sign with a key whose kid is in it.' },
  GW_CSRF_MISSING: { status: 403, message: 'A POST from a non-local client carries no X-CSRF-Token header or no csrf_token cookie.', fix: 'GET /_gateway/csrf, keep its cookie, and echo the token in X-CSRF-Token.' },
  GW_CSRF_MISMATCH: { status: 403, message: 'The X-CSRF-Token header does not equal the csrf_token cookie (double-submit check).', fix: 'Echo the value of the csrf_token cookie in the X-CSRF-Token header.' },
  GW_INVALID_REQUEST: { status: 422, message: 'The JSON body does not match the request model (schemas/run-agent-request, or the legacy {query}).', fix: 'Fix the field named in `reason` and `issues[].path`.' },
  GW_MALFORMED_JSON: { status: 400, message: 'The body is not valid JSON.', fix: 'Send one JSON object with Content-Type: application/json.' },
  GW_UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The body is not declared as application/json.', fix: 'Send Content-Type: application/json.' },
  GW_BODY_TOO_LARGE: { status: 413, message: 'The body is larger than GATEWAY_BODY_LIMIT_BYTES.', fix: 'Send a smaller body or raise GATEWAY_BODY_LIMIT_BYTES.' },
  GW_NOT_FOUND: { status: 404, message: 'No such route on the gateway.', fix: 'See docs/gateway.md for the routes.' },
  GW_LEGACY_RUN_NOT_FOUND: { status: 404, message: 'No legacy run is held for this session (never started, or dropped after LEGACY_UNREAD_TTL_MS / LEGACY_MAX_RUNS).', fix: 'POST .../run first, then GET the same path within the bounds.' },
  GW_LEGACY_FORBIDDEN: { status: 403, message: 'The legacy run was started by another token subject.', fix: 'Read the stream with a token for the same subject (sub) that started the run.' },
  GW_LEGACY_RUN_ACTIVE: { status: 409, message: 'A legacy run is already in progress for this app/user/session.', fix: 'GET the same path to read it, or wait for research_complete before starting another.' },
  GW_LEGACY_BUSY: { status: 503, message: 'LEGACY_MAX_RUNS runs are all still in progress; no finished run can be dropped to make room.', fix: 'Retry later or raise LEGACY_MAX_RUNS.' },
  GW_INTERNAL: { status: 500, message: 'The gateway failed in a way it did not expect.', fix: 'Report it with the request; the gateway log has the stack.' },
  TIMEOUT: { message: 'In-stream frame: the total timeout (GATEWAY_TIMEOUT_MS, default 300 s) fired; every event that arrived before it was passed on.', fix: 'Raise GATEWAY_TIMEOUT_MS if the runs are legitimately longer.' },
  STREAM_ERROR: { message: 'In-stream frame: the upstream connection was refused, reset or cut; every byte that arrived before it was passed on.', fix: 'Check that ADK_UPSTREAM_URL points at a running ADK API server.' },
} satisfies ErrorCodeTable;

export type GatewayErrorCode = keyof typeof gatewayErrorCodes;
