/**
 * The tap's node:http shell: a reverse proxy that forwards every request and response byte as it
 * arrives (status line, header order and spelling, each body write) and hands the core what it
 * has already forwarded. The order is the contract: write first, judge after, so judging never
 * delays or changes a byte, and a judge that throws costs only its judgement.
 *
 * Ends: the upstream's EOF ends the client's response; an upstream that breaks mid-body breaks the
 * client's connection (a cut stays visible as a cut); a client that leaves makes the tap close its
 * upstream request. An upstream that answers nothing usable (refused, not HTTP) gets the client a
 * 502 JSON `{code, error, fix}` (tap/error-codes.ts) and the run a finding; the tap keeps serving.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { TapCore } from './core.ts';
import { tapErrorCodes } from './error-codes.ts';
import { upstreamFailure } from './upstream-failure.ts';

export type StartTapOptions = { core: TapCore; upstream: string; host?: string; port?: number };

export type RunningTap = { url: string; server: http.Server; close: () => Promise<void> };

/** Connection-level headers belong to each hop; Host names the upstream on the way up. */
const hopByHop = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'upgrade']);

export function parseUpstream(value: string): URL {
  let url: URL;
  try { url = new URL(value); } catch { throw new TypeError(`--upstream ${value} is not a URL; give the base URL of the ADK server or gateway, e.g. http://127.0.0.1:8000`); }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`--upstream ${value} must be an http:// or https:// URL`);
  return url;
}

export async function startTap(options: StartTapOptions): Promise<RunningTap> {
  const upstream = parseUpstream(options.upstream);
  const agent = upstream.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => handle(options.core, upstream, agent, req, res));
  // A stream may be silent for minutes (seed 004's 300 s timeout): no server-side request timeout.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => { server.off('error', reject); resolve(); });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port ?? 0;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    server,
    close: () => (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      agent.destroy();
    })),
  };
}

function pairs(raw: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] ?? '', raw[i + 1] ?? '']);
  return out;
}

function handle(core: TapCore, upstream: URL, agent: http.Agent, req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const requestHeaders = pairs(req.rawHeaders);
  const run = core.startRun({ method: req.method ?? 'GET', url, headers: requestHeaders });
  let responseStarted = false;
  let finished = false;

  const headers: string[] = [];
  for (const [name, value] of requestHeaders) if (!hopByHop.has(name.toLowerCase())) headers.push(name, value);
  headers.push('Host', upstream.host);
  const target = new URL(upstream.pathname.replace(/\/$/, '') + url, upstream);
  const send = target.protocol === 'https:' ? https.request : http.request;
  const outgoing = send(target, { method: req.method, headers: headers as unknown as http.OutgoingHttpHeaders, agent });

  // The request body: forwarded chunk by chunk, and kept (bounded) for judging.
  const body: Buffer[] = [];
  let bodyBytes = 0;
  let truncated = false;
  req.on('data', (chunk: Buffer) => {
    outgoing.write(chunk);
    if (truncated) return;
    if (bodyBytes + chunk.length > core.limits.maxRequestBytes) { truncated = true; return; }
    body.push(chunk);
    bodyBytes += chunk.length;
  });
  req.on('end', () => {
    outgoing.end();
    run.requestBody(Buffer.concat(body), truncated);
  });

  outgoing.on('error', (error: NodeJS.ErrnoException) => {
    if (finished) return;
    if (responseStarted) return; // the response's own 'aborted'/'close' handlers judge a cut
    finished = true;
    // An answer that is not HTTP leaves its socket half open: close it, so no upstream connection lingers.
    outgoing.socket?.destroy();
    const detail = `${error.code ?? 'error'}: ${error.message}`;
    run.end('upstream-failed', detail);
    if (res.headersSent || res.destroyed) { res.destroy(); return; }
    const failure = upstreamFailure(detail);
    const code = failure === 'no-response' ? 'TAP_UPSTREAM_UNREACHABLE' : 'TAP_UPSTREAM_NOT_HTTP';
    const what = failure === 'not-tls' ? `the upstream did not answer TLS (if it serves plain HTTP, use http://${target.host})` : failure === 'not-http' ? 'the upstream did not answer HTTP' : 'the tap cannot reach the upstream';
    const text = JSON.stringify({ code, error: `${what} at ${target.origin} (${detail})`, fix: tapErrorCodes[code].fix });
    res.writeHead(502, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  });

  outgoing.on('response', (answer: IncomingMessage) => {
    responseStarted = true;
    const answerHeaders = pairs(answer.rawHeaders);
    res.sendDate = false;
    // Node adds Connection, Keep-Alive and Transfer-Encoding headers of its own unless told they were
    // removed: the client must get the upstream's header list and nothing else.
    const names = new Set(answerHeaders.map(([n]) => n.toLowerCase()));
    if (!names.has('connection')) res.removeHeader('connection');
    if (!names.has('transfer-encoding') && !names.has('content-length')) res.removeHeader('transfer-encoding');
    // The upstream's raw header list, as it sent it (Node keeps names' case and order this way).
    res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
    res.flushHeaders();
    const head0 = performance.now();
    run.responseHead(answer.statusCode ?? 502, answerHeaders);
    answer.on('data', (chunk: Buffer) => {
      res.write(chunk);
      run.chunk(chunk, performance.now() - head0);
    });
    answer.on('end', () => {
      if (finished) return;
      finished = true;
      res.end();
      run.end('eof');
    });
    answer.on('close', () => {
      if (finished) return;
      finished = true;
      // The upstream broke mid-body: break the client's connection too, so the cut stays a cut.
      res.destroy();
      run.end('upstream-cut', answer.errored?.message ?? 'the upstream closed the connection before the end of the body');
    });
  });

  // The client left first: close the upstream request, and judge the run as the client's choice.
  res.on('close', () => {
    if (finished) return;
    finished = true;
    outgoing.destroy();
    run.end('client-closed');
  });
}
