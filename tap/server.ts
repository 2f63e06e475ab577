/**
 * The tap's shell: a reverse proxy at the byte level. Each client connection gets its own upstream
 * connection, and every byte the upstream sends is written to the client as it arrives, unchanged
 * (status line, header spelling and order, chunk framing, each TCP read), then read by an HTTP/1.1
 * reader (core/http1-reader.ts) that hands the core each message's head and decoded body. The order
 * is the contract: write first, judge after, so judging never delays or changes a byte, and a judge
 * that throws costs only its judgement. Forwarding raw bytes also costs less than a node:http proxy
 * re-framing every body write, and that is what pays for the judging (docs/performance.md).
 *
 * Requests go up as they came, but for the Host header (the upstream's) and a base URL's path.
 * Only a response's head is held until it is whole, so an answer that is not HTTP gets the client a
 * 502 JSON `{code, error, fix}` (tap/error-codes.ts) and the run a finding; the tap keeps serving.
 *
 * Ends: a body ends as its framing says (Content-Length, the last chunk, or the upstream's close);
 * an upstream that breaks mid-body breaks the client's connection (a cut stays visible as a cut); a
 * client that leaves makes the tap close its upstream connection.
 *
 * A run is a request the upstream received whole, or answered: it starts when the request's last
 * byte went up while no earlier response was outstanding (or when the upstream answers it first).
 * So a request the tap refused (ambiguous framing, core/http1-reader.ts) is no run and goes nowhere:
 * the client gets one 400 after the answers it is owed, and the connection closes. A pipelined
 * request behind a response that closed the connection (`Connection: close`) was never read
 * upstream: it is no run and gets no answer, as a server that closes answers it none.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { RunHandle, TapCore } from './core.ts';
import { tapErrorCodes } from './error-codes.ts';
import { closesConnection, createHttp1Reader, type Http1Head } from '../core/http1-reader.ts';
import { upstreamFailure } from './upstream-failure.ts';

export type StartTapOptions = {
  core: TapCore;
  upstream: string;
  host?: string;
  port?: number;
  /** How long a client may take to send a request's head before a 408 (default 60 s, as node:http's headersTimeout). */
  headTimeoutMs?: number;
};

export type RunningTap = { url: string; server: net.Server; close: () => Promise<void> };

const defaultHeadTimeoutMs = 60_000;

export function parseUpstream(value: string): URL {
  let url: URL;
  try { url = new URL(value); } catch { throw new TypeError(`--upstream ${value} is not a URL; give the base URL of the ADK server or gateway, e.g. http://127.0.0.1:8000`); }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`--upstream ${value} must be an http:// or https:// URL`);
  return url;
}

export async function startTap(options: StartTapOptions): Promise<RunningTap> {
  const upstream = parseUpstream(options.upstream);
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => { sockets.add(socket); socket.once('close', () => sockets.delete(socket)); };
  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    track(client);
    serveConnection(options.core, upstream, client, track, options.headTimeoutMs ?? defaultHeadTimeoutMs);
  });
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
      for (const socket of sockets) socket.destroy();
    })),
  };
}

/**
 * One request forwarded up, until its response has ended. `run` is opened lazily (see the module
 * comment): `complete` once the request's last byte went up, `answered` once its response head came.
 */
type Exchange = { head: Http1Head; run?: RunHandle; method: string; body: Buffer[]; bodyBytes: number; truncated: boolean; complete: boolean; head0: number; answered: boolean; closes: boolean };

function connectUpstream(upstream: URL): net.Socket {
  const port = Number(upstream.port || (upstream.protocol === 'https:' ? 443 : 80));
  const hostname = upstream.hostname.replace(/^\[(.*)\]$/, '$1');
  if (upstream.protocol === 'https:') {
    return tls.connect({ host: hostname, port, ...(net.isIP(hostname) === 0 ? { servername: hostname } : {}), ALPNProtocols: ['http/1.1'] });
  }
  return net.connect({ host: hostname, port, noDelay: true });
}

/** `CODE: message`, the form tap/upstream-failure.ts reads, or `otherwise` when the socket reported no error. */
const describe = (failure: NodeJS.ErrnoException | undefined, otherwise: string): string => (failure ? `${failure.code ?? 'error'}: ${failure.message}` : otherwise);

function jsonAnswer(status: number, reason: string, value: unknown): Buffer {
  const text = JSON.stringify(value);
  return Buffer.from(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}

function serveConnection(core: TapCore, upstream: URL, client: net.Socket, track: (socket: net.Socket) => void, headTimeoutMs: number): void {
  const prefix = upstream.pathname.replace(/\/$/, '');
  /** Requests sent up, oldest first; the first is the one the upstream is answering. */
  const queue: Exchange[] = [];
  let reading: Exchange | undefined; // the request whose body the client is sending
  let up: net.Socket | undefined;
  let upReader: ReturnType<typeof createHttp1Reader> | undefined;
  let held: Buffer[] = []; // upstream bytes of a response head not yet whole
  let interim = false; // the head being answered is a 1xx
  let closed = false;
  let headTimer: NodeJS.Timeout | undefined;
  /** The upstream's last response said it closes the connection: requests queued behind it were never read. */
  let upstreamClosing = false;
  /** The 400 owed for a refused request, written once the answers to the requests before it are. */
  let refusal: Buffer | undefined;

  /** The run of an exchange, opened now if it was not yet (the request went up whole, or was answered). */
  function runOf(exchange: Exchange): RunHandle {
    if (exchange.run) return exchange.run;
    const run = core.startRun({ method: exchange.head.method, url: exchange.head.target, headers: exchange.head.headers });
    exchange.run = run;
    if (exchange.complete) giveBody(exchange);
    return run;
  }

  function giveBody(exchange: Exchange): void {
    exchange.run?.requestBody(exchange.body.length === 1 ? exchange.body[0] as Buffer : Buffer.concat(exchange.body), exchange.truncated);
    exchange.body = [];
  }

  /** The oldest outstanding request is the one the upstream reads now: once whole, it is a run. */
  function startFront(): void {
    const front = queue[0];
    if (front && front.complete && !front.run && !upstreamClosing) runOf(front);
  }

  const requests = createHttp1Reader({
    kind: 'request',
    onHead: (head) => {
      if (headTimer) { clearTimeout(headTimer); headTimer = undefined; }
      const exchange: Exchange = { head, method: head.method, body: [], bodyBytes: 0, truncated: false, complete: false, head0: 0, answered: false, closes: false };
      queue.push(exchange);
      reading = exchange;
      sendUp(requestHead(head));
    },
    onBody: (bytes) => {
      const exchange = reading;
      if (!exchange || exchange.truncated) return;
      if (exchange.bodyBytes + bytes.length > core.limits.maxRequestBytes) { exchange.truncated = true; return; }
      exchange.body.push(Buffer.from(bytes));
      exchange.bodyBytes += bytes.length;
    },
    onBodyRaw: (bytes) => sendUp(bytes),
    onMessageEnd: () => {
      const exchange = reading;
      reading = undefined;
      if (!exchange) return;
      exchange.complete = true;
      if (exchange.run) giveBody(exchange);
      else startFront();
    },
    onError: (code, message) => {
      // A request that is not HTTP/1.1, or whose framing is ambiguous, is refused with one 400 (as
      // node:http refuses it) and the connection ends. Its bytes up to the error went up at most as
      // part of a request the upstream never got whole: it is no run.
      const bad = reading;
      reading = undefined;
      if (bad?.answered) { client.destroy(); return; } // the upstream already answered it: a second answer would be one too many
      if (bad) queue.splice(queue.indexOf(bad), 1);
      const text = `${code}: ${message}`;
      refusal = jsonAnswer(400, 'Bad Request', { code: 'TAP_BAD_REQUEST', error: `the request is not HTTP/1.1, or its framing is ambiguous (${text})`, fix: tapErrorCodes.TAP_BAD_REQUEST.fix });
      if (queue.length === 0) refuse();
    },
  });

  /** The owed 400, now that no earlier answer is outstanding; the upstream connection (maybe holding part of the refused request) closes. */
  function refuse(): void {
    if (!refusal || closed) return;
    closed = true;
    client.end(refusal);
    refusal = undefined;
    up?.destroy();
  }

  /** The request's head as the upstream must see it: its Host, and the base URL's path before the target. */
  function requestHead(head: Http1Head): Buffer {
    const target = head.target.startsWith('/') ? prefix + head.target : head.target;
    let text = `${head.method} ${target} HTTP/${head.version}\r\n`;
    let hostSent = false;
    for (const [name, value] of head.headers) {
      if (name.toLowerCase() === 'host') {
        if (hostSent) continue;
        hostSent = true;
        text += `${name}: ${upstream.host}\r\n`;
      } else {
        text += `${name}: ${value}\r\n`;
      }
    }
    if (!hostSent) text += `Host: ${upstream.host}\r\n`;
    return Buffer.from(`${text}\r\n`, 'latin1');
  }

  function sendUp(bytes: Buffer): void {
    if (!up) openUpstream();
    if (up && !up.write(bytes)) {
      client.pause();
      up.once('drain', () => client.resume());
    }
  }

  function openUpstream(): void {
    const socket = connectUpstream(upstream);
    socket.cork(); // uncorked once the fed chunk's bytes are all written (client 'data' below)
    track(socket);
    up = socket;
    held = [];
    let failure: NodeJS.ErrnoException | undefined;
    const reader = createHttp1Reader({
      kind: 'response',
      bodyless: () => queue[0]?.method === 'HEAD',
      onHead: (head) => onResponseHead(head),
      onBody: (bytes) => {
        const exchange = queue[0];
        exchange?.run?.chunk(bytes, performance.now() - (exchange.head0));
      },
      onMessageEnd: () => {
        if (interim) { interim = false; return; }
        const exchange = queue.shift();
        exchange?.run?.end('eof');
        if (exchange?.closes) upstreamClosing = true;
        if (refusal && queue.length === 0) { refuse(); return; }
        startFront();
      },
      onError: (code, message) => { failure = Object.assign(new Error(message), { code }); socket.destroy(); },
    });
    upReader = reader;
    socket.on('data', (chunk: Buffer) => {
      if (up !== socket) return;
      if (reader.inHead()) {
        // Held until the head is whole: a head that is not HTTP is answered with a 502, not passed on.
        held.push(chunk);
        reader.feed(chunk);
        return;
      }
      if (!client.write(chunk)) {
        socket.pause();
        client.once('drain', () => socket.resume());
      }
      reader.feed(chunk);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => { failure ??= error; });
    socket.on('end', () => {
      if (up !== socket) return;
      reader.end();
      socket.end();
    });
    socket.on('close', () => {
      if (up !== socket) return;
      up = undefined;
      upReader = undefined;
      upstreamClosed(failure);
    });
  }

  function onResponseHead(head: Http1Head): void {
    const exchange = queue[0];
    if (held.length > 0) {
      const bytes = held.length === 1 ? held[0] as Buffer : Buffer.concat(held);
      held = [];
      client.write(bytes);
    }
    if (!exchange) return; // an answer to no request: forwarded, as a proxy that does not read would
    if (head.status >= 100 && head.status < 200 && head.status !== 101) { interim = true; return; }
    exchange.answered = true;
    exchange.closes = closesConnection(head.version, head.headers);
    exchange.head0 = performance.now();
    runOf(exchange).responseHead(head.status, head.headers);
    if (head.status === 101 || (exchange.method === 'CONNECT' && head.status >= 200 && head.status < 300)) tunnel();
  }

  /** After 101 Switching Protocols (or a CONNECT's 2xx) the bytes are another protocol's: passed on, not read. */
  function tunnel(): void {
    upReader?.tunnel();
    requests.tunnel();
    const exchange = queue.shift();
    exchange?.run?.end('eof');
    client.removeAllListeners('data');
    client.on('data', (chunk: Buffer) => up?.write(chunk));
  }

  function upstreamClosed(failure: NodeJS.ErrnoException | undefined): void {
    held = [];
    interim = false;
    if (upstreamClosing && queue[0]?.answered !== true) {
      // The upstream said it would close, and did: what the client pipelined behind that answer was
      // never read upstream, so it is no run and gets no 502; the client reads the `close` and retries.
      queue.splice(0);
      reading = undefined;
      if (!closed) finish();
      return;
    }
    const exchange = queue.shift();
    if (!exchange) {
      // Nothing outstanding: the upstream closed an idle connection (or one it marked `close`), and so does the tap.
      if (!closed) finish();
      return;
    }
    if (exchange.answered) {
      // The upstream broke mid-body: break the client's connection too, so the cut stays a cut.
      const detail = describe(failure, 'the upstream closed the connection before the end of the body');
      exchange.run?.end('upstream-cut', detail);
      abandon(detail);
      return;
    }
    const detail = describe(failure, 'ECONNRESET: socket hang up (the upstream closed the connection before any response)');
    runOf(exchange).end('upstream-failed', detail);
    const kind = upstreamFailure(detail);
    const code = kind === 'no-response' ? 'TAP_UPSTREAM_UNREACHABLE' : 'TAP_UPSTREAM_NOT_HTTP';
    const origin = `${upstream.protocol}//${upstream.host}`;
    const what = kind === 'not-tls' ? `the upstream did not answer TLS (if it serves plain HTTP, use http://${upstream.host})` : kind === 'not-http' ? 'the upstream did not answer HTTP' : 'the tap cannot reach the upstream';
    if (!closed && client.writable) client.write(jsonAnswer(502, 'Bad Gateway', { code, error: `${what} at ${origin} (${detail})`, fix: tapErrorCodes[code].fix }));
    abandon(detail, true);
  }

  /**
   * End every outstanding run once: the request being read is queued too, unless its exchange
   * already left the queue. Requests that never became runs (not yet whole, or queued behind
   * another) were not read upstream: they end with the connection, unjudged.
   */
  function endOutstanding(ending: 'upstream-failed' | 'client-closed', detail?: string): void {
    const outstanding = queue.splice(0);
    for (const exchange of outstanding) exchange.run?.end(ending, detail);
    if (reading && !outstanding.includes(reading)) reading.run?.end(ending, detail);
    reading = undefined;
  }

  /** The upstream failed: every outstanding run ends, and the client's connection, gently after a whole answer, hard after a cut. */
  function abandon(detail: string, gently = false): void {
    endOutstanding('upstream-failed', detail);
    closed = true;
    if (gently) client.end(); else client.destroy();
    up?.destroy();
  }

  function finish(): void {
    closed = true;
    client.end();
    up?.end();
  }

  client.on('data', (chunk: Buffer) => {
    // One write up for a request's head and the body that came with it.
    const corked = up;
    corked?.cork();
    requests.feed(chunk);
    corked?.uncork();
    if (!corked && up) up.uncork();
    // A head that comes in pieces gets a deadline (a whole head in one read, the usual case, needs none).
    if (headTimer === undefined && requests.inHead() && !requests.idle()) {
      headTimer = setTimeout(() => {
        if (!requests.inHead() || requests.idle()) return;
        if (queue.length > 0) { client.destroy(); return; }
        client.end(jsonAnswer(408, 'Request Timeout', { code: 'TAP_BAD_REQUEST', error: `the request's head did not arrive whole within ${headTimeoutMs} ms`, fix: tapErrorCodes.TAP_BAD_REQUEST.fix }));
      }, headTimeoutMs);
      headTimer.unref();
    }
  });
  // A client's FIN mid-exchange means it left, as node:http's server reads it (httpAllowHalfOpen false).
  client.on('end', () => {
    if (queue.length === 0 && reading === undefined) { finish(); return; }
    leave();
    client.end();
  });
  client.on('error', () => { /* 'close' follows and ends the runs */ });
  client.on('close', () => {
    if (headTimer) clearTimeout(headTimer);
    leave();
  });

  /** The client left: every outstanding run ends as its choice, and the upstream connection closes. */
  function leave(): void {
    endOutstanding('client-closed');
    closed = true;
    up?.destroy();
  }
}
