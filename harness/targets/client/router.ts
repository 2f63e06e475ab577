/**
 * One base URL for a whole certification (issue 30 §1, module targets): a client object created
 * once, as an app keeps one for every turn, cannot be handed each run's server. This server on
 * 127.0.0.1 stands in front of them all and sends each request to the server of the run it belongs
 * to, named by its session id (the request body's `sessionId` or `session_id`, or a path segment),
 * byte for byte both ways: the run's own server (proxy.ts, cases.ts) journals the
 * request and serves the stream as before, a broken connection is broken here too, a held-open one
 * stays open until the client closes it.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ClientRouter = {
  url: string;
  /** Send the requests of this session to `target` (an http://127.0.0.1 origin); returns the undo. */
  route: (sessionId: string, target: string) => () => void;
  close: () => Promise<void>;
};

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function sessionOf(body: Buffer): string | undefined {
  try {
    const v = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const named = v?.sessionId ?? v?.session_id;
    return typeof named === 'string' ? named : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How long the harness's servers for clients keep an idle connection (Node's default is 5 s). A client
 * reuses a kept-alive socket for its next request, and one the server closes as the client reuses it
 * is a request that never arrives (ECONNRESET: the run ends "cut" with no request seen). Clients close
 * theirs first (undici after 4 s), unless their event loop runs late: CI of 5f49d2b, the long-lived
 * probe's ONE reference client on framing_invalid_utf8. So the harness closes them only when it closes.
 */
export const clientServerKeepAliveMs = 10 * 60_000;

export async function startClientRouter(): Promise<ClientRouter> {
  const routes = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = req.url ?? '/';
      const bySegment = path.split(/[/?]/).map((s) => decodeURIComponent(s)).find((s) => routes.has(s));
      const target = routes.get(sessionOf(body) ?? '') ?? (bySegment !== undefined ? routes.get(bySegment) : undefined);
      if (!target) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: `harness router: no run of this certification has the session this request names (${req.method} ${path})` }));
        return;
      }
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !hopByHop.has(k)) headers[k] = v;
      headers['content-length'] = String(body.byteLength);
      const upstream = httpRequest(`${target}${path}`, { method: req.method, headers });
      res.on('close', () => { if (!res.writableFinished) upstream.destroy(); });
      upstream.on('error', () => res.destroy());
      upstream.on('response', (answer) => {
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !hopByHop.has(k)) out[k] = v;
        res.writeHead(answer.statusCode ?? 502, out);
        res.flushHeaders();
        res.socket?.setNoDelay(true);
        answer.on('data', (chunk: Buffer) => res.write(chunk));
        answer.on('end', () => res.end());
        // A connection the run's server broke is broken for the client too.
        answer.on('aborted', () => res.destroy());
        answer.on('error', () => res.destroy());
      });
      upstream.end(body);
    })().catch(() => res.destroy());
  });
  server.keepAliveTimeout = clientServerKeepAliveMs;
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    route(sessionId, target) {
      if (routes.has(sessionId)) throw new Error(`harness router: session ${sessionId} is routed already (two runs of one certification share a session id)`);
      routes.set(sessionId, target);
      return () => { routes.delete(sessionId); };
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
