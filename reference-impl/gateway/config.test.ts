import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGatewayConfig, resolveGatewayConfig } from './config.ts';

const secret = 'a-development-secret-of-32-bytes!';

describe('gateway config', () => {
  it('reads the seed defaults from an empty environment plus a key', () => {
    const config = resolveGatewayConfig(readGatewayConfig({ JWT_SECRET: secret }));
    expect(config).toMatchObject({
      upstreamUrl: 'http://127.0.0.1:8080',
      anthropicUpstreamUrl: 'http://127.0.0.1:8080',
      canonicalStreamEnabled: false,
      timeoutMs: 300_000,
      authCookieName: 'access_token',
      csrf: { skipLocalhost: true, cookieName: 'csrf_token' },
      legacy: { replayEvents: 1000, maxRuns: 100, unreadTtlMs: 300_000 },
      auth: { mode: 'jwt', secret, clockToleranceSec: 5 },
    });
  });

  it('reads every documented variable', () => {
    const config = resolveGatewayConfig(readGatewayConfig({
      ADK_UPSTREAM_URL: 'http://127.0.0.1:9/', ANTHROPIC_UPSTREAM_URL: 'http://127.0.0.1:10', ENABLE_ADK_CANONICAL_STREAM: 'true', ALLOW_UNAUTHENTICATED_SSE: 'true',
      CSRF_SKIP_LOCALHOST: 'false', CSRF_COOKIE_NAME: 'xsrf', GATEWAY_TIMEOUT_MS: '1500', AUTH_COOKIE_NAME: 'jwt',
      LEGACY_REPLAY_EVENTS: '5', LEGACY_MAX_RUNS: '2', LEGACY_UNREAD_TTL_MS: '10', GATEWAY_BODY_LIMIT_BYTES: '1024', GATEWAY_EXPOSE_STATS: 'false',
    }));
    expect(config).toMatchObject({
      upstreamUrl: 'http://127.0.0.1:9', anthropicUpstreamUrl: 'http://127.0.0.1:10', canonicalStreamEnabled: true, auth: { mode: 'off' },
      csrf: { skipLocalhost: false, cookieName: 'xsrf' }, timeoutMs: 1500, authCookieName: 'jwt',
      legacy: { replayEvents: 5, maxRuns: 2, unreadTtlMs: 10 }, bodyLimitBytes: 1024, exposeStats: false,
    });
  });

  it('reads a JWKS file and a PEM with escaped newlines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-config-'));
    const file = join(dir, 'jwks.json');
    writeFileSync(file, JSON.stringify({ keys: [] }));
    expect(readGatewayConfig({ JWT_JWKS_FILE: file }).auth).toMatchObject({ mode: 'jwt', jwks: { keys: [] } });
    expect(readGatewayConfig({ JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\\nAAAA\\n-----END PUBLIC KEY-----' }).auth).toMatchObject({ publicKeyPem: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----' });
  });

  it('names the variable and the fix for a value it cannot read', () => {
    expect(() => readGatewayConfig({ ENABLE_ADK_CANONICAL_STREAM: 'yes' })).toThrow("ENABLE_ADK_CANONICAL_STREAM must be 'true' or 'false', got 'yes'");
    expect(() => readGatewayConfig({ GATEWAY_TIMEOUT_MS: 'soon' })).toThrow("GATEWAY_TIMEOUT_MS must be a non-negative number, got 'soon'");
    expect(() => readGatewayConfig({ ADK_UPSTREAM_URL: 'localhost:8080' })).toThrow(/ADK_UPSTREAM_URL must use http: or https:/);
    expect(() => readGatewayConfig({ ADK_UPSTREAM_URL: 'not a url' })).toThrow(/ADK_UPSTREAM_URL must be an absolute http\(s\) URL/);
    expect(() => readGatewayConfig({ JWT_JWKS_FILE: '/nonexistent/jwks.json' })).toThrow(/JWT_JWKS_FILE names '\/nonexistent\/jwks.json', which cannot be read/);
  });

  it('refuses JWT auth without exactly one key, and a short HS256 secret', () => {
    expect(() => resolveGatewayConfig(readGatewayConfig({}))).toThrow(/exactly one key source .* got 0; for development without tokens set ALLOW_UNAUTHENTICATED_SSE=true/);
    expect(() => resolveGatewayConfig(readGatewayConfig({ JWT_SECRET: secret, JWT_PUBLIC_KEY: 'x' }))).toThrow(/got 2/);
    expect(() => resolveGatewayConfig(readGatewayConfig({ JWT_SECRET: 'short' }))).toThrow(/JWT_SECRET must be at least 32 bytes/);
  });

  it('refuses a programmatic config without auth and non-positive bounds', () => {
    expect(() => resolveGatewayConfig({} as never)).toThrow(/config.auth is required/);
    expect(() => resolveGatewayConfig({ auth: { mode: 'off' }, timeoutMs: 0 })).toThrow('timeoutMs must be a positive number, got 0');
  });
});
