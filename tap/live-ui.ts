/**
 * `adk-conformance tap --ui`: a page on 127.0.0.1 that shows runs as they stream through the
 * tap, frame by frame, each finding in place (docs/tap-live.md). A plain node:http server: GET /
 * is the page (tap/live-ui-page.ts), GET /events a text/event-stream of the tap's LiveEvents.
 *
 * The sink's publish() only updates the bounded run store (tap/live-ui-store.ts) and writes to
 * the open pages; a page that reads too slowly is disconnected (its browser reconnects and is
 * sent the replay), so no page can make the tap buffer without bound.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeSse } from '../core/sse.ts';
import type { LiveSink } from './live-events.ts';
import { renderLivePage, contentSecurityPolicy } from './live-ui-page.ts';
import { createRunStore, type PageMessage, type RunStoreLimits } from './live-ui-store.ts';
import { createProblemReporter, positiveInteger } from './live-sink-support.ts';

export type LiveUiConfig = {
  /** 127.0.0.1 or ::1: the page has no authentication, so it never listens beyond this machine. */
  host: string;
  /** 0 picks a free port (see `url`). */
  port: number;
  /** Runs a page is sent on connect (the oldest beyond are forgotten). */
  maxRuns?: number;
  maxFramesPerRun?: number;
  maxFindingsPerRun?: number;
  /** Bytes one page may leave unread before it is disconnected. */
  maxPageBacklogBytes?: number;
  /** Told once per kind of problem; by default one line on stderr. */
  onError?: (error: Error) => void;
};

export type LiveUiStats = { pages: number; runs: number; slowPages: number; ignoredEvents: number; omittedFrames: number; omittedFindings: number; evictedRuns: number };

/**
 * `url` is the page (`http://127.0.0.1:PORT/`). `sink.close()` and `close()` are the same: when
 * the tap stops, open pages are told (`closed`) and the server stops; both are safe to call twice.
 */
export type LiveUi = { url: string; sink: LiveSink & { stats(): LiveUiStats }; close(): Promise<void> };

const loopback = new Set(['127.0.0.1', '::1']);
const heartbeatMs = 15_000;

/** One SSE event per message: LiveEvents as the default `message` event, notes as named events (docs/tap-live.md). */
export function encodePageMessage(message: PageMessage): string {
  if (message.type === 'live') return encodeSse({ data: JSON.stringify(message.event) });
  const { type, ...data } = message;
  return encodeSse({ event: type, data: JSON.stringify(data) });
}

export async function createLiveUi(config: LiveUiConfig): Promise<LiveUi> {
  if (!loopback.has(config.host)) {
    throw new TypeError(`the live page must listen on 127.0.0.1 or ::1, got ${JSON.stringify(config.host)}: it shows request paths and stream contents to anyone who reaches it and has no authentication; to watch from another machine, forward the port (ssh -L 8765:127.0.0.1:8765 this-host)`);
  }
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) {
    throw new TypeError(`the live page's port must be an integer from 0 to 65535, got ${String(config.port)}: pass e.g. 8765, or 0 for any free port`);
  }
  const limits: RunStoreLimits = {
    maxRuns: positiveInteger('maxRuns', config.maxRuns, 20, 1000),
    maxFramesPerRun: positiveInteger('maxFramesPerRun', config.maxFramesPerRun, 200, 100_000),
    maxFindingsPerRun: positiveInteger('maxFindingsPerRun', config.maxFindingsPerRun, 200, 100_000),
  };
  const maxBacklog = positiveInteger('maxPageBacklogBytes', config.maxPageBacklogBytes, 4 * 1024 * 1024, 1024 * 1024 * 1024);
  const onError = config.onError ?? ((error: Error) => { process.stderr.write(`adk-conformance tap --ui: ${error.message}\n`); });
  const problems = createProblemReporter(onError, 'live page');
  const store = createRunStore(limits);
  const page = renderLivePage(limits);
  const pages = new Set<ServerResponse>();
  let slowPages = 0;
  let closing: Promise<void> | undefined;

  const server = createServer((req, res) => {
    try { route(req, res); } catch (error) {
      problems.report('internal', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('internal error\n');
    }
  });
  let origin = '';

  function route(req: IncomingMessage, res: ServerResponse): void {
    // DNS rebinding: a web page elsewhere could resolve its own name to 127.0.0.1 and read the stream; only our own names may ask.
    const port = (server.address() as AddressInfo).port;
    const allowed = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
    if (!allowed.includes(req.headers.host ?? '')) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(`the live page answers only to ${origin} (Host ${JSON.stringify(req.headers.host ?? '')} refused)\n`);
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('only GET\n');
      return;
    }
    if (path === '/') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8', 'content-security-policy': contentSecurityPolicy, 'cache-control': 'no-store',
        'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY',
      });
      res.end(req.method === 'HEAD' ? undefined : page);
      return;
    }
    if (path === '/events' && req.method === 'GET') {
      if (closing) { res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('the tap stopped\n'); return; }
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      // A page that reconnects starts over: reset first, then the remembered runs, then it is live.
      res.write(encodeSse({ event: 'reset', retry: 2000, data: JSON.stringify(limits) }) + store.replay().map(encodePageMessage).join(''));
      pages.add(res);
      res.on('close', () => pages.delete(res));
      return;
    }
    if (path === '/favicon.ico') { res.writeHead(204).end(); return; }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the live page is at /\n');
  }

  function send(res: ServerResponse, text: string): void {
    if (res.writableLength > maxBacklog) {
      // Dropping events for one page would leave it wrong; dropping the page makes it reconnect and be sent the replay.
      pages.delete(res);
      res.destroy();
      slowPages += 1;
      problems.report('overflow', new Error(`a page left more than ${maxBacklog} bytes unread and was disconnected (it reconnects and is sent the last runs again)`));
      return;
    }
    res.write(text);
  }

  const heartbeat = setInterval(() => {
    // A comment line keeps idle proxies and browsers from timing the stream out between runs.
    for (const res of pages) send(res, ': keep-alive\n\n');
  }, heartbeatMs);
  heartbeat.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE'
        ? new Error(`the live page cannot listen on ${config.host}:${config.port}: the port is in use; pass another port, or 0 for any free one`, { cause: error })
        : error);
    });
    server.listen(config.port, config.host, () => resolve());
  });
  server.on('error', (error) => problems.report('internal', error));
  const address = server.address() as AddressInfo;
  origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  function close(): Promise<void> {
    closing ??= (async () => {
      clearInterval(heartbeat);
      const goodbye = encodeSse({ event: 'closed', data: '{}' });
      for (const res of pages) { res.end(goodbye); }
      pages.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Streams just ended flush their goodbye first; anything still open after that is cut.
        setImmediate(() => server.closeAllConnections());
      });
    })();
    return closing;
  }

  return {
    url: `${origin}/`,
    sink: {
      publish(event) {
        if (closing) return;
        try {
          const messages = store.accept(event);
          if (messages.length === 0 || pages.size === 0) return;
          const text = messages.map(encodePageMessage).join('');
          for (const res of pages) send(res, text);
        } catch (error) {
          problems.report('internal', error);
        }
      },
      close,
      stats: () => {
        const s = store.stats();
        return { pages: pages.size, runs: s.runs, slowPages, ignoredEvents: s.ignoredEvents, omittedFrames: s.omittedFrames, omittedFindings: s.omittedFindings, evictedRuns: s.evictedRuns };
      },
    },
    close,
  };
}
