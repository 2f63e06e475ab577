/**
 * Byte streams the corpus does not hold, written by the harness for the client part: `event:` and
 * `id:` fields, the one-space rule, comment and blank-line runs, an event unfinished at a clean
 * EOF, and a body written one byte at a time with a pause between writes (so a reader sees a split
 * inside each UTF-8 sequence and between CR and LF, on a pipe and over TCP alike). Under the module
 * contract a small server on 127.0.0.1 serves them at `<base>/case/<id>/run_sse`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ByteChunk } from './client-capture.ts';

export type ByteCase = { id: string; requirements: string[]; chunks: ByteChunk[] };

const whole = (text: string): ByteChunk[] => [{ bytes: Buffer.from(text, 'utf8'), delayMs: 0 }];
const everyByte = (text: string, pauseMs: number): ByteChunk[] => [...Buffer.from(text, 'utf8')].map((b, i) => ({ bytes: Uint8Array.of(b), delayMs: i === 0 ? 0 : pauseMs }));

/**
 * A case's chunks as a command client's stdin gets them. A client that is still starting finds
 * every byte already in the pipe at its first read, one chunk, and never sees the splits (a client
 * that decoded each chunk on its own passed so): a case written in pieces waits `leadMs` before its
 * first byte. A start slower than the lead only hides the splits again; it fails nothing.
 */
export function forStdin(c: ByteCase, leadMs = 1000): ByteChunk[] {
  if (c.chunks.length < 2) return c.chunks;
  return c.chunks.map((chunk, i) => (i === 0 ? { ...chunk, delayMs: chunk.delayMs + leadMs } : chunk));
}

export const byteCases: ByteCase[] = [
  {
    id: 'event-and-id-fields', requirements: ['CLI-EVENT-001', 'CLI-ID-001'],
    chunks: whole('retry: 3000\n\nevent: note\nid: 7\ndata: {"n":1}\n\nid: 8\ndata: {"n":2}\n\nevent: progress\ndata: {"n":3}\n\ndata: {"n":4}\n\n'),
  },
  { id: 'unfinished-event-at-eof', requirements: ['CLI-EOF-001'], chunks: whole('data: {"n":1}\n\ndata: {"n":2}\n') },
  { id: 'one-space-rule', requirements: ['CLI-DATA-002'], chunks: whole('data:{"n":1}\n\ndata:  {"n":2}\n\nevent:  spaced\ndata: {"n":3}\n\n') },
  { id: 'comments-and-blank-lines', requirements: ['CLI-COMMENT-001'], chunks: whole('\n\n: hello\n\n\n:\n\ndata: {"n":1}\n\n\n\n: bye\n\n') },
  { id: 'split-inside-sequences', requirements: ['CLI-CHUNK-001'], chunks: everyByte('data: {"t":"— ≈ ² € 𝄞"}\r\n\r\ndata: {"a":1}\r\ndata: {"b":2}\r\n\r\n', 2) },
];

export type CaseServer = { url: string; close: () => Promise<void> };

/** Serve every case on 127.0.0.1 with its chunks and pauses; Nagle off so each write leaves at once. */
export async function serveCases(cases: readonly ByteCase[] = byteCases): Promise<CaseServer> {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const server: Server = createServer((req, res) => {
    const m = /^\/case\/([\w-]+)\/run_sse$/.exec(req.url ?? '');
    const c = m ? byId.get(m[1] as string) : undefined;
    req.resume();
    if (!c || req.method !== 'POST') { res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}'); return; }
    res.socket?.setNoDelay(true);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    let i = 0;
    let stopped = false;
    res.on('close', () => { stopped = true; });
    const next = (): void => {
      if (stopped) return;
      const chunk = c.chunks[i++];
      if (!chunk) { res.end(); return; }
      const write = () => { if (!stopped) { res.write(chunk.bytes); next(); } };
      if (chunk.delayMs > 0) setTimeout(write, chunk.delayMs); else write();
    };
    next();
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
