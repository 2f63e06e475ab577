import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearerToken, createJwtVerifier } from './auth.ts';

const now = () => 1_800_000_000_000;
const nowSec = 1_800_000_000;

describe('bearer token header', () => {
  it('accepts the Bearer scheme in any case', () => {
    expect(bearerToken('Bearer a.b.c')).toEqual({ ok: true, token: 'a.b.c' });
    expect(bearerToken('bearer a.b.c')).toEqual({ ok: true, token: 'a.b.c' });
  });

  it('tells a missing header from a malformed one', () => {
    expect(bearerToken(undefined)).toMatchObject({ ok: false, code: 'GW_AUTH_MISSING', reason: 'missing bearer token' });
    expect(bearerToken('Basic dXNlcjpwYXNz')).toMatchObject({ ok: false, code: 'GW_AUTH_MALFORMED' });
    expect(bearerToken('Bearer a b')).toMatchObject({ ok: false, code: 'GW_AUTH_MALFORMED' });
  });
});

describe('JWT verifier key types', () => {
  it('verifies ES256 with a P-256 PEM and pins the algorithm', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const verifier = createJwtVerifier({ mode: 'jwt', publicKeyPem: await exportSPKI(publicKey), clockToleranceSec: 5 }, now);
    const token = await new SignJWT({ sub: 'u1' }).setProtectedHeader({ alg: 'ES256' }).setExpirationTime(nowSec + 60).sign(privateKey);
    expect(await verifier.verify(token)).toMatchObject({ ok: true, payload: { sub: 'u1' } });
  });

  it('verifies RS256 against a local JWKS and refuses a kid it does not hold', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    const verifier = createJwtVerifier({ mode: 'jwt', jwks: { keys: [jwk] }, clockToleranceSec: 5 }, now);
    const good = await new SignJWT({ sub: 'u1' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setExpirationTime(nowSec + 60).sign(privateKey);
    const unknown = await new SignJWT({ sub: 'u1' }).setProtectedHeader({ alg: 'RS256', kid: 'k2' }).setExpirationTime(nowSec + 60).sign(privateKey);
    expect(await verifier.verify(good)).toMatchObject({ ok: true });
    expect(await verifier.verify(unknown)).toMatchObject({ ok: false, code: 'GW_AUTH_NO_MATCHING_KEY' });
  });

  it('checks issuer and audience when configured, and requires exp', async () => {
    const secret = 'a-development-secret-of-32-bytes!';
    const key = new TextEncoder().encode(secret);
    const verifier = createJwtVerifier({ mode: 'jwt', secret, issuer: 'gw', audience: 'adk', clockToleranceSec: 5 }, now);
    const sign = (iss: string, aud: string, exp = true) => {
      const jwt = new SignJWT({ sub: 'u1' }).setProtectedHeader({ alg: 'HS256' }).setIssuer(iss).setAudience(aud);
      return (exp ? jwt.setExpirationTime(nowSec + 60) : jwt).sign(key);
    };
    expect(await verifier.verify(await sign('gw', 'adk'))).toMatchObject({ ok: true });
    expect(await verifier.verify(await sign('other', 'adk'))).toMatchObject({ ok: false, code: 'GW_AUTH_CLAIM_INVALID', reason: expect.stringMatching(/^iss claim invalid/) });
    expect(await verifier.verify(await sign('gw', 'other'))).toMatchObject({ ok: false, code: 'GW_AUTH_CLAIM_INVALID', reason: expect.stringMatching(/^aud claim invalid/) });
    expect(await verifier.verify(await sign('gw', 'adk', false))).toMatchObject({ ok: false, code: 'GW_AUTH_CLAIM_INVALID', reason: expect.stringMatching(/no valid exp/) });
  });

  it('refuses a key that is not a PEM, and a key type it cannot pin', async () => {
    expect(() => createJwtVerifier({ mode: 'jwt', publicKeyPem: 'nope', clockToleranceSec: 5 }, now)).toThrow(/JWT_PUBLIC_KEY is not a PEM public key/);
    const { publicKey } = await generateKeyPair('EdDSA', { extractable: true });
    const pem = await exportSPKI(publicKey);
    expect(() => createJwtVerifier({ mode: 'jwt', publicKeyPem: pem, clockToleranceSec: 5 }, now)).toThrow(/must be an RSA \(RS256\) or P-256 EC \(ES256\) public key, got ed25519/);
  });
});
