/**
 * The reference cookie-to-bearer SSE proxy of seed 004 § Frontend SSE Proxy Pattern, as its own
 * server (the seed builds it as a Next.js API route in front of the backend):
 *
 *   "JWT tokens must not be exposed in browser URLs"; "Server-side Next.js API route extracts
 *   tokens from cookies and forwards to backend"; `POST /api/sse/run_sse` → `POST /run_sse with
 *   Authorization header`; "CSRF protection maintained".
 *
 * Plain node:http, as small as the route it stands for: the token comes only from the HttpOnly
 * cookie and goes only into the backend's Authorization header; the request's own URL is never
 * read for a credential; the CSRF header and cookie go on to the backend, whose middleware checks
 * them; the backend's status, headers and body bytes come back unchanged and unbuffered; a client
 * that leaves closes the backend request. docs/proxy-contract.md is the contract the harness
 * certifies (`run --proxy-cmd` / `--proxy`).
 *
 * `steps` exists for the kit's mutants (harness/mutants/proxy): each replaces one step with a
 * defect real teams ship. A caller of the reference never passes it.
 */
import http from 'node:http';

export type SseProxyConfig = {
  /** Base URL of the backend gateway; `/run_sse` is appended. */
  backendUrl: string;
  /** The HttpOnly cookie holding the bearer token (AUTH_COOKIE_NAME, default `access_token`). */
  authCookieName?: string;
  /** The CSRF cookie of the double-submit pair (CSRF_COOKIE_NAME, default `csrf_token`). */
  csrfCookieName?: string;
  /** The header echoing the CSRF cookie (CSRF_HEADER_NAME, default seed 004's `X-CSRF-Token`). */
  csrfHeaderName?: string;
};

export type ProxyRequestView = { url: URL; headers: http.IncomingHttpHeaders; cookies: Map<string, string> };

export type SseProxySteps = {
  /** The bearer token of a request, or undefined (then the proxy answers 401 itself). */
  token: (req: ProxyRequestView, config: Required<SseProxyConfig>) => string | undefined;
  /** The backend URL the run goes to. */
  backendUrl: (config: Required<SseProxyConfig>, token: string) => string;
  /** The headers of the backend request. */
  backendHeaders: (req: ProxyRequestView, token: string, config: Required<SseProxyConfig>) => Record<string, string>;
  /** Copy the backend's answer to the client. */
  relay: (backend: http.IncomingMessage, res: http.ServerResponse) => void;
  /** Send the browser's request body on as the backend request's body, and end it. */
  forwardBody: (req: http.IncomingMessage, backendReq: http.ClientRequest) => void;
  /** Whether a client that leaves closes the backend request. */
  passDisconnect: boolean;
};

export const proxyPath = '/api/sse/run_sse';

/** The cookies of a Cookie header, by name (the first of a repeated name wins, as browsers order them). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    if (!out.has(name)) out.set(name, pair.slice(at + 1).trim());
  }
  return out;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection and are not passed on.
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection']);

export const referenceSteps: SseProxySteps = {
  // Seed 004: "extracts tokens from cookies". The query string is never read: a token there is in a URL.
  token: (req, config) => req.cookies.get(config.authCookieName) || undefined,
  backendUrl: (config) => `${config.backendUrl.replace(/\/+$/, '')}/run_sse`,
  backendHeaders(req, token, config) {
    const headers: Record<string, string> = {
      'content-type': String(req.headers['content-type'] ?? 'application/json'),
      accept: 'text/event-stream',
      authorization: `Bearer ${token}`,
    };
    // "CSRF protection maintained": the double-submit pair goes on to the backend's middleware, and
    // nothing else of the browser's cookies (the token travels only in Authorization).
    const csrfHeader = req.headers[config.csrfHeaderName.toLowerCase()];
    if (typeof csrfHeader === 'string') headers[config.csrfHeaderName.toLowerCase()] = csrfHeader;
    const csrfCookie = req.cookies.get(config.csrfCookieName);
    if (csrfCookie !== undefined) headers.cookie = `${config.csrfCookieName}=${csrfCookie}`;
    if (typeof req.headers['content-length'] === 'string') headers['content-length'] = req.headers['content-length'];
    return headers;
  },
  relay(backend, res) {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(backend.headers)) if (value !== undefined && !hopByHop.has(name)) headers[name] = value;
    res.writeHead(backend.statusCode ?? 502, headers);
    res.flushHeaders();
    // Each chunk as it comes: seed 004 "Raw SSE line forwarding", no buffering, no reframing.
    backend.on('data', (chunk: Buffer) => res.write(chunk));
    backend.on('end', () => res.end());
    // A backend that breaks mid-stream breaks the client's stream too: never a clean end it did not send.
    backend.on('aborted', () => res.destroy());
    backend.on('error', () => res.destroy());
  },
  // The bytes as they came: parsing and writing the JSON again would round integers above 2^53.
  forwardBody: (req, backendReq) => { req.pipe(backendReq); },
  passDisconnect: true,
};

function sendJson(res: http.ServerResponse, status: number, body: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), 'cache-control': 'no-store' });
  res.end(text);
}

export function createSseProxy(input: SseProxyConfig, override: Partial<SseProxySteps> = {}): http.RequestListener {
  if (typeof input.backendUrl !== 'string' || !/^https?:\/\//.test(input.backendUrl)) {
    throw new TypeError(`createSseProxy: backendUrl must be an http(s) URL (BACKEND_URL), got ${JSON.stringify(input.backendUrl)}`);
  }
  const config: Required<SseProxyConfig> = { authCookieName: 'access_token', csrfCookieName: 'csrf_token', csrfHeaderName: 'x-csrf-token', ...input };
  const steps: SseProxySteps = { ...referenceSteps, ...override };
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    if (url.pathname !== proxyPath) return sendJson(res, 404, { error: 'Not Found', code: 'PROXY_NOT_FOUND', reason: `only POST ${proxyPath} is served` });
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'Method Not Allowed', code: 'PROXY_METHOD', reason: `${proxyPath} takes POST` });
    const view: ProxyRequestView = { url, headers: req.headers, cookies: parseCookies(req.headers.cookie) };
    const token = steps.token(view, config);
    if (token === undefined) {
      req.resume();
      return sendJson(res, 401, { error: 'Unauthorized', code: 'PROXY_AUTH_MISSING', reason: `no ${config.authCookieName} cookie` });
    }
    const backendReq = http.request(steps.backendUrl(config, token), { method: 'POST', headers: steps.backendHeaders(view, token, config), agent: false });
    backendReq.on('response', (backend) => steps.relay(backend, res));
    backendReq.on('error', () => {
      if (!res.headersSent) sendJson(res, 502, { error: 'Bad Gateway', code: 'PROXY_BACKEND_UNREACHABLE', reason: 'the backend could not be reached' });
      else res.destroy();
    });
    if (steps.passDisconnect) res.on('close', () => { if (!res.writableFinished) backendReq.destroy(); });
    steps.forwardBody(req, backendReq);
  };
}

export type RunningProxy = { url: string; port: number; close: () => Promise<void> };

/** Listen on 127.0.0.1 (or `host`); `port` 0 picks a free one. */
export async function startSseProxy(options: { config: SseProxyConfig; host?: string; port?: number; steps?: Partial<SseProxySteps> }): Promise<RunningProxy> {
  const server = http.createServer(createSseProxy(options.config, options.steps));
  // A run lasts as long as the backend's total timeout allows; the proxy adds no clock of its own.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve); });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('startSseProxy: expected a TCP address after listen');
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    port: address.port,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** The proxy's environment (docs/proxy-contract.md): PORT, BACKEND_URL, AUTH_COOKIE_NAME, CSRF_COOKIE_NAME, CSRF_HEADER_NAME. */
export function proxyConfigFromEnv(env: NodeJS.ProcessEnv): { config: SseProxyConfig; port: number } {
  const backendUrl = env.BACKEND_URL;
  if (!backendUrl) throw new Error('BACKEND_URL is not set: give the backend gateway\'s base URL, e.g. BACKEND_URL=http://127.0.0.1:8000');
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer from 0 to 65535, got '${env.PORT}'`);
  return {
    config: { backendUrl, ...(env.AUTH_COOKIE_NAME ? { authCookieName: env.AUTH_COOKIE_NAME } : {}), ...(env.CSRF_COOKIE_NAME ? { csrfCookieName: env.CSRF_COOKIE_NAME } : {}), ...(env.CSRF_HEADER_NAME ? { csrfHeaderName: env.CSRF_HEADER_NAME } : {}) },
    port,
  };
}
