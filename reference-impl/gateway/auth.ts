/**
 * Bearer JWT verification (seed 004 § Authentication: "**Method:** JWT Bearer tokens",
 * "**Header:** `Authorization: Bearer <token>`"), done by jose, never by hand.
 *
 * Algorithms are pinned per key type, which is what defeats `alg: none` and the HS/RS confusion
 * attack (an HS256 token MACed with the RSA public key's PEM): a secret accepts only HS256, an
 * RSA key only RS256, a P-256 key only ES256, a JWKS only RS256/ES256.
 */
import { createPublicKey, webcrypto, type KeyObject } from 'node:crypto';
import { createLocalJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { JwtAuthConfig } from './config.ts';
import type { GatewayErrorCode } from './error-codes.ts';

export type AuthResult =
  | { ok: true; payload: JWTPayload }
  | { ok: false; code: GatewayErrorCode; reason: string };

export type JwtVerifier = { verify: (token: string) => Promise<AuthResult> };

export function createJwtVerifier(config: JwtAuthConfig, now: () => number): JwtVerifier {
  const prepared = prepareKey(config);
  const { algorithms } = prepared;
  let key: Uint8Array | KeyObject | JWTVerifyGetKey | webcrypto.CryptoKey = prepared.key;
  // The HS256 secret goes into WebCrypto once: given the raw bytes, jose imports them again on
  // every verify, 40 of a 70 µs check (docs/performance.md, "gateway: import the JWT secret once").
  // Should the import fail, the raw bytes stay and jose reports the problem per token as before.
  const imported = key instanceof Uint8Array
    ? webcrypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']).then((k) => { key = k; }, () => undefined)
    : undefined;
  const options = {
    algorithms,
    clockTolerance: config.clockToleranceSec,
    // A token without exp never dies; the gateway refuses to honour one.
    requiredClaims: ['exp'],
    ...(config.issuer !== undefined ? { issuer: config.issuer } : {}),
    ...(config.audience !== undefined ? { audience: config.audience } : {}),
  };
  // Verdicts on tokens jose accepted: a client sends the same token run after run, and the
  // signature check was the gateway's largest own cost per run (docs/performance.md, "gateway:
  // remember verified tokens"). A verdict is used only while the clock has not gone back past it
  // and ends a second before jose's own limit (exp + tolerance), and after a minute at most.
  const verdicts = new Map<string, { payload: JWTPayload; from: number; until: number }>();
  const remember = (token: string, payload: JWTPayload, at: number): void => {
    if (typeof payload.exp !== 'number') return;
    const until = Math.min(at + verdictTtlMs, (payload.exp + config.clockToleranceSec - 1) * 1000);
    if (!(until > at)) return;
    verdicts.delete(token);
    verdicts.set(token, { payload, from: at, until });
    if (verdicts.size > verdictLimit) verdicts.delete(verdicts.keys().next().value as string);
  };
  return {
    async verify(token) {
      const at = now();
      const known = verdicts.get(token);
      if (known && at >= known.from && at < known.until) return { ok: true, payload: { ...known.payload } };
      if (imported) await imported;
      try {
        const { payload } = typeof key === 'function'
          ? await jwtVerify(token, key, { ...options, currentDate: new Date(at) })
          : await jwtVerify(token, key, { ...options, currentDate: new Date(at) });
        remember(token, payload, at);
        return { ok: true, payload: { ...payload } };
      } catch (error) {
        return classify(error);
      }
    },
  };
}

/** How long, and for how many tokens, a verified token is remembered. */
const verdictTtlMs = 60_000;
const verdictLimit = 1024;

function prepareKey(config: JwtAuthConfig): { key: Uint8Array | KeyObject | JWTVerifyGetKey; algorithms: string[] } {
  if (config.secret !== undefined) return { key: new TextEncoder().encode(config.secret), algorithms: ['HS256'] };
  if (config.jwks !== undefined) {
    try {
      return { key: createLocalJWKSet(config.jwks), algorithms: ['RS256', 'ES256'] };
    } catch (error) {
      throw new TypeError(`gateway config: the JWKS is invalid (${(error as Error).message}); JWT_JWKS_FILE must hold {"keys": [RSA or P-256 public JWKs]}`);
    }
  }
  let keyObject: KeyObject;
  try {
    keyObject = createPublicKey(config.publicKeyPem ?? '');
  } catch (error) {
    throw new TypeError(`gateway config: JWT_PUBLIC_KEY is not a PEM public key (${(error as Error).message}); give the SPKI PEM ('-----BEGIN PUBLIC KEY-----')`);
  }
  if (keyObject.asymmetricKeyType === 'rsa') return { key: keyObject, algorithms: ['RS256'] };
  if (keyObject.asymmetricKeyType === 'ec' && keyObject.asymmetricKeyDetails?.namedCurve === 'prime256v1') return { key: keyObject, algorithms: ['ES256'] };
  throw new TypeError(`gateway config: JWT_PUBLIC_KEY must be an RSA (RS256) or P-256 EC (ES256) public key, got ${keyObject.asymmetricKeyType ?? 'unknown'} ${keyObject.asymmetricKeyDetails?.namedCurve ?? ''}`.trim());
}

function classify(error: unknown): AuthResult {
  if (error instanceof errors.JWTExpired) return { ok: false, code: 'GW_AUTH_EXPIRED', reason: 'token expired' };
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return { ok: false, code: 'GW_AUTH_NOT_YET_VALID', reason: 'token not yet valid' };
    if (error.claim === 'iat') return { ok: false, code: 'GW_AUTH_NOT_YET_VALID', reason: 'token issued in the future' };
    if (error.claim === 'exp') return { ok: false, code: 'GW_AUTH_CLAIM_INVALID', reason: `token has no valid exp claim (${error.message})` };
    return { ok: false, code: 'GW_AUTH_CLAIM_INVALID', reason: `${error.claim} claim invalid (${error.message})` };
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, code: 'GW_AUTH_BAD_SIGNATURE', reason: 'signature invalid' };
  if (error instanceof errors.JOSEAlgNotAllowed) return { ok: false, code: 'GW_AUTH_ALG_NOT_ALLOWED', reason: 'algorithm not allowed for the configured key' };
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) return { ok: false, code: 'GW_AUTH_NO_MATCHING_KEY', reason: 'no configured key matches the token' };
  if (error instanceof errors.JOSENotSupported) return { ok: false, code: 'GW_AUTH_ALG_NOT_ALLOWED', reason: `token uses an unsupported feature (${error.message})` };
  if (error instanceof errors.JOSEError) return { ok: false, code: 'GW_AUTH_MALFORMED', reason: `malformed token (${error.message})` };
  return { ok: false, code: 'GW_AUTH_MALFORMED', reason: `malformed token (${(error as Error).message ?? String(error)})` };
}

/** `Authorization: Bearer <token>` → the token, or why not (RFC 6750 §2.1: the scheme is case-insensitive). */
export function bearerToken(header: string | undefined): { ok: true; token: string } | { ok: false; code: GatewayErrorCode; reason: string } {
  if (header === undefined || header.trim() === '') return { ok: false, code: 'GW_AUTH_MISSING', reason: 'missing bearer token' };
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
  if (!match?.[1]) return { ok: false, code: 'GW_AUTH_MALFORMED', reason: "Authorization header is not 'Bearer <token>'" };
  return { ok: true, token: match[1] };
}
