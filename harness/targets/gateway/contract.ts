/**
 * The harness's gateway contract (docs/harness-gateway.md): the environment each gateway instance
 * is started with, the credentials the harness mints for it, the request a client sends for a
 * scenario, and what the mock writes for that request (its deterministic rendering).
 */
import { randomBytes } from 'node:crypto';
import { SignJWT, exportSPKI, generateKeyPair } from 'jose';
import { applyFaults } from '../../../mock-adk/core/faults.ts';
import { render } from '../../../mock-adk/core/render.ts';
import type { Scenario } from '../../../schemas/types.ts';
import type { ScriptedWait, UpstreamScript } from '../../checks/gateway/types.ts';

/**
 * The instances a command-mode run starts. `main` serves every scenario and most probes;
 * `flag-off` has no ENABLE_ADK_CANONICAL_STREAM; `alt` verifies RS256 tokens against a public
 * key (the HS/RS confusion probe) and has a total timeout of a few seconds (the timing probes);
 * `refused` points at a port nothing listens on; `memory` streams from an upstream of its own (the
 * memory probe's thousands of runs, on a process nothing else uses); `local-dev` has the seed's
 * localhost CSRF skip on (CSRF_SKIP_LOCALHOST=true), for GW-HOST-001 alone.
 */
export type InstanceKind = 'main' | 'flag-off' | 'alt' | 'refused' | 'memory' | 'local-dev';

export type ContractSettings = {
  mockUrl: string;
  /** An upstream URL whose port refuses connections. */
  refusedUrl: string;
  jwtSecret: string;
  publicKeyPem: string;
  /** GATEWAY_TIMEOUT_MS of every instance but `alt`: longer than any scenario (seed 004's own 300 s). */
  mainTimeoutMs: number;
  /** GATEWAY_TIMEOUT_MS of `alt`: a few seconds, so the timing probes hold the upstream silent for longer than a read timeout and still end quickly. */
  timingTimeoutMs: number;
  /** ADK_UPSTREAM_URL of `memory`: the harness's fixed-answer upstream (the mock's journal stays small). */
  memoryUpstreamUrl: string;
  /** NODE_OPTIONS of `memory`: the inherited ones plus `--inspect=127.0.0.1:<port>` (inspector.ts). */
  memoryNodeOptions: string;
};

export const csrfCookieName = 'csrf_token';
export const authCookieName = 'access_token';

/** The environment an instance of `kind` is started with: the contract a gateway must honour. */
export function contractEnv(kind: InstanceKind, port: number, s: ContractSettings): Record<string, string> {
  return {
    PORT: String(port),
    ADK_UPSTREAM_URL: kind === 'refused' ? s.refusedUrl : kind === 'memory' ? s.memoryUpstreamUrl : s.mockUrl,
    ENABLE_ADK_CANONICAL_STREAM: kind === 'flag-off' ? 'false' : 'true',
    ALLOW_UNAUTHENTICATED_SSE: 'false',
    JWT_SECRET: kind === 'alt' ? '' : s.jwtSecret,
    JWT_PUBLIC_KEY: kind === 'alt' ? s.publicKeyPem : '',
    JWT_JWKS_FILE: '',
    JWT_ISSUER: '',
    JWT_AUDIENCE: '',
    CSRF_SKIP_LOCALHOST: kind === 'local-dev' ? 'true' : 'false',
    CSRF_COOKIE_NAME: csrfCookieName,
    AUTH_COOKIE_NAME: authCookieName,
    GATEWAY_TIMEOUT_MS: String(kind === 'alt' ? s.timingTimeoutMs : s.mainTimeoutMs),
    ...(kind === 'memory' ? { NODE_OPTIONS: s.memoryNodeOptions } : {}),
  };
}

export type Credentials = {
  secret: string;
  publicKeyPem: string;
  /** HS256 with the secret: accepted by every instance but `alt`. */
  valid: string;
  /** RS256 with the private key: accepted by `alt`. */
  validRs: string;
  expired: string;
  notYetValid: string;
  /** `alg: none`, no signature. */
  unsigned: string;
  /** HS256 with another secret. */
  wrongKey: string;
  /** HS256 MACed with the public key's PEM text: the HS/RS confusion attack on `alt`. */
  confused: string;
  csrf: string;
};

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function createCredentials(secret = randomBytes(32).toString('base64url')): Promise<Credentials> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicKeyPem = await exportSPKI(publicKey);
  const now = Math.floor(Date.now() / 1000);
  const key = new TextEncoder().encode(secret);
  const claims = { sub: 'adk-conformance' };
  const hs = (payload: Record<string, unknown>, k: Uint8Array = key) => new SignJWT({ ...claims, ...payload }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(k);
  const day = { iat: now, exp: now + 24 * 3600 };
  return {
    secret,
    publicKeyPem,
    valid: await hs(day),
    validRs: await new SignJWT({ ...claims, ...day }).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(privateKey),
    expired: await hs({ iat: now - 7200, exp: now - 3600 }),
    notYetValid: await hs({ iat: now, nbf: now + 3600, exp: now + 7200 }),
    unsigned: `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...claims, ...day })}.`,
    wrongKey: await hs(day, new TextEncoder().encode(randomBytes(32).toString('base64url'))),
    confused: await hs(day, new TextEncoder().encode(publicKeyPem)),
    csrf: randomBytes(32).toString('hex'),
  };
}

/**
 * How the harness proves a request is not forged (GW-CSRF-002, docs/harness-gateway.md "CSRF"):
 * a token the gateway issued at `GET /csrf-token` (with the cookies it set, as a browser would send
 * them back), or, when the gateway issues none, the double-submit pair: a random token in the
 * X-CSRF-Token header and in the `csrf_token` cookie.
 */
export type CsrfMaterial = { source: 'endpoint' | 'double-submit'; token: string; cookies: string[] };

/** The double-submit pair for a token the harness chose. */
export function doubleSubmit(token: string): CsrfMaterial {
  return { source: 'double-submit', token, cookies: [`${csrfCookieName}=${token}`] };
}

/** Headers of a well-formed request: bearer token (when there is one) and a valid CSRF token with its cookies. */
export function clientHeaders(token: string | undefined, csrf: CsrfMaterial, extraCookies: string[] = []): Record<string, string> {
  const cookies = [...csrf.cookies, ...extraCookies];
  return {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    // What a browser sends: a gateway that compresses the stream holds events back (GW-PASS-005).
    'accept-encoding': 'gzip, deflate, br',
    ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
    'x-csrf-token': csrf.token,
    ...(cookies.length > 0 ? { cookie: cookies.join('; ') } : {}),
  };
}

export type RunTarget = { appName: string; userId: string; sessionId: string };

/** The seed's RunAgentRequest for a scenario, with every model field the scenario sets (`streaming` explicit). */
export function runBody(scenario: Scenario, target: RunTarget): Record<string, unknown> {
  return {
    appName: target.appName,
    userId: target.userId,
    sessionId: target.sessionId,
    newMessage: { role: 'user', parts: [{ text: scenario.request.message }] },
    streaming: scenario.request.streaming ?? false,
    ...(scenario.request.stateDelta ? { stateDelta: scenario.request.stateDelta } : {}),
  };
}

export function endpointOf(scenario: Scenario): string {
  return scenario.request.endpoint ?? '/run_sse';
}

/**
 * What the mock writes for this run: the scenario rendered in its own dialect (the harness arms
 * it so) for this session, with the scenario's faults and the armed ones. Deterministic.
 */
export function upstreamScript(scenario: Scenario, target: RunTarget, streaming: boolean, faults: Array<Record<string, unknown>> = []): UpstreamScript {
  const plan = applyFaults(render(scenario, {
    dialect: scenario.dialect,
    streaming,
    appName: target.appName,
    userId: target.userId,
    sessionId: target.sessionId,
    ...(endpointOf(scenario) === '/run_sse_enhanced' ? { enhanced: true } : {}),
  }), [...((scenario.faults ?? []) as Array<Record<string, unknown>>), ...faults]);
  const waits: ScriptedWait[] = [];
  let offset = 0;
  let pending = 0;
  for (const chunk of plan.chunks) {
    pending += chunk.delayMs;
    if (chunk.bytes.byteLength === 0) continue;
    if (pending > 0) waits.push({ offset, ms: pending });
    pending = 0;
    offset += chunk.bytes.byteLength;
  }
  // A wait before EOF (or before the headers) still counts towards how long the run takes.
  const tail = pending + (plan.headersDelayMs ?? 0);
  if (tail > 0) waits.push({ offset, ms: tail });
  const bytes = new Uint8Array(offset);
  let at = 0;
  for (const chunk of plan.chunks) { bytes.set(chunk.bytes, at); at += chunk.bytes.byteLength; }
  return { status: plan.status, bytes, end: plan.end, waits };
}

/** Total scripted waiting of a script, in ms (for read bounds). */
export function scriptedMs(script: UpstreamScript): number {
  return script.waits.reduce((sum, w) => sum + w.ms, 0);
}
