/**
 * Breaks of what the gateway lets in and forwards: the flag, JWT checks, CSRF, request
 * validation and forwarding, the cookie proxy and the legacy endpoints.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { flagDisabledBody, routeConfig } from '../../../reference-impl/gateway/access.ts';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { checkRunAgentRequest } from '../../../reference-impl/gateway/run-request.ts';
import { streamHeaders } from '../../../reference-impl/gateway/run-sse-route.ts';
import { streamUpstream } from '../../../reference-impl/gateway/upstream.ts';
import { editResponse, isStreamPost, type GatewayBreak, type MutantContext } from './host.ts';

function bearer(req: http.IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7) : undefined;
}

function algOf(token: string): string | undefined {
  try { return decodeProtectedHeader(token).alg; } catch { return undefined; }
}

const jwtOf = (ctx: MutantContext) => (ctx.config.auth.mode === 'jwt' ? ctx.config.auth : undefined);
const upstreamOf = (ctx: MutantContext) => (ctx.config.upstreamUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const pathOf = (req: http.IncomingMessage) => (req.url ?? '').split('?')[0] ?? '';
const legacyPath = /^\/apps\/[^/]+\/users\/[^/]+\/sessions\/[^/]+\/run$/;

/**
 * CSRF by server-issued tokens instead of the reference's double-submit cookie (seed 004 asks only
 * for "Token validation on POST requests" with a "Server-side check in middleware"): `GET
 * /csrf-token` issues a token, and every POST must carry an issued one in X-CSRF-Token (after the
 * JWT check, before the body is read). The reference's own check is left to its localhost skip.
 * `strict: false` is the mutant: any non-empty token passes.
 */
function serverTokenCsrf(strict: boolean): GatewayBreak {
  const issued = new Set<string>();
  return {
    config: (c) => ({ ...c, csrf: { ...c.csrf, skipLocalhost: true } }),
    app(app) {
      app.get('/csrf-token', { config: routeConfig({ public: true }) }, async (_request, reply) => {
        const token = randomBytes(32).toString('base64url');
        issued.add(token);
        return reply.header('cache-control', 'no-store').send({ token });
      });
      app.addHook('onRequest', async (request, reply) => {
        if (reply.sent || request.method !== 'POST' || request.routeOptions.url === undefined) return;
        const token = request.headers['x-csrf-token'];
        const ok = typeof token === 'string' && token !== '' && (!strict || issued.has(token));
        if (!ok) await reply.code(403).send({ error: 'Forbidden', code: 'GW_CSRF_INVALID', reason: 'missing or unknown X-CSRF-Token' });
      });
    },
  };
}

export const accessBreaks: Record<string, GatewayBreak> = {
  'ignores-flag': { config: (c) => ({ ...c, canonicalStreamEnabled: true }) },
  /**
   * The flag checked in the handler, after the body was validated (FastAPI parses the
   * RunAgentRequest model before the handler's `if not ENABLE_ADK_CANONICAL_STREAM`): switched
   * off, a valid body gets the 501 and an invalid one the 422.
   */
  'flag-after-validation': {
    config: (c) => ({ ...c, canonicalStreamEnabled: true }),
    app(app, ctx) {
      const enabled = ctx.env.ENABLE_ADK_CANONICAL_STREAM === 'true';
      app.addHook('preHandler', async (request, reply) => {
        if (enabled || !isStreamPost(request.raw) || !checkRunAgentRequest(request.body).ok) return;
        await reply.code(501).type('application/json').send(flagDisabledBody);
      });
    },
  },
  'accepts-alg-none': { request: (req) => { const t = bearer(req); return t !== undefined && algOf(t)?.toLowerCase() === 'none' ? 'open' : 'gateway'; } },
  /** With an RSA public key configured, an HS256 token is MACed-checked with the key's PEM text. */
  'hs-rs-confusion': {
    async request(req, _res, ctx) {
      const t = bearer(req);
      const pem = jwtOf(ctx)?.publicKeyPem;
      if (t === undefined || pem === undefined || algOf(t) !== 'HS256') return 'gateway';
      try { await jwtVerify(t, new TextEncoder().encode(pem)); return 'open'; } catch { return 'gateway'; }
    },
  },
  /** A token whose signature does not verify is still taken when its claims are current. */
  'ignores-signature': {
    async request(req, _res, ctx) {
      const t = bearer(req);
      const secret = jwtOf(ctx)?.secret;
      if (t === undefined || secret === undefined || algOf(t) !== 'HS256') return 'gateway';
      try {
        await jwtVerify(t, new TextEncoder().encode(secret));
        return 'gateway';
      } catch (error) {
        return (error as { code?: string }).code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' ? 'open' : 'gateway';
      }
    },
  },
  'accepts-expired': { config: (c) => (c.auth.mode === 'jwt' ? { ...c, auth: { ...c.auth, clockToleranceSec: 10 * 24 * 3600 } } : c) },
  'allows-missing-token': { request: (req) => (isStreamPost(req) && req.headers.authorization === undefined ? 'open' : 'gateway') },
  /** Every POST gets a matching CSRF pair before the check sees it. */
  'skips-csrf': {
    request(req, _res, ctx) {
      const name = ctx.config.csrf?.cookieName ?? 'csrf_token';
      const cookies = (req.headers.cookie ?? '').split(';').map((c) => c.trim()).filter((c) => c !== '' && !c.startsWith(`${name}=`));
      req.headers.cookie = [...cookies, `${name}=mutant`].join('; ');
      req.headers['x-csrf-token'] = 'mutant';
      return 'gateway';
    },
  },
  /**
   * Seed 004's "CSRF validation skipped for `localhost`" read off the Host header, as the
   * seed-literal FastAPI gateway does (`request.url.hostname == "localhost"`): with the skip on, a
   * POST whose Host says localhost gets a matching pair, whoever sent it. The reference's own skip
   * (a loopback peer) is off, so every other request is checked.
   */
  'csrf-skip-by-host-header': {
    config: (c) => ({ ...c, csrf: { ...c.csrf, skipLocalhost: false } }),
    request(req, _res, ctx) {
      const hostname = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
      if (ctx.env.CSRF_SKIP_LOCALHOST === 'false' || hostname !== 'localhost' || req.method !== 'POST') return 'gateway';
      const name = ctx.config.csrf?.cookieName ?? 'csrf_token';
      const cookies = (req.headers.cookie ?? '').split(';').map((c) => c.trim()).filter((c) => c !== '' && !c.startsWith(`${name}=`));
      req.headers.cookie = [...cookies, `${name}=mutant`].join('; ');
      req.headers['x-csrf-token'] = 'mutant';
      return 'gateway';
    },
  },
  /** Any X-CSRF-Token passes: the double-submit cookie is set to whatever the header says. */
  'csrf-accepts-any-token': {
    request(req, _res, ctx) {
      const token = req.headers['x-csrf-token'];
      if (req.method !== 'POST' || typeof token !== 'string' || token === '') return 'gateway';
      const name = ctx.config.csrf?.cookieName ?? 'csrf_token';
      const cookies = (req.headers.cookie ?? '').split(';').map((c) => c.trim()).filter((c) => c !== '' && !c.startsWith(`${name}=`));
      req.headers.cookie = [...cookies, `${name}=${token}`].join('; ');
      return 'gateway';
    },
  },
  /** Not a mutant: the reference with server-issued CSRF tokens, which must certify as well. */
  'server-token-csrf': serverTokenCsrf(true),
  'server-token-accepts-any': serverTokenCsrf(false),
  /** `Authorization` from `?token=` when the header is missing (so an EventSource can connect). */
  'accepts-token-in-url': {
    request(req) {
      const url = new URL(req.url ?? '/', 'http://gateway');
      const token = url.searchParams.get('token');
      if (isStreamPost(req) && token && req.headers.authorization === undefined) {
        req.headers.authorization = `Bearer ${token}`;
        req.url = url.pathname;
      }
      return 'gateway';
    },
  },
  /** The cookie proxy falls back to `?access_token=` when the cookie is missing. */
  'proxy-token-in-url': {
    request(req, _res, ctx) {
      const url = new URL(req.url ?? '/', 'http://gateway');
      const token = url.searchParams.get('access_token');
      const name = ctx.config.authCookieName ?? 'access_token';
      if (req.method === 'POST' && url.pathname === '/api/sse/run_sse' && token && !(req.headers.cookie ?? '').includes(`${name}=`)) {
        req.headers.cookie = [req.headers.cookie, `${name}=${token}`].filter(Boolean).join('; ');
        req.url = url.pathname;
      }
      return 'gateway';
    },
  },
  'proxy-trusts-any-cookie': { request: (req) => (req.method === 'POST' && pathOf(req) === '/api/sse/run_sse' ? 'open' : 'gateway') },
  /** An invalid body is proxied upstream as it came, with the stream headers. */
  'forwards-invalid-bodies': {
    app(app, ctx) {
      app.addHook('preHandler', async (request, reply) => {
        if (!isStreamPost(request.raw) || checkRunAgentRequest(request.body).ok) return;
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, streamHeaders);
        await streamUpstream({ url: `${upstreamOf(ctx)}${pathOf(request.raw)}`, body: JSON.stringify(request.body ?? null), timeoutMs: 10_000 }, {
          write: (chunk) => res.write(chunk),
          onceDrain: (resume) => { res.once('drain', resume); },
        });
        res.end();
      });
    },
  },
  /** The body goes upstream first; the gateway refuses it only afterwards. */
  'validates-after-forwarding': {
    app(app, ctx) {
      app.addHook('preHandler', async (request) => {
        if (!isStreamPost(request.raw) || checkRunAgentRequest(request.body).ok) return;
        try {
          const res = await fetch(`${upstreamOf(ctx)}${pathOf(request.raw)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request.body ?? null) });
          await res.body?.cancel();
        } catch { /* the refusal follows either way */ }
      });
    },
  },
  'unnamed-validation-errors': {
    app(app) {
      app.addHook('onSend', async (request, reply, payload) => (isStreamPost(request.raw) && reply.statusCode >= 400 && reply.statusCode < 500 && reply.statusCode !== 401 && reply.statusCode !== 403 ? '{"error":"Bad Request"}' : payload));
    },
  },
  'drops-state-delta': {
    app(app) {
      app.addHook('preHandler', async (request) => {
        const body = request.body as Record<string, unknown> | null;
        if (isStreamPost(request.raw) && body && typeof body === 'object') { delete body.stateDelta; delete body.state_delta; }
      });
    },
  },
  /** `parts: [{"text": p.text} for p in parts]`: a message model that knows only text parts. */
  'text-parts-only': {
    app(app) {
      app.addHook('preHandler', async (request) => {
        const message = (request.body as { newMessage?: { parts?: unknown } } | null)?.newMessage;
        if (!isStreamPost(request.raw) || !message || !Array.isArray(message.parts)) return;
        message.parts = message.parts.filter((p): p is { text: string } => typeof (p as { text?: unknown } | null)?.text === 'string').map((p) => ({ text: p.text }));
      });
    },
  },
  /**
   * A Part model with `text` as its only field (seed 004's `Array<{text: string}>` as a pydantic
   * class, which ignores unknown keys): a text part loses `thought` and `thoughtSignature`; the
   * other parts go on as they came.
   */
  'drops-text-part-fields': {
    app(app) {
      app.addHook('preHandler', async (request) => {
        const message = (request.body as { newMessage?: { parts?: unknown } } | null)?.newMessage;
        if (!isStreamPost(request.raw) || !message || !Array.isArray(message.parts)) return;
        message.parts = message.parts.map((p) => (typeof (p as { text?: unknown } | null)?.text === 'string' ? { text: (p as { text: string }).text } : p));
      });
    },
  },
  /** A request model whose parts are `list[TextPart]`: any other part is refused with 422. */
  'refuses-non-text-parts': {
    app(app) {
      app.addHook('preHandler', async (request, reply) => {
        const parts = (request.body as { newMessage?: { parts?: unknown } } | null)?.newMessage?.parts;
        if (!isStreamPost(request.raw) || !Array.isArray(parts)) return;
        const bad = parts.findIndex((p) => typeof (p as { text?: unknown } | null)?.text !== 'string');
        if (bad >= 0) await reply.code(422).send({ detail: [{ loc: ['body', 'newMessage', 'parts', bad, 'text'], msg: 'Field required', type: 'missing' }] });
      });
    },
  },
  'legacy-post-no-success': {
    app(app) {
      app.addHook('onSend', async (request, reply, payload) => (request.method === 'POST' && legacyPath.test(pathOf(request.raw)) && reply.statusCode === 200 ? '{"started":true}' : payload));
    },
  },
  'legacy-no-complete': {
    request(req, res) {
      if (req.method === 'GET' && legacyPath.test(pathOf(req))) {
        editResponse(res, { streamsOnly: true, write(chunk, emit) { if (!chunk.toString('utf8').includes('event: research_complete')) emit(chunk); } });
      }
      return 'gateway';
    },
  },
};
