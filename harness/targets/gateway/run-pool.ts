/**
 * GW-MEM-002's driver: thousands of the same POST through a few keep-alive connections, each
 * answer read by core/http1-reader.ts for its framing only (Content-Length, chunked, or until the
 * close) and judged by its status and whether it ended, its bytes counted, never kept. Node's
 * `http.request` and `IncomingMessage` cost the harness about 0.5 ms of CPU per run here against
 * about 0.3 ms this way (a throwaway bench of 2,000 runs through the reference gateway,
 * docs/performance.md fix 51), and the harness's event loop is the certification's busiest.
 * The requests are real: one prebuilt HTTP/1.1 message per run, the bytes Node would send.
 */
import net from 'node:net';
import { closesConnection, createHttp1Reader, type Http1Head, type Http1Reader } from '../../../core/http1-reader.ts';

export type RunPoolOptions = {
  /** The gateway's `http://127.0.0.1:<port>/run_sse`. */
  url: string;
  headers: Record<string, string>;
  body: string;
  /** A run that receives nothing for this long is over ('deadline'): the window restarts with every chunk. */
  idleMs: number;
  signal: AbortSignal;
};

/** A run's answer: undefined for a 200 that ended, else why not (`HTTP 502 complete`, `HTTP - connect-failed (ECONNREFUSED)`). */
export type RunPool = { one: () => Promise<string | undefined>; close: () => void };

type Pending = { status?: number; closes: boolean; touch: () => void; done: (ending: 'complete' | 'broken' | 'deadline' | 'connect-failed' | 'aborted', error?: string) => void };

type Connection = { socket: net.Socket; reader: Http1Reader; pending?: Pending; connected: boolean; error?: string };

/** How often a run whose connection never opened is tried again. */
const connectRetries = 2;

export function createRunPool(o: RunPoolOptions): RunPool {
  const url = new URL(o.url);
  const port = Number(url.port || 80);
  const headerLines = Object.entries(o.headers).filter(([k]) => !/^(host|content-length|connection)$/i.test(k)).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const request = Buffer.from(`POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n${headerLines}content-length: ${Buffer.byteLength(o.body)}\r\nconnection: keep-alive\r\n\r\n${o.body}`);
  const idle: Connection[] = [];
  const all = new Set<Connection>();

  const open = (): Connection => {
    const socket = net.connect(port, url.hostname);
    socket.setNoDelay(true);
    const c: Connection = {
      socket,
      connected: false,
      reader: createHttp1Reader({
        kind: 'response',
        onHead: (head: Http1Head) => { if (c.pending) { c.pending.status = head.status; c.pending.closes = closesConnection(head.version, head.headers); } },
        onBody: () => {},
        onMessageEnd: () => c.pending?.done('complete'),
        onError: (_code, message) => c.pending?.done('broken', message),
      }),
    };
    all.add(c);
    socket.on('connect', () => { c.connected = true; });
    socket.on('data', (chunk: Buffer) => { c.pending?.touch(); c.reader.feed(chunk); });
    socket.on('error', (error: NodeJS.ErrnoException) => { c.error ??= error.code ?? error.message; });
    socket.on('close', () => {
      all.delete(c);
      const at = idle.indexOf(c);
      if (at !== -1) idle.splice(at, 1);
      // A body delimited by the close ends here; anything else was cut.
      if (c.reader.end()) return;
      c.pending?.done(c.pending.status === undefined && !c.connected ? 'connect-failed' : 'broken', c.connected ? 'the connection closed before the response ended' : `the connection was refused or reset${c.error ? `: ${c.error}` : ''}`);
    });
    return c;
  };

  // A connection that never opened carried no run: nothing reached the gateway. On a loaded machine a
  // connect can fail by itself (clean-clone CI, 2026-11-30: 1,707 of 9,000 runs of a leaking gateway
  // mutant, which passes alone and beside four busy processes), so it is tried again, a little later,
  // twice; a gateway that is gone still fails every run.
  const one = async (): Promise<string | undefined> => {
    let why = await attempt();
    for (let retry = 1; retry <= connectRetries && why?.startsWith('HTTP - connect-failed') && !o.signal.aborted; retry++) {
      await new Promise((resolve) => setTimeout(resolve, 25 * retry));
      why = await attempt();
    }
    return why;
  };

  const attempt = (): Promise<string | undefined> => new Promise((resolve) => {
    if (o.signal.aborted) { resolve('aborted'); return; }
    const c = idle.pop() ?? open();
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => pending.done('aborted');
    const pending: Pending = {
      closes: false,
      done: (ending, error) => {
        if (c.pending !== pending) return;
        c.pending = undefined;
        clearTimeout(timer);
        o.signal.removeEventListener('abort', onAbort);
        const reusable = ending === 'complete' && !pending.closes && c.reader.idle() && !c.socket.destroyed;
        if (reusable) idle.push(c);
        else c.socket.destroy();
        resolve(pending.status === 200 && ending === 'complete' ? undefined : `HTTP ${pending.status ?? '-'} ${ending}${error ? ` (${error})` : ''}`);
      },
      touch: () => timer?.refresh(),
    };
    c.pending = pending;
    timer = setTimeout(() => pending.done('deadline'), o.idleMs);
    o.signal.addEventListener('abort', onAbort, { once: true });
    c.socket.write(request);
  });

  return {
    one,
    close: () => { for (const c of all) c.socket.destroy(); all.clear(); idle.length = 0; },
  };
}
