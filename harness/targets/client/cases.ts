/**
 * Byte streams written by the harness for the client part, whatever servers a profile keeps:
 * `event:`, `id:` and `retry:` fields, the one-space rule, comment and blank-line runs, an event
 * unfinished at a clean EOF, a body written one byte at a time with a pause between writes (so a
 * reader sees a split inside each UTF-8 sequence and between CR and LF, on a pipe and over TCP
 * alike), and one case per framing scenario of the corpus. Under the module contract a small
 * server on 127.0.0.1 serves them at `<base>/case/<id>/run_sse`, and at `<base>/run_sse` the case
 * the request's sessionId names (one client object for every case).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ByteChunk } from './capture.ts';
import { chunkedBody, type Answer } from './in-process-fetch.ts';
import { clientServerKeepAliveMs } from './router.ts';

export type ByteCase = {
  id: string;
  requirements: string[];
  chunks: ByteChunk[];
  /** The connection breaks after the last chunk (reset), or stays open until the client closes it (hold-open). */
  transport?: 'reset' | 'hold-open';
  /**
   * A non-200 answer before any stream (module contract only: the command contract hands a client
   * a 200 body): its status and Content-Type; `chunks` is its body and `message` the error text in it.
   */
  answer?: { status: number; contentType: string; message: string };
  /**
   * Each chunk written in a turn of the event loop of its own (setImmediate): a client module on
   * this loop then reads each before the next is written, however a socket would join them.
   */
  eachInItsTurn?: boolean;
};

const httpAnswer = (id: string, status: number, contentType: string, body: string, message: string): ByteCase =>
  ({ id, requirements: ['CLI-HTTP-001'], chunks: whole(body), answer: { status, contentType, message } });

const whole = (text: string): ByteChunk[] => [{ bytes: Buffer.from(text, 'utf8'), delayMs: 0 }];
const everyByte = (text: string, pauseMs: number): ByteChunk[] => [...Buffer.from(text, 'utf8')].map((b, i) => ({ bytes: Uint8Array.of(b), delayMs: i === 0 ? 0 : pauseMs }));

/** How long a command's stdin stays empty before a case written in pieces starts (forStdin). */
export const stdinLeadMs = 1000;

/**
 * A case's chunks as a command client's stdin gets them. A client that is still starting finds
 * every byte already in the pipe at its first read, one chunk, and never sees the splits (a client
 * that decoded each chunk on its own passed so): a case written in pieces waits `leadMs` before its
 * first byte. A start slower than the lead only hides the splits again; it fails nothing. The
 * lead is the harness's wait, not the server's silence: the client gets an idle window longer by
 * it (leadOf), so one whose idle clock starts at process start is not failed by it.
 */
export function forStdin(c: ByteCase, leadMs = stdinLeadMs): ByteChunk[] {
  if (leadOf(c, leadMs) === 0) return c.chunks;
  return c.chunks.map((chunk, i) => (i === 0 ? { ...chunk, delayMs: chunk.delayMs + leadMs } : chunk));
}

/** The wait before a case's first byte on stdin. */
export function leadOf(c: ByteCase, leadMs = stdinLeadMs): number {
  return c.chunks.length < 2 ? 0 : leadMs;
}

/**
 * Every framing requirement of the part has a case here as well as its corpus scenario: the
 * corpus's framing scenarios replay adk-js, and a profile that names other servers leaves them
 * out, while these bytes are what a gateway or proxy may write in front of any server (issue 28 §1).
 */
export const byteCases: ByteCase[] = [
  { id: 'event-field', requirements: ['CLI-EVENT-001'], chunks: whole('event: note\ndata: {"n":1}\n\ndata: {"n":2}\n\nevent: progress\ndata: {"n":3}\n\ndata: {"n":4}\n\n') },
  // WHATWG keeps the last event ID until the next `id:` (an empty one resets it): {"n":2} may carry "7".
  { id: 'id-field', requirements: ['CLI-ID-002'], chunks: whole('id: 7\ndata: {"n":1}\n\ndata: {"n":2}\n\nid: 8\ndata: {"n":3}\n\nid:\ndata: {"n":4}\n\ndata: {"n":5}\n\n') },
  { id: 'retry-field', requirements: ['CLI-RETRY-001'], chunks: whole('retry: 3000\n\ndata: {"n":1}\n\nretry: 10\ndata: {"n":2}\n\n') },
  { id: 'unfinished-event-at-eof', requirements: ['CLI-EOF-001'], chunks: whole('data: {"n":1}\n\ndata: {"n":2}\n') },
  { id: 'one-space-rule', requirements: ['CLI-DATA-004'], chunks: whole('data:{"n":1}\n\ndata:  {"n":2}\n\nevent:  spaced\ndata: {"n":3}\n\n') },
  { id: 'comments-and-blank-lines', requirements: ['CLI-COMMENT-001'], chunks: whole('\n\n: hello\n\n\n:\n\ndata: {"n":1}\n\n\n\n: bye\n\n') },
  // After event-field: an `event:` lost here only (CR and LF in two reads) is the split's fault (metWhole).
  { id: 'split-inside-sequences', requirements: ['CLI-CHUNK-001'], chunks: everyByte('data: {"t":"— ≈ ² € 𝄞"}\r\n\r\nevent: note\r\ndata: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n', 2) },
  // LF events with a CRLF keep-alive and CRLF events after it: what a proxy writing CRLF into an LF stream makes.
  { id: 'crlf', requirements: ['CLI-EOL-001'], chunks: whole('data: {"a":1}\n\n: keep-alive\r\n\r\ndata: {"b":2}\r\n\r\n') },
  { id: 'cr', requirements: ['CLI-EOL-004'], chunks: whole('data: {"a":1}\r\rdata: {"b":2}\r\r') },
  { id: 'mixed-line-ends', requirements: ['CLI-EOL-005'], chunks: whole('data: {"a":1}\r\rdata: {"b":2}\n\ndata: {"c":3}\r\n\r\n') },
  { id: 'bom', requirements: ['CLI-BOM-002'], chunks: whole('\uFEFFdata: {"a":1}\n\ndata: {"b":2}\n\n') },
  { id: 'multi-line-data', requirements: ['CLI-DATA-003'], chunks: whole('data: {"a":\ndata: 1}\n\ndata: {"b":2}\n\n') },
  { id: 'invalid-utf8', requirements: ['CLI-UTF-002'], chunks: [{ bytes: Buffer.concat([Buffer.from('data: {"t":"a'), Buffer.from([0xff, 0xc3]), Buffer.from('b"}\n\ndata: {"n":2}\n\n')]), delayMs: 0 }] },
  { id: 'unicode-line-separators', requirements: ['CLI-LS-001'], chunks: whole('data: {"t":"a\u2028b\u2029c\u0085d"}\n\ndata: {"n":2}\n\n') },
  { id: 'large-event', requirements: ['CLI-LARGE-001'], chunks: whole(`data: {"t":"${'x'.repeat(2 * 1024 * 1024)}"}\n\ndata: {"n":2}\n\n`) },
  { id: 'cut-mid-line', requirements: ['CLI-END-003'], chunks: whole('data: {"a":1}\n\ndata: {"b":'), transport: 'reset' },
  // adk-go goes on streaming after `event: error` (flashErrorEvent): the run ended at the error frame,
  // and the later final answer is no new, completed message (issue 29 §1).
  { id: 'events-after-error-frame', requirements: ['CLI-END-002'], chunks: whole('data: {"author":"root","content":{"role":"model","parts":[{"text":"Looking"}]},"partial":true}\n\nevent: error\ndata: {"error":"model quota exceeded"}\n\ndata: {"author":"root","content":{"role":"model","parts":[{"text":"Cedar Creek burned 6,000 acres."}]},"finishReason":"STOP"}\n\n') },
  // WHATWG strips ONE leading BOM: the second is the first character of the field name "\uFEFFdata", an unknown field, so the first event is lost.
  { id: 'two-boms', requirements: ['CLI-BOM-002'], chunks: whole('\uFEFF\uFEFFdata: {"a":1}\n\ndata: {"b":2}\n\n') },
  // Comments between the lines of one event (a proxy's keep-alive written mid-event): the event goes on.
  { id: 'comment-inside-event', requirements: ['CLI-COMMENT-001'], chunks: whole('data: {"a":1}\n: ping\n\ndata: {"b":2}\n:\n\ndata: {"c":3}\n\n') },
  // Held open after the root's answer (adk-python #4216): a sub-agent's final answer, a pause longer
  // than the grace window but shorter than the idle one, then the root's. Only the root's answer ends the run.
  { id: 'sub-agent-answer-then-root', requirements: ['CLI-END-001'], transport: 'hold-open', chunks: [
    { bytes: Buffer.from('data: {"author":"coordinator","content":{"role":"model","parts":[{"functionCall":{"id":"t1","name":"transfer_to_agent","args":{"agent_name":"researcher"}}}]}}\n\ndata: {"author":"coordinator","content":{"role":"user","parts":[{"functionResponse":{"id":"t1","name":"transfer_to_agent","response":{}}}]}}\n\ndata: {"author":"researcher","content":{"role":"model","parts":[{"text":"Cedar Creek burned 6,000 acres."}]},"finishReason":"STOP"}\n\n', 'utf8'), delayMs: 0 },
    { bytes: Buffer.from('data: {"author":"coordinator","content":{"role":"model","parts":[{"text":"Summary: 6,000 acres burned; containment 40%."}]},"finishReason":"STOP"}\n\n', 'utf8'), delayMs: 600 },
  ] },
  // Answers real servers give before any stream: adk-python's missing session and pydantic refusal, adk-js's failed run.
  httpAnswer('http-404-session', 404, 'application/json', '{"detail":"Session not found: http-404-session"}', 'Session not found: http-404-session'),
  httpAnswer('http-422-validation', 422, 'application/json', '{"detail":[{"type":"missing","loc":["body","newMessage"],"msg":"Field required","input":{"appName":"client_byte_case"}}]}', 'Field required'),
  httpAnswer('http-500-failed-run', 500, 'application/json', '{"error":"Failed to run agent: model quota exceeded"}', 'Failed to run agent: model quota exceeded'),
];

/** A case server's stream head, on its socket and in process alike. */
const streamHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/**
 * The case a request to a case server names: `/case/<id>/run_sse`, or `/run_sse` with the case as
 * its body's sessionId (one base URL for every case: a client object created once, the long-lived
 * probe). Undefined: a path that needs the body to tell (pass it), or names nothing.
 */
export function caseIdOf(path: string, body?: string): string | undefined {
  const m = /^\/case\/([\w-]+)\/run_sse$/.exec(path);
  if (m) return m[1] as string;
  if (body === undefined || path !== '/run_sse') return undefined;
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const named = parsed.sessionId ?? parsed.session_id;
    return typeof named === 'string' ? named : undefined;
  } catch {
    return undefined;
  }
}

/** What a case server answers `c` with, for a transport that is not its socket (in-process-fetch.ts): the same status, headers and chunks. */
export function caseAnswer(c: ByteCase | undefined): Answer {
  if (!c) return { status: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":"Not Found"}') };
  if (c.answer) return { status: c.answer.status, headers: { 'content-type': c.answer.contentType }, body: Buffer.concat(c.chunks.map((x) => x.bytes)) };
  return { status: 200, headers: streamHeaders, body: chunkedBody(c.chunks, c.transport ?? 'eof') };
}

export type CaseServer = { url: string; close: () => Promise<void> };

/** Serve every case on 127.0.0.1 with its chunks and pauses; Nagle off so each write leaves at once. */
export async function serveCases(cases: readonly ByteCase[] = byteCases): Promise<CaseServer> {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    const byPath = caseIdOf(path);
    if (byPath !== undefined) { req.resume(); serve(byPath, req.method, res); return; }
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => serve(caseIdOf(path, Buffer.concat(parts).toString('utf8')) ?? '', req.method, res));
  });
  function serve(id: string, method: string | undefined, res: ServerResponse): void {
    const c = method === 'POST' ? byId.get(id) : undefined;
    if (!c || c.answer) {
      // A whole answer (no such case, or one answered before any stream), as caseAnswer gives it to the in-process transport.
      const whole = caseAnswer(c);
      res.writeHead(whole.status, whole.headers).end(whole.body as Buffer);
      return;
    }
    res.socket?.setNoDelay(true);
    res.writeHead(200, streamHeaders);
    res.flushHeaders();
    let i = 0;
    let stopped = false;
    res.on('close', () => { stopped = true; });
    const next = (): void => {
      if (stopped) return;
      const chunk = c.chunks[i++];
      // A broken connection: no chunked terminator, the socket goes once the last bytes have left
      // (handed to the kernel: the write's callback), so the client reads them, then the close.
      // Held open: the body is whole, the connection stays up until the client closes it (or the server closes).
      if (!chunk) { if (c.transport === 'reset') res.destroy(); else if (c.transport !== 'hold-open') res.end(); return; }
      const write = () => {
        if (stopped) return;
        if (i === c.chunks.length && c.transport === 'reset') { res.write(chunk.bytes, () => res.destroy()); return; }
        res.write(chunk.bytes);
        next();
      };
      if (chunk.delayMs > 0) setTimeout(write, chunk.delayMs); else if (c.eachInItsTurn && i > 1) setImmediate(write); else write();
    };
    next();
  }
  server.keepAliveTimeout = clientServerKeepAliveMs;
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
