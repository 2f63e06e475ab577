/**
 * The server a client module talks to for one scenario (module contract): a small HTTP server on
 * 127.0.0.1 in front of the mock that plays the run's ADK server (the scenario's dialect). It reads
 * `POST /run_sse` with that server's own request model (mock-adk/server/run-request.ts: adk-python
 * reads snake_case too, adk-go refuses unknown keys), answers a body that server refuses with its
 * refusal, and otherwise asks the mock for the run that server would start (the streaming mode the
 * client chose included) and passes the answer through chunk by chunk. It keeps what it was sent
 * (the journal the request checks read) and the bytes it served for it, so the client is judged
 * on the stream the server actually sent for the request the client actually made (issue 28 §1).
 * Every other request goes to the mock unchanged.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveDialect } from '../../../mock-adk/core/dialects/names.ts';
import type { Dialect } from '../../../mock-adk/core/types.ts';
import { parseRunRequest } from '../../../mock-adk/server/run-request.ts';
import { readField, type JournalledRequest } from '../../checks/client/request.ts';
import type { TransportEnd } from '../../checks/client/expected.ts';
import type { ByteChunk } from './capture.ts';
import type { Feed } from './drive.ts';
import { clientServerKeepAliveMs } from './router.ts';

/** One run the proxy served: its status, its body as it left, and how the body ended. */
export type ServedRun = { status: number; streaming: boolean; chunks: ByteChunk[]; transport: TransportEnd; refused?: true };

export type ClientProxy = {
  url: string;
  journal: JournalledRequest[];
  runs: ServedRun[];
  /** For each run after the first: whether the run before it was still open (its response not closed) when it was sent. */
  openAtNext: boolean[];
  /** Resolves once every run's body is known (ended, broke, or held open with all its bytes), or after `maxMs`. */
  settled: (maxMs: number) => Promise<void>;
  /** Whether a body is still being written to the client (drive.ts Feed). */
  feed: Feed;
  close: () => Promise<void>;
};

export type ClientProxyOptions = {
  mockUrl: string;
  /** The server the run targets: a scenario's dialect (any accepted name). */
  dialect: string;
  /** The bytes of the body when the mock holds the connection open after them (undefined: it ends the body). */
  heldOpenBytes: (streaming: boolean) => number | undefined;
  /** The mock's writes of the body it plans for this run (capture.ts plannedBytes), handed on one by one (writeAsPlanned). */
  writes?: (streaming: boolean) => Uint8Array[];
  /** Hand each planned write on whole (writeAsPlanned's `whole`): a large-event scenario's joined writes. */
  wholeWrites?: boolean;
};

export type PlannedWriter = ((bytes: Uint8Array) => Uint8Array[]) & {
  /** What a whole-write writer still holds of an unfinished write, to hand on before the body ends. */
  rest: () => Uint8Array[];
};

/**
 * Hands the mock's body on in the mock's own writes, each in a turn of the event loop of its own: the
 * client module runs on this loop, so it reads each write before the next is made, however its
 * socket would have joined them (a write made in a turn's check phase, setImmediate, is read in the
 * next turn's poll phase, before the next write). Read from the mock, a body's writes come in the
 * reads the machine's load makes of them (framing_huge_event's 3,121 in some 48 reads of 64 KiB, or
 * many more), so a client's pieces, and the verdict on a reader slow in them, were the machine's.
 * Bytes that are not the plan are passed on as they came, from where they differ.
 *
 * `whole`: a write is handed on once all of its bytes came, however many reads brought them (a
 * large-event scenario's writes joined to 32 KiB, capture.ts joinedWrites); else each read's part
 * of a write is handed on as it came.
 */
export function writeAsPlanned(plan: Uint8Array[] | undefined, whole = false): PlannedWriter {
  let at = 0;
  let offset = 0;
  let following = plan !== undefined;
  let held: Uint8Array[] = [];
  const release = (): Uint8Array[] => {
    const out = held.length === 0 ? [] : [held.length === 1 ? held[0] as Uint8Array : Buffer.concat(held)];
    held = [];
    return out;
  };
  const take = (bytes: Uint8Array): Uint8Array[] => {
    if (!following || !plan) return [bytes];
    const pieces: Uint8Array[] = [];
    let from = 0;
    while (from < bytes.byteLength) {
      const write = plan[at];
      if (!write) break;
      const n = Math.min(write.byteLength - offset, bytes.byteLength - from);
      const piece = bytes.subarray(from, from + n);
      const same = Buffer.from(piece.buffer, piece.byteOffset, n).compare(Buffer.from(write.buffer, write.byteOffset + offset, n)) === 0;
      if (!same) {
        let k = 0;
        while (k < n && piece[k] === write[offset + k]) k++;
        if (k > 0) held.push(piece.subarray(0, k));
        pieces.push(...release());
        from += k;
        break;
      }
      held.push(piece);
      from += n;
      offset += n;
      if (offset === write.byteLength) { at++; offset = 0; pieces.push(...release()); } else if (!whole) pieces.push(...release());
    }
    if (from < bytes.byteLength) { following = false; pieces.push(bytes.subarray(from)); }
    return pieces;
  };
  return Object.assign(take, { rest: release });
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const hopByHop = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function copyHeaders(from: Headers, to: ServerResponse): void {
  from.forEach((value, name) => { if (!hopByHop.has(name)) to.setHeader(name, value); });
}

export async function startClientProxy(options: ClientProxyOptions): Promise<ClientProxy> {
  const dialect = resolveDialect(options.dialect);
  if (!dialect) throw new TypeError(`startClientProxy: unknown dialect ${JSON.stringify(options.dialect)}`);
  const journal: JournalledRequest[] = [];
  const runs: ServedRun[] = [];
  const openAtNext: boolean[] = [];
  const runClosed: boolean[] = [];
  const pending = new Set<Promise<void>>();
  const upstreams = new Set<AbortController>();
  // Bodies being written now (drive.ts Feed).
  let writing = 0;

  async function serveRun(server: Dialect, entry: JournalledRequest, res: ServerResponse): Promise<void> {
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(entry.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const parsed = parseRunRequest(server, { method: entry.method, url: entry.url, params: {}, query: new URLSearchParams(entry.url.split('?')[1] ?? ''), headers, body: entry.body });
    if (!parsed.ok) {
      const a = parsed.answer;
      runs.push({ status: a.status, streaming: false, chunks: [{ bytes: Buffer.from(a.body, 'utf8'), delayMs: 0 }], transport: 'eof', refused: true });
      for (const [n, v] of a.headers) if (!hopByHop.has(n.toLowerCase())) res.setHeader(n, v);
      res.writeHead(a.status).end(a.body);
      return;
    }
    const run = parsed.run;
    let body: Record<string, unknown> = {};
    try { const v = JSON.parse(entry.body) as unknown; if (typeof v === 'object' && v !== null && !Array.isArray(v)) body = v as Record<string, unknown>; } catch { /* read as {} */ }
    const message = readField(server, body, 'newMessage');
    // The run this server would start, asked of the mock in the spelling it reads.
    const forward = { appName: run.appName, userId: run.userId, sessionId: run.sessionId, ...(message !== undefined ? { newMessage: message } : {}), streaming: run.streaming, ...(run.stateDelta ? { stateDelta: run.stateDelta } : {}) };
    const upstream = new AbortController();
    upstreams.add(upstream);
    const served: ServedRun = { status: 0, streaming: run.streaming, chunks: [], transport: 'eof' };
    runs.push(served);
    let clientGone = false;
    // A run sent again (CLI-REQ-004) is judged by its count alone: its body is not read on once its client has gone.
    const again = runs.indexOf(served) > 0;
    res.on('close', () => { clientGone = true; if (served.transport === 'hold-open' || again) upstream.abort(); });
    writing++;
    try {
      const response = await fetch(`${options.mockUrl}/run_sse`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify(forward), signal: upstream.signal });
      served.status = response.status;
      copyHeaders(response.headers, res);
      res.writeHead(response.status);
      res.flushHeaders();
      res.socket?.setNoDelay(true);
      const held = response.status === 200 ? options.heldOpenBytes(run.streaming) : undefined;
      const plan = response.status === 200 ? options.writes?.(run.streaming) : undefined;
      const planned = plan !== undefined;
      const asPlanned = writeAsPlanned(plan, options.wholeWrites === true);
      const reader = response.body?.getReader();
      const hand = async (pieces: Uint8Array[], gap: number): Promise<void> => {
        for (const [i, piece] of pieces.entries()) {
          served.chunks.push({ bytes: piece, delayMs: served.chunks.length === 0 || i > 0 || gap < 10 ? 0 : Math.round(gap) });
          // A turn before every write, the first too (after the headers), whichever read it came in: reads the stream had
          // queued resolve in the same turn, and two writes in one turn reach the client as one read.
          // A client that hung up early still gets its expectation from the whole body.
          if (planned && !clientGone) await nextTurn();
          if (!clientGone) res.write(piece);
        }
      };
      let received = 0;
      let last = performance.now();
      for (;;) {
        if (held !== undefined && received >= held) {
          // Held open: the body is whole, the connection stays up until the client closes it.
          served.transport = 'hold-open';
          if (clientGone) upstream.abort();
          return;
        }
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          if (!reader) break;
          read = await reader.read();
        } catch {
          await hand(asPlanned.rest(), 0);
          served.transport = 'reset';
          // The reset in a turn of its own too: a socket destroyed in the turn of its last write lost that
          // write's bytes to the client's read (stream_cut_while_partial's last whole event).
          await nextTurn();
          res.destroy();
          return;
        }
        if (read.done) break;
        const now = performance.now();
        const gap = now - last;
        last = now;
        received += read.value.byteLength;
        await hand(asPlanned(read.value), gap);
      }
      await hand(asPlanned.rest(), 0);
      res.end();
    } catch (error) {
      if (!upstream.signal.aborted) { served.transport = 'reset'; res.destroy(error as Error); }
    } finally {
      writing--;
      upstreams.delete(upstream);
    }
  }

  async function passThrough(entry: JournalledRequest, res: ServerResponse): Promise<void> {
    const headers = new Headers();
    for (const [k, v] of Object.entries(entry.headers)) if (k !== 'host' && !hopByHop.has(k)) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    const response = await fetch(`${options.mockUrl}${entry.url}`, { method: entry.method, headers, ...(entry.method === 'GET' || entry.method === 'HEAD' ? {} : { body: entry.body }) });
    const text = await response.text();
    copyHeaders(response.headers, res);
    res.writeHead(response.status).end(text);
  }

  const server: Server = createServer((req, res) => {
    const work = (async () => {
      const entry: JournalledRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers as Record<string, string | string[]>, body: await readBody(req) };
      journal.push(entry);
      if (entry.method === 'POST' && entry.url.split('?')[0] === '/run_sse') {
        const at = runClosed.length;
        if (at > 0) openAtNext.push(runClosed[at - 1] === false);
        runClosed.push(false);
        res.on('close', () => { runClosed[at] = true; });
        await serveRun(dialect, entry, res);
      }
      else await passThrough(entry, res);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `harness proxy: ${(error as Error).message}` }));
      else res.destroy();
    });
    pending.add(work);
    void work.finally(() => pending.delete(work));
  });
  server.keepAliveTimeout = clientServerKeepAliveMs;
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    feed: { writing: () => writing > 0 },
    journal,
    runs,
    openAtNext,
    async settled(maxMs) {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => { timer = setTimeout(resolve, maxMs); });
      await Promise.race([Promise.all([...pending]).then(() => undefined), waited]);
      clearTimeout(timer);
    },
    close: () => new Promise<void>((resolve) => {
      for (const u of upstreams) u.abort();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
