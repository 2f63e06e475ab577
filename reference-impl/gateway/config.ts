/**
 * The gateway's settings: one resolved object, read from documented environment variables
 * (docs/gateway.md lists every one with its default) or given directly by a test.
 *
 * A setting that cannot be understood is a configuration error: it is thrown at once with the
 * variable's name and how to fix it, never guessed around (a typo must not open the gateway).
 */
import { readFileSync } from 'node:fs';
import type { JSONWebKeySet } from 'jose';

export type JwtAuthConfig = {
  mode: 'jwt';
  /** HS256 shared secret (JWT_SECRET). */
  secret?: string | undefined;
  /** SPKI PEM of an RSA (RS256) or P-256 (ES256) public key (JWT_PUBLIC_KEY). */
  publicKeyPem?: string | undefined;
  /** A local JWKS document (the parsed contents of JWT_JWKS_FILE). */
  jwks?: JSONWebKeySet | undefined;
  issuer?: string | undefined;
  audience?: string | undefined;
  /** Seconds of clock skew accepted on exp/nbf (JWT_CLOCK_TOLERANCE_S). */
  clockToleranceSec: number;
};

export type AuthConfig = { mode: 'off' } | JwtAuthConfig;

export type GatewayConfig = {
  /** Base URL of the ADK API server; `/run_sse` and `/run_sse_enhanced` are appended. */
  upstreamUrl: string;
  /** Base URL of the Anthropic-compatible API the block-index normaliser route calls (default: upstreamUrl, where the mock serves it). */
  anthropicUpstreamUrl: string;
  /** Seed 004: "**Default:** `false` (safe rollout)". */
  canonicalStreamEnabled: boolean;
  auth: AuthConfig;
  csrf: { skipLocalhost: boolean; cookieName: string; headerName?: string };
  /** Total time a proxied stream may last, in milliseconds (no per-read timeout). */
  timeoutMs: number;
  /** HttpOnly cookie read by the cookie-to-bearer proxy and the legacy GET stream. */
  authCookieName: string;
  legacy: {
    /** Derived events kept per run for a GET that arrives late (oldest dropped first). */
    replayEvents: number;
    /** Runs held at once; past it the oldest finished run is dropped, then the oldest running one. */
    maxRuns: number;
    /** A finished run nobody is reading is dropped after this long. */
    unreadTtlMs: number;
  };
  bodyLimitBytes: number;
  /** Serve GET /_gateway/stats (counters only, no request data). */
  exposeStats: boolean;
  /** Clock for frame timestamps and JWT checks, in ms since the epoch (tests pin it). */
  now: () => number;
};

/** What a caller may give: everything but `auth` has a default. */
export type GatewayConfigInput = Partial<Omit<GatewayConfig, 'auth' | 'csrf' | 'legacy'>> & {
  auth: AuthConfig;
  csrf?: Partial<GatewayConfig['csrf']>;
  legacy?: Partial<GatewayConfig['legacy']>;
};

export const gatewayDefaults = {
  upstreamUrl: 'http://127.0.0.1:8080',
  timeoutMs: 300_000,
  clockToleranceSec: 5,
  authCookieName: 'access_token',
  csrfCookieName: 'csrf_token',
  replayEvents: 1000,
  maxRuns: 100,
  unreadTtlMs: 300_000,
  bodyLimitBytes: 10 * 1024 * 1024,
} as const;

export function resolveGatewayConfig(input: GatewayConfigInput): GatewayConfig {
  if (input === null || typeof input !== 'object' || !input.auth) {
    throw new TypeError("buildGatewayApp: config.auth is required: pass {mode: 'off'} for development or {mode: 'jwt', secret | publicKeyPem | jwks, clockToleranceSec}");
  }
  const upstreamUrl = checkUpstreamUrl(input.upstreamUrl ?? gatewayDefaults.upstreamUrl, 'upstreamUrl');
  const config: GatewayConfig = {
    upstreamUrl,
    anthropicUpstreamUrl: input.anthropicUpstreamUrl !== undefined ? checkUpstreamUrl(input.anthropicUpstreamUrl, 'anthropicUpstreamUrl') : upstreamUrl,
    canonicalStreamEnabled: input.canonicalStreamEnabled ?? false,
    auth: input.auth,
    csrf: { skipLocalhost: input.csrf?.skipLocalhost ?? true, cookieName: input.csrf?.cookieName ?? gatewayDefaults.csrfCookieName, ...(input.csrf?.headerName ? { headerName: input.csrf.headerName } : {}) },
    timeoutMs: input.timeoutMs ?? gatewayDefaults.timeoutMs,
    authCookieName: input.authCookieName ?? gatewayDefaults.authCookieName,
    legacy: {
      replayEvents: input.legacy?.replayEvents ?? gatewayDefaults.replayEvents,
      maxRuns: input.legacy?.maxRuns ?? gatewayDefaults.maxRuns,
      unreadTtlMs: input.legacy?.unreadTtlMs ?? gatewayDefaults.unreadTtlMs,
    },
    bodyLimitBytes: input.bodyLimitBytes ?? gatewayDefaults.bodyLimitBytes,
    exposeStats: input.exposeStats ?? true,
    now: input.now ?? Date.now,
  };
  positive(config.timeoutMs, 'timeoutMs');
  positive(config.legacy.replayEvents, 'legacy.replayEvents');
  positive(config.legacy.maxRuns, 'legacy.maxRuns');
  positive(config.legacy.unreadTtlMs, 'legacy.unreadTtlMs');
  positive(config.bodyLimitBytes, 'bodyLimitBytes');
  if (config.auth.mode === 'jwt') checkJwtConfig(config.auth);
  return config;
}

function positive(value: number, name: string): void {
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`gateway config: ${name} must be a positive number, got ${String(value)}`);
}

function checkJwtConfig(auth: JwtAuthConfig): void {
  const keys = [auth.secret !== undefined, auth.publicKeyPem !== undefined, auth.jwks !== undefined].filter(Boolean).length;
  if (keys !== 1) {
    throw new TypeError(`gateway config: JWT auth needs exactly one key source (JWT_SECRET, JWT_PUBLIC_KEY or JWT_JWKS_FILE), got ${keys}; for development without tokens set ALLOW_UNAUTHENTICATED_SSE=true`);
  }
  // HS256 keys shorter than the hash output are brute-forceable (RFC 7518 §3.2 requires >= 256 bits).
  if (auth.secret !== undefined && Buffer.byteLength(auth.secret) < 32) {
    throw new TypeError(`gateway config: JWT_SECRET must be at least 32 bytes for HS256 (RFC 7518 §3.2), got ${Buffer.byteLength(auth.secret)}`);
  }
  if (!Number.isFinite(auth.clockToleranceSec) || auth.clockToleranceSec < 0) {
    throw new TypeError(`gateway config: JWT_CLOCK_TOLERANCE_S must be a number >= 0, got ${String(auth.clockToleranceSec)}`);
  }
}

function checkUpstreamUrl(value: string, name: string): string {
  let url: URL;
  try { url = new URL(value); } catch { throw new TypeError(`gateway config: ${name} must be an absolute http(s) URL such as http://127.0.0.1:8080, got '${value}'`); }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`gateway config: ${name} must use http: or https:, got '${url.protocol}' in '${value}'`);
  if (url.search || url.hash) throw new TypeError(`gateway config: ${name} must not carry a query or fragment, got '${value}'`);
  return value.replace(/\/+$/, '');
}

type Env = Record<string, string | undefined>;

/** Read the documented environment variables (docs/gateway.md) into a config input. */
export function readGatewayConfig(env: Env = process.env): GatewayConfigInput {
  const auth: AuthConfig = bool(env, 'ALLOW_UNAUTHENTICATED_SSE', false)
    ? { mode: 'off' }
    : {
        mode: 'jwt',
        secret: str(env, 'JWT_SECRET'),
        publicKeyPem: str(env, 'JWT_PUBLIC_KEY')?.replace(/\\n/g, '\n'),
        jwks: readJwksFile(str(env, 'JWT_JWKS_FILE')),
        issuer: str(env, 'JWT_ISSUER'),
        audience: str(env, 'JWT_AUDIENCE'),
        clockToleranceSec: num(env, 'JWT_CLOCK_TOLERANCE_S', gatewayDefaults.clockToleranceSec),
      };
  return {
    upstreamUrl: checkUpstreamUrl(str(env, 'ADK_UPSTREAM_URL') ?? gatewayDefaults.upstreamUrl, 'ADK_UPSTREAM_URL'),
    ...(str(env, 'ANTHROPIC_UPSTREAM_URL') !== undefined ? { anthropicUpstreamUrl: checkUpstreamUrl(str(env, 'ANTHROPIC_UPSTREAM_URL') ?? '', 'ANTHROPIC_UPSTREAM_URL') } : {}),
    canonicalStreamEnabled: bool(env, 'ENABLE_ADK_CANONICAL_STREAM', false),
    auth,
    csrf: { skipLocalhost: bool(env, 'CSRF_SKIP_LOCALHOST', true), cookieName: str(env, 'CSRF_COOKIE_NAME') ?? gatewayDefaults.csrfCookieName },
    timeoutMs: num(env, 'GATEWAY_TIMEOUT_MS', gatewayDefaults.timeoutMs),
    authCookieName: str(env, 'AUTH_COOKIE_NAME') ?? gatewayDefaults.authCookieName,
    legacy: {
      replayEvents: num(env, 'LEGACY_REPLAY_EVENTS', gatewayDefaults.replayEvents),
      maxRuns: num(env, 'LEGACY_MAX_RUNS', gatewayDefaults.maxRuns),
      unreadTtlMs: num(env, 'LEGACY_UNREAD_TTL_MS', gatewayDefaults.unreadTtlMs),
    },
    bodyLimitBytes: num(env, 'GATEWAY_BODY_LIMIT_BYTES', gatewayDefaults.bodyLimitBytes),
    exposeStats: bool(env, 'GATEWAY_EXPOSE_STATS', true),
  };
}

function str(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const value = str(env, name);
  if (value === undefined) return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new TypeError(`environment: ${name} must be 'true' or 'false', got '${value}'`);
}

function num(env: Env, name: string, fallback: number): number {
  const value = str(env, name);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new TypeError(`environment: ${name} must be a non-negative number, got '${value}'`);
  return n;
}

function readJwksFile(path: string | undefined): JSONWebKeySet | undefined {
  if (path === undefined) return undefined;
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch (error) {
    throw new TypeError(`environment: JWT_JWKS_FILE names '${path}', which cannot be read (${(error as Error).message})`);
  }
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch (error) {
    throw new TypeError(`environment: JWT_JWKS_FILE '${path}' is not JSON (${(error as Error).message})`);
  }
  if (!parsed || typeof parsed !== 'object' || !Array.isArray((parsed as { keys?: unknown }).keys)) {
    throw new TypeError(`environment: JWT_JWKS_FILE '${path}' must hold a JWKS object {"keys": [...]}`);
  }
  return parsed as JSONWebKeySet;
}
