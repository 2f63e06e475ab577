/**
 * How the harness gets a valid CSRF token for one gateway instance (GW-CSRF-002; the contract is
 * in docs/harness-gateway.md "CSRF"). Seed 004 asks only for "Token validation on POST requests"
 * with a "Server-side check in middleware", so two schemes are certifiable:
 *
 * - **issued tokens**: the gateway answers `GET /csrf-token` (bearer token sent, as for any call)
 *   with 200 and `{"token": "..."}` (`csrfToken` is read too), and may set cookies; the harness
 *   sends the token in X-CSRF-Token on every POST, with those cookies, as a browser would;
 * - **double-submit cookie**: any other answer (404...) means the gateway issues none; the harness
 *   then sends a random token both in X-CSRF-Token and in the `csrf_token` cookie.
 *
 * Asked once per instance, right after it is ready; the token must stay valid for the instance's
 * life (a per-session token, not one per request).
 */
import http from 'node:http';
import { doubleSubmit, type CsrfMaterial } from './contract.ts';

export const csrfTokenPath = '/csrf-token';

type TokenAnswer = { status: number; body: string; setCookies: string[] };

/** One GET, settled within `timeoutMs` in all however the gateway answers (a trickle, a hang, a flood). */
function get(url: string, headers: Record<string, string>, timeoutMs: number): Promise<TokenAnswer | { error: string }> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (answer: TokenAnswer | { error: string }) => { if (!settled) { settled = true; clearTimeout(timer); resolve(answer); } };
    const req = http.request(url, { method: 'GET', headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > 64 * 1024) { req.destroy(); done({ error: 'the answer is larger than 64 KiB' }); return; }
        parts.push(chunk);
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8'), setCookies: res.headers['set-cookie'] ?? [] }));
      res.on('error', (error) => done({ error: error.message }));
    });
    const timer = setTimeout(() => { req.destroy(); done({ error: `no complete answer within ${timeoutMs} ms` }); }, timeoutMs);
    req.on('error', (error) => done({ error: error.message }));
    req.end();
  });
}

/** The issued token of an answer, when it is one (`{"token": "..."}` or `{"csrfToken": "..."}`). */
export function issuedToken(answer: { status: number; body: string }): string | undefined {
  if (answer.status !== 200) return undefined;
  try {
    const json = JSON.parse(answer.body) as Record<string, unknown> | null;
    const token = json?.token ?? json?.csrfToken;
    return typeof token === 'string' && token !== '' && !/[\r\n]/.test(token) ? token : undefined;
  } catch {
    return undefined;
  }
}

/** `name=value` of each Set-Cookie header (attributes dropped), as a browser sends them back. */
export function cookiePairs(setCookies: string[]): string[] {
  return setCookies.map((c) => (c.split(';')[0] ?? '').trim()).filter((pair) => /^[^=\s]+=/.test(pair));
}

/** Ask the instance for a token; fall back to the double-submit pair with `fallback` as the token. */
export async function discoverCsrf(baseUrl: string, bearer: string | undefined, fallback: string): Promise<CsrfMaterial> {
  const headers: Record<string, string> = { accept: 'application/json', ...(bearer !== undefined ? { authorization: `Bearer ${bearer}` } : {}) };
  const answer = await get(`${baseUrl}${csrfTokenPath}`, headers, 5000);
  if ('error' in answer) return doubleSubmit(fallback);
  const token = issuedToken(answer);
  return token === undefined ? doubleSubmit(fallback) : { source: 'endpoint', token, cookies: cookiePairs(answer.setCookies) };
}
