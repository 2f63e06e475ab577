/**
 * The verifier remembers tokens jose accepted (a performance fix, docs/performance.md): these
 * tests hold it to jose's own verdicts at the edges a remembered token could outlive.
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createJwtVerifier } from './auth.ts';

const secret = 'a-development-secret-of-32-bytes!';
const key = new TextEncoder().encode(secret);
const startSec = 1_800_000_000;

function clock() {
  let ms = startSec * 1000;
  return { now: () => ms, set: (sec: number) => { ms = sec * 1000; } };
}

const token = (claims: { exp: number; nbf?: number }, sub = 'u1') => {
  const jwt = new SignJWT({ sub }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(claims.exp);
  return (claims.nbf !== undefined ? jwt.setNotBefore(claims.nbf) : jwt).sign(key);
};

describe('JWT verifier remembering verified tokens', () => {
  it('a remembered token expires at exp plus the clock tolerance, as jose says', async () => {
    const c = clock();
    const verifier = createJwtVerifier({ mode: 'jwt', secret, clockToleranceSec: 5 }, c.now);
    const t = await token({ exp: startSec + 30 });
    expect(await verifier.verify(t)).toMatchObject({ ok: true, payload: { sub: 'u1' } });
    c.set(startSec + 34);
    expect(await verifier.verify(t)).toMatchObject({ ok: true });
    c.set(startSec + 36);
    expect(await verifier.verify(t)).toMatchObject({ ok: false, code: 'GW_AUTH_EXPIRED' });
  });

  it('a remembered token is checked again when the clock goes back before it was verified', async () => {
    const c = clock();
    const verifier = createJwtVerifier({ mode: 'jwt', secret, clockToleranceSec: 5 }, c.now);
    const t = await token({ exp: startSec + 600, nbf: startSec });
    expect(await verifier.verify(t)).toMatchObject({ ok: true });
    c.set(startSec - 60);
    expect(await verifier.verify(t)).toMatchObject({ ok: false, code: 'GW_AUTH_NOT_YET_VALID' });
  });

  it('a refused token stays refused and a changed token is verified on its own', async () => {
    const c = clock();
    const verifier = createJwtVerifier({ mode: 'jwt', secret, clockToleranceSec: 5 }, c.now);
    const good = await token({ exp: startSec + 60 });
    const [header, payload] = good.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    expect(await verifier.verify(good)).toMatchObject({ ok: true });
    for (let i = 0; i < 2; i++) expect(await verifier.verify(forged)).toMatchObject({ ok: false, code: 'GW_AUTH_BAD_SIGNATURE' });
  });

  it('the payload handed out is a copy, so a caller cannot change what is remembered', async () => {
    const verifier = createJwtVerifier({ mode: 'jwt', secret, clockToleranceSec: 5 }, clock().now);
    const t = await token({ exp: startSec + 60 });
    const first = await verifier.verify(t);
    if (first.ok) first.payload.sub = 'someone else';
    expect(await verifier.verify(t)).toMatchObject({ ok: true, payload: { sub: 'u1' } });
  });
});
