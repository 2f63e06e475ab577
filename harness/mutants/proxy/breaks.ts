/**
 * The defects real teams ship in a cookie-to-bearer proxy, each as one replaced step of the
 * reference proxy (reference-impl/sse-proxy.ts). harness/mutants/proxy.mutants.test.ts proves the
 * harness fails each with exactly the requirements index.ts names.
 */
import type http from 'node:http';
import { referenceSteps, type ProxyRequestView, type SseProxySteps } from '../../../reference-impl/sse-proxy.ts';

export const proxyBreaks: Record<string, Partial<SseProxySteps>> = {
  // An EventSource habit carried over: the token goes along in the backend URL "for the logs".
  'token-in-backend-url': { backendUrl: (config, token) => `${config.backendUrl.replace(/\/+$/, '')}/run_sse?access_token=${encodeURIComponent(token)}` },
  // "Works with EventSource too": a token in the request's own query string is accepted when there is no cookie.
  'accepts-url-token': { token: (req, config) => req.cookies.get(config.authCookieName) || req.url.searchParams.get('access_token') || req.url.searchParams.get('token') || undefined },
  // A development fallback left in: no cookie, so the proxy's own service token is used.
  'service-token-fallback': { token: (req, config) => req.cookies.get(config.authCookieName) || process.env.ADK_SERVICE_TOKEN || 'service-token' },
  // Seed 004's own client advice applied server-side: split by "\n\n", keep the data lines, write them back.
  'reframes-events': {
    relay(backend, res) {
      res.writeHead(backend.statusCode ?? 502, { 'content-type': String(backend.headers['content-type'] ?? 'text/event-stream'), 'cache-control': 'no-cache' });
      res.flushHeaders();
      let pending = '';
      backend.setEncoding('utf8');
      backend.on('data', (text: string) => {
        pending += text;
        const blocks = pending.split('\n\n');
        pending = blocks.pop() ?? '';
        for (const block of blocks) {
          const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
          if (data.length > 0) res.write(`data: ${data.join('\n')}\n\n`);
        }
      });
      backend.on('end', () => res.end());
      backend.on('error', () => res.destroy());
    },
  },
  // `await response.text()` before answering: the whole stream at once.
  'buffers-body': {
    relay(backend, res) {
      const parts: Buffer[] = [];
      backend.on('data', (chunk: Buffer) => parts.push(chunk));
      backend.on('end', () => {
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(backend.headers)) if (value !== undefined && name !== 'transfer-encoding' && name !== 'connection') headers[name] = value;
        res.writeHead(backend.statusCode ?? 502, headers);
        res.end(Buffer.concat(parts));
      });
      backend.on('error', () => res.destroy());
    },
  },
  // Next.js's `if (!res.ok) return NextResponse.json({ error: await res.text() }, { status: res.status })`:
  // the status survives, the backend's Content-Type and body do not.
  'rewrites-error-answers': {
    relay(backend, res) {
      const status = backend.statusCode ?? 502;
      if (status < 400) { referenceSteps.relay(backend, res); return; }
      const parts: Buffer[] = [];
      backend.on('data', (chunk: Buffer) => parts.push(chunk));
      backend.on('end', () => {
        const text = JSON.stringify({ error: Buffer.concat(parts).toString('utf8') });
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
        res.end(text);
      });
      backend.on('error', () => res.destroy());
    },
  },
  // "localhost is the developer's machine": a Host header saying localhost skips the cookie and the CSRF
  // check (a dev token, a pair of its own), and any client can write that header.
  'trusts-localhost-host': {
    token: (req, config) => req.cookies.get(config.authCookieName) || (isLocalHost(req) ? process.env.DEV_ACCESS_TOKEN ?? 'dev-access-token' : undefined),
    backendHeaders(req, token, config) {
      const headers = referenceSteps.backendHeaders(req, token, config);
      return isLocalHost(req) && req.headers['x-csrf-token'] === undefined ? { ...headers, 'x-csrf-token': 'local-dev', cookie: `${config.csrfCookieName}=local-dev` } : headers;
    },
  },
  // The client's close is never passed on: the backend run streams on to nobody.
  'ignores-disconnect': { passDisconnect: false },
  // "CSRF kept failing behind the proxy": the proxy fills in a matching pair of its own on every call.
  'mints-csrf': {
    backendHeaders(req, token, config) {
      const headers = referenceSteps.backendHeaders(req, token, config);
      return { ...headers, 'x-csrf-token': 'proxy-minted-csrf-token', cookie: `${config.csrfCookieName}=proxy-minted-csrf-token` };
    },
  },
  // Next.js's `body: JSON.stringify(await request.json())`: the same value, but an integer above
  // 2^53 comes out rounded (the length changes, so the browser's Content-Length is not passed on).
  'reparses-body': {
    backendHeaders: (req, token, config) => withoutLength(referenceSteps.backendHeaders(req, token, config)),
    forwardBody: (req, backendReq) => rewriteBody(req, backendReq, (body) => body),
  },
  // A route that builds the backend body from the fields it knows: stateDelta, invocationId and the
  // parts' other fields are gone.
  'rebuilds-body': {
    backendHeaders: (req, token, config) => withoutLength(referenceSteps.backendHeaders(req, token, config)),
    forwardBody: (req, backendReq) => rewriteBody(req, backendReq, (body) => {
      const b = body as { appName?: unknown; userId?: unknown; sessionId?: unknown; newMessage?: { role?: unknown; parts?: Array<{ text?: unknown }> }; streaming?: unknown };
      return { appName: b.appName, userId: b.userId, sessionId: b.sessionId, newMessage: { role: b.newMessage?.role, parts: (b.newMessage?.parts ?? []).map((p) => ({ text: p.text })) }, streaming: b.streaming };
    }),
  },
};

/** What a Next.js route reads as `req.nextUrl.hostname`: the request's own Host header. */
function isLocalHost(req: ProxyRequestView): boolean {
  const host = String(req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
  return host === 'localhost';
}

export function proxyBreakNamed(name: string): Partial<SseProxySteps> {
  const b = proxyBreaks[name];
  if (!b) throw new Error(`unknown proxy break '${name}'; known: ${Object.keys(proxyBreaks).join(', ')}`);
  return b;
}

function withoutLength(headers: Record<string, string>): Record<string, string> {
  const { 'content-length': _length, ...rest } = headers;
  return rest;
}

/** Read the whole body, parse it as JavaScript does, write `edit` of it as JSON (a body that is not JSON goes on as it came). */
function rewriteBody(req: http.IncomingMessage, backendReq: http.ClientRequest, edit: (body: unknown) => unknown): void {
  const parts: Buffer[] = [];
  req.on('data', (chunk: Buffer) => parts.push(chunk));
  req.on('end', () => {
    const text = Buffer.concat(parts).toString('utf8');
    try { backendReq.end(JSON.stringify(edit(JSON.parse(text)))); } catch { backendReq.end(text); }
  });
}
