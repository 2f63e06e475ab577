/**
 * The backend a proxy under test talks to (docs/proxy-contract.md): the reference gateway, in
 * process, pointed at the run's mock, behind a recording relay the harness owns. The relay is a
 * byte pipe that writes down, for every request the proxy makes, its method, URL and headers, the
 * backend's status, headers and body bytes with arrival times, and whether the proxy closed the
 * request before the answer ended. That record is what the PRX checks compare the client's
 * bytes with; the gateway itself is never asked.
 *
 * The relay listens on `port` (a fixed one when the proxy is given by URL and was pointed there
 * beforehand, else a free one); the gateway on a free port behind it.
 */
import http from 'node:http';
import { startGateway, type RunningGateway } from '../../../reference-impl/gateway/start.ts';
import { authCookieName, csrfCookieName } from '../gateway/contract.ts';

export type BackendRecord = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The `sessionId` the body names, read once when the body ended. */
  sessionId?: string;
  /** ms since the relay started, when the request arrived. */
  at: number;
  status?: number;
  responseHeaders: Record<string, string>;
  /** The backend's answer as far as it was kept (4 MiB), read-only. */
  readonly responseBody: Uint8Array;
  /** When the backend's answer ended (ms since the relay started), if it did. */
  endedAt?: number;
  /** When the proxy closed the request before the answer ended (ms since the relay started). */
  abandonedAt?: number;
};

/** An answer the relay gives in the gateway's place (an error a real backend gives that the reference gateway never does). */
export type ScriptedAnswer = { status: number; headers: Record<string, string>; body: string };

export type ProxyBackend = {
  url: string;
  port: number;
  /** Answer the run that names this session with `answer` instead of the gateway's. */
  answerFor: (sessionId: string, answer: ScriptedAnswer) => void;
  /** Every request the proxy made so far, oldest first. */
  records: () => readonly BackendRecord[];
  /** The records of requests whose body names this session id. */
  forSession: (sessionId: string) => BackendRecord[];
  now: () => number;
  close: () => Promise<void>;
};

const maxKept = 4 * 1024 * 1024;

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

function sessionIdOf(body: string): string | undefined {
  try { const v = (JSON.parse(body) as { sessionId?: unknown }).sessionId; return typeof v === 'string' ? v : undefined; } catch { return undefined; }
}

export async function startProxyBackend(options: { mockUrl: string; jwtSecret: string; port?: number; names?: { authCookie: string; csrfCookie: string; csrfHeader: string } }): Promise<ProxyBackend> {
  const gateway: RunningGateway = await startGateway({
    config: {
      upstreamUrl: options.mockUrl,
      canonicalStreamEnabled: true,
      auth: { mode: 'jwt', secret: options.jwtSecret, clockToleranceSec: 30 },
      // Seed 004's CSRF middleware, on for loopback too: the proxy must keep it working.
      csrf: { skipLocalhost: false, cookieName: options.names?.csrfCookie ?? csrfCookieName, headerName: options.names?.csrfHeader ?? 'x-csrf-token' },
      authCookieName: options.names?.authCookie ?? authCookieName,
      timeoutMs: 300_000,
    },
  });
  const started = performance.now();
  const now = () => Math.round((performance.now() - started) * 10) / 10;
  const records: BackendRecord[] = [];
  const scripted = new Map<string, ScriptedAnswer>();
  const relay = http.createServer((req, res) => {
    const bodyParts: Buffer[] = [];
    const answer: Buffer[] = [];
    let kept = 0;
    // Joined when read, not per chunk: joining on every chunk copied a stream's bytes once per
    // chunk (a byte-at-a-time body of n bytes cost n²/2 copies, the harness's largest CPU cost).
    let joined: Uint8Array | undefined;
    const record: BackendRecord = {
      method: req.method ?? '', url: req.url ?? '', headers: flatHeaders(req.headers), body: '', at: now(), responseHeaders: {},
      get responseBody() { return (joined ??= new Uint8Array(Buffer.concat(answer))); },
    };
    records.push(record);
    if (records.length > 10_000) records.splice(0, records.length - 10_000);
    const upstream = http.request(`${gateway.url}${req.url ?? '/'}`, { method: req.method, headers: req.headers, agent: false }, (g) => {
      // The gateway's answer is written through as it comes; it is dropped for a scripted run.
      if (record.sessionId !== undefined && scripted.has(record.sessionId)) { g.resume(); return; }
      record.status = g.statusCode;
      record.responseHeaders = flatHeaders(g.headers);
      res.writeHead(g.statusCode ?? 502, g.headers);
      res.flushHeaders();
      g.on('data', (chunk: Buffer) => {
        if (kept < maxKept) { answer.push(chunk); kept += chunk.length; joined = undefined; }
        res.write(chunk);
      });
      g.on('end', () => { record.endedAt = now(); res.end(); });
      g.on('error', () => res.destroy());
    });
    upstream.on('error', () => { if (!res.headersSent) { res.writeHead(502); res.end(); } else res.destroy(); });
    req.on('data', (chunk: Buffer) => { bodyParts.push(chunk); });
    req.on('end', () => {
      record.body = Buffer.concat(bodyParts).toString('utf8');
      const id = sessionIdOf(record.body);
      if (id !== undefined) record.sessionId = id;
      const answerOf = id === undefined ? undefined : scripted.get(id);
      if (answerOf && !res.headersSent) {
        // The gateway sees the run (it may answer first: its answer is dropped above) but the relay answers.
        const bytes = Buffer.from(answerOf.body);
        record.status = answerOf.status;
        record.responseHeaders = { ...answerOf.headers, 'content-length': String(bytes.length) };
        answer.push(bytes);
        kept += bytes.length;
        joined = undefined;
        res.writeHead(answerOf.status, record.responseHeaders);
        res.end(bytes, () => { record.endedAt = now(); });
      }
    });
    res.on('close', () => {
      if (!res.writableFinished) { record.abandonedAt ??= now(); upstream.destroy(); }
    });
    req.pipe(upstream);
  });
  relay.requestTimeout = 0;
  try {
    await new Promise<void>((resolve, reject) => { relay.once('error', reject); relay.listen(options.port ?? 0, '127.0.0.1', resolve); });
  } catch (error) {
    await gateway.close();
    const e = error as NodeJS.ErrnoException;
    throw new Error(e.code === 'EADDRINUSE'
      ? `port ${options.port} on 127.0.0.1 is in use, so the harness cannot serve the proxy's backend there; stop what holds it, or pass --backend-port N and point your proxy's BACKEND_URL at http://127.0.0.1:N`
      : `the proxy's backend could not listen: ${e.message}`);
  }
  const address = relay.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy backend relay has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    answerFor: (sessionId, scriptedAnswer) => { scripted.set(sessionId, scriptedAnswer); },
    records: () => records,
    forSession: (sessionId) => records.filter((r) => r.sessionId === sessionId),
    now,
    async close() {
      relay.closeAllConnections();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      await gateway.close();
    },
  };
}
