/**
 * The tap's request reader against a request-smuggling corpus, side by side with Node's own parser.
 *
 * Each raw request is sent once straight to a plain node:http server (default options) and once
 * through a real tap to another one, on 127.0.0.1. Law: the tap answers no more responses than the
 * client sent requests and never a 502 of its own (the upstream is up); every run it records is a
 * request the upstream's handler received, and nothing else; and the upstream behind the tap
 * receives exactly what Node alone receives (method, target and decoded body), so the tap refuses
 * what Node refuses and passes what Node passes. A refused request gets the tap's one 400
 * (TAP_BAD_REQUEST) and the connection closes.
 *
 * Targets are written `/@...`; each case's `@` becomes its own prefix, so the cases run together
 * and each one's requests and runs are told apart by it (a smuggled request carries it too).
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTap, type TestTap } from './test-support.ts';

type Case = {
  name: string;
  raw: string;
  /** The requests the client meant to send (a body that looks like a request is not one). */
  sent: number;
  /** Node 20's llhttp reads it otherwise (core/http1-strict.ts): compared with Node 24 or later only. */
  node24?: true;
  /** Bytes after a request that closes the connection: Node answers them 400, the tap reads nothing more. */
  afterClose?: true;
};

const chunked = '2\r\n{}\r\n0\r\n\r\n';
const post = (headers: string, body: string) => `POST /@ HTTP/1.1\r\nHost: a\r\n${headers}\r\n${body}`;
const smuggled = 'GET /@/smuggled HTTP/1.1\r\nHost: a\r\n\r\n';

const corpus: Case[] = [
  // What every reader takes the same way.
  { name: 'Content-Length', raw: post('Content-Length: 2\r\n', '{}'), sent: 1 },
  { name: 'chunked', raw: post('Transfer-Encoding: chunked\r\n', chunked), sent: 1 },
  { name: 'chunked with a trailer', raw: post('Transfer-Encoding: chunked\r\n', '2\r\n{}\r\n0\r\nX-T: 1\r\n\r\n'), sent: 1 },
  { name: 'chunk extensions', raw: post('Transfer-Encoding: chunked\r\n', '2;a=b;c\r\n{}\r\n0;x="y z"\r\n\r\n'), sent: 1 },
  { name: 'a 16-digit chunk size', raw: post('Transfer-Encoding: chunked\r\n', '0000000000000002\r\n{}\r\n000\r\n\r\n'), sent: 1 },
  { name: 'two pipelined requests', raw: `GET /@/1 HTTP/1.1\r\nHost: a\r\n\r\n${post('Content-Length: 2\r\n', '{}')}`, sent: 2 },
  { name: 'CRLF before the request line', raw: `\r\n${post('Content-Length: 2\r\n', '{}')}`, sent: 1 },
  // CL.TE and TE.CL: both framings in one request, a second request in the body.
  { name: 'CL.TE', raw: post('Content-Length: 6\r\nTransfer-Encoding: chunked\r\n', `0\r\n\r\n${smuggled}`), sent: 1 },
  { name: 'TE.CL', raw: post('Transfer-Encoding: chunked\r\nContent-Length: 4\r\n', `${(smuggled.length + 1).toString(16)}\r\nX${smuggled}\r\n0\r\n\r\n`), sent: 1 },
  { name: 'CL.TE with an empty chunked body', raw: post('Content-Length: 5\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\n'), sent: 1 },
  { name: 'CL.TE pipelined after a good request', raw: `GET /@/1 HTTP/1.1\r\nHost: a\r\n\r\n${post('Content-Length: 6\r\nTransfer-Encoding: chunked\r\n', `0\r\n\r\n${smuggled}`)}`, sent: 2 },
  // Obfuscated Transfer-Encoding.
  { name: 'TE xchunked', raw: post('Transfer-Encoding: xchunked\r\n', chunked), sent: 1 },
  { name: 'TE chunked, identity', raw: post('Transfer-Encoding: chunked, identity\r\n', chunked), sent: 1 },
  { name: 'TE chunked, chunked', raw: post('Transfer-Encoding: chunked, chunked\r\n', chunked), sent: 1 },
  { name: 'TE chunked twice', raw: post('Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n', chunked), sent: 1 },
  { name: 'TE chunked then another coding', raw: post('Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n', chunked), sent: 1 },
  { name: 'TE another coding then chunked', raw: post('Transfer-Encoding: x\r\nTransfer-Encoding: chunked\r\n', chunked), sent: 1 },
  { name: 'TE gzip, chunked', raw: post('Transfer-Encoding: gzip, chunked\r\n', chunked), sent: 1 },
  { name: 'TE chunked with a trailing comma', raw: post('Transfer-Encoding: chunked,\r\n', chunked), sent: 1 },
  { name: 'TE with a leading comma', raw: post('Transfer-Encoding: ,chunked\r\n', chunked), sent: 1 },
  { name: 'TE chunked;q=1', raw: post('Transfer-Encoding: chunked;q=1\r\n', chunked), sent: 1 },
  { name: 'TE identity', raw: post('Transfer-Encoding: identity\r\n', ''), sent: 1 },
  { name: 'TE in upper case', raw: post('Transfer-Encoding: CHUNKED\r\n', chunked), sent: 1 },
  { name: 'TE after a tab', raw: post('Transfer-Encoding:\tchunked\r\n', chunked), sent: 1 },
  { name: 'TE chunked with a trailing tab', raw: post('Transfer-Encoding: chunked\t\r\n', chunked), sent: 1 },
  { name: 'TE chunked with a trailing space', raw: post('Transfer-Encoding: chunked \r\n', chunked), sent: 1 },
  { name: 'TE with a tab after a comma', raw: post('Transfer-Encoding: x,\tchunked\r\n', chunked), sent: 1 },
  { name: 'TE with a space before the colon', raw: post('Transfer-Encoding : chunked\r\n', chunked), sent: 1 },
  { name: 'TE with a vertical tab', raw: post('Transfer-Encoding: \u000bchunked\r\n', chunked), sent: 1 },
  { name: 'TE empty, then Content-Length', raw: post('Transfer-Encoding: \r\nContent-Length: 2\r\n', '{}'), sent: 1, node24: true },
  { name: 'TE empty, no body', raw: post('Transfer-Encoding: \r\n', ''), sent: 1, node24: true },
  { name: 'TE over a space-led line (CL.TE)', raw: post('Content-Length: 6\r\n Transfer-Encoding: chunked\r\n', `0\r\n\r\n${smuggled}`), sent: 1 },
  { name: 'TE chunked in HTTP/1.0', raw: `POST /@ HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`, sent: 1 },
  // Duplicate and malformed lengths.
  { name: 'two equal Content-Lengths', raw: post('Content-Length: 2\r\nContent-Length: 2\r\n', '{}'), sent: 1 },
  { name: 'two Content-Lengths that differ', raw: post('Content-Length: 2\r\nContent-Length: 40\r\n', `{}${smuggled}`), sent: 1 },
  { name: 'a Content-Length list', raw: post('Content-Length: 2, 2\r\n', '{}'), sent: 1 },
  { name: 'a Content-Length with a sign', raw: post('Content-Length: +2\r\n', '{}'), sent: 1 },
  { name: 'a Content-Length in hex', raw: post('Content-Length: 0x2\r\n', '{}'), sent: 1 },
  { name: 'an empty Content-Length', raw: post('Content-Length: \r\n', ''), sent: 1 },
  { name: 'a Content-Length with leading zeros', raw: post('Content-Length: 002\r\n', '{}'), sent: 1 },
  { name: 'a Content-Length with trailing spaces', raw: post('Content-Length: 2  \r\n', '{}'), sent: 1 },
  { name: 'a Content-Length with a trailing tab', raw: post('Content-Length: 2\t\r\n', '{}'), sent: 1, node24: true },
  { name: 'a Content-Length with a no-break space', raw: post('Content-Length: 2\u00a0\r\n', '{}'), sent: 1 },
  { name: 'a Content-Length over 64 bits', raw: post('Content-Length: 18446744073709551616\r\n', '{}'), sent: 1 },
  { name: 'a Transfer-Encoding trailer', raw: post('Transfer-Encoding: chunked\r\n', '2\r\n{}\r\n0\r\nTransfer-Encoding: chunked\r\n\r\n'), sent: 1 },
  { name: 'a Content-Length trailer', raw: post('Transfer-Encoding: chunked\r\n', '2\r\n{}\r\n0\r\nContent-Length: 40\r\n\r\n'), sent: 1 },
  // obs-fold.
  { name: 'obs-fold (space)', raw: post('X-Foo: a\r\n b\r\nContent-Length: 2\r\n', '{}'), sent: 1 },
  { name: 'obs-fold (tab)', raw: post('X-Foo: a\r\n\tb\r\nContent-Length: 2\r\n', '{}'), sent: 1 },
  { name: 'obs-fold continuing Transfer-Encoding', raw: post('Content-Length: 6\r\nTransfer-Encoding: x\r\n chunked\r\n', `0\r\n\r\n${smuggled}`), sent: 1 },
  { name: 'obs-fold in a trailer', raw: post('Transfer-Encoding: chunked\r\n', '2\r\n{}\r\n0\r\nX-T: 1\r\n 2\r\n\r\n'), sent: 1 },
  // Bare LF and bare CR.
  { name: 'bare LF everywhere', raw: 'POST /@ HTTP/1.1\nHost: a\nContent-Length: 2\n\n{}', sent: 1 },
  { name: 'bare LF after a header', raw: 'POST /@ HTTP/1.1\r\nHost: a\nContent-Length: 2\r\n\r\n{}', sent: 1 },
  { name: 'bare LF ending the head', raw: 'POST /@ HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\n{}', sent: 1 },
  { name: 'bare CR after the request line', raw: 'POST /@ HTTP/1.1\rHost: a\r\nContent-Length: 2\r\n\r\n{}', sent: 1 },
  { name: 'bare CR in a value', raw: post('X: a\rb\r\nContent-Length: 2\r\n', '{}'), sent: 1 },
  { name: 'bare LF after a chunk size', raw: post('Transfer-Encoding: chunked\r\n', '2\n{}\r\n0\r\n\r\n'), sent: 1 },
  { name: 'bare LF after chunk data', raw: post('Transfer-Encoding: chunked\r\n', '2\r\n{}\n0\r\n\r\n'), sent: 1 },
  { name: 'bare LF after the last chunk', raw: post('Transfer-Encoding: chunked\r\n', '2\r\n{}\r\n0\n\n'), sent: 1 },
  { name: 'bare LF after a trailer', raw: post('Transfer-Encoding: chunked\r\n', '2\r\n{}\r\n0\r\nX-T: 1\n\r\n'), sent: 1 },
  // Invalid chunk sizes.
  { name: 'a negative chunk size', raw: post('Transfer-Encoding: chunked\r\n', '-1\r\n{}\r\n0\r\n\r\n'), sent: 1 },
  { name: 'a chunk size with 0x', raw: post('Transfer-Encoding: chunked\r\n', '0x2\r\n{}\r\n0\r\n\r\n'), sent: 1 },
  { name: 'a chunk size with a trailing space', raw: post('Transfer-Encoding: chunked\r\n', '2 \r\n{}\r\n0\r\n\r\n'), sent: 1 },
  { name: 'a chunk size with a leading space', raw: post('Transfer-Encoding: chunked\r\n', ' 2\r\n{}\r\n0\r\n\r\n'), sent: 1 },
  { name: 'a space before a chunk extension', raw: post('Transfer-Encoding: chunked\r\n', '2 ;a\r\n{}\r\n0\r\n\r\n'), sent: 1 },
  { name: 'an empty chunk extension', raw: post('Transfer-Encoding: chunked\r\n', '2;\r\n{}\r\n0\r\n\r\n'), sent: 1 },
  { name: 'a chunk extension with a space', raw: post('Transfer-Encoding: chunked\r\n', '2;a=b c\r\n{}\r\n0\r\n\r\n'), sent: 1 },
  { name: 'an empty chunk size', raw: post('Transfer-Encoding: chunked\r\n', '\r\n{}\r\n0\r\n\r\n'), sent: 1 },
  { name: 'a chunk size over 64 bits', raw: post('Transfer-Encoding: chunked\r\n', 'FFFFFFFFFFFFFFFFF\r\n{}\r\n0\r\n\r\n'), sent: 1 },
  { name: 'a chunk longer than its size', raw: post('Transfer-Encoding: chunked\r\n', '2\r\n{}x\r\n0\r\n\r\n'), sent: 1 },
  // Other head errors.
  { name: 'a header without a colon', raw: post('foo\r\nContent-Length: 2\r\n', '{}'), sent: 1 },
  { name: 'a NUL in a value', raw: post('X: a\u0000b\r\nContent-Length: 2\r\n', '{}'), sent: 1 },
  { name: 'a DEL in a value', raw: post('X: a\u007fb\r\nContent-Length: 2\r\n', '{}'), sent: 1 },
  { name: 'obs-text in a value', raw: post('X: caf\u00e9\r\nContent-Length: 2\r\n', '{}'), sent: 1 },
  { name: 'a non-ASCII target', raw: 'GET /@/caf\u00e9 HTTP/1.1\r\nHost: a\r\n\r\n', sent: 1 },
  { name: 'HTTP/1.2', raw: 'GET /@ HTTP/1.2\r\nHost: a\r\n\r\n', sent: 1 },
  // A request that closes the connection, and more bytes after it.
  { name: 'a request after Connection: close', raw: `GET /@/1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET /@/2 HTTP/1.1\r\nHost: a\r\n\r\n`, sent: 2, afterClose: true },
  { name: 'a request after an HTTP/1.0 one', raw: `GET /@/1 HTTP/1.0\r\nHost: a\r\n\r\nGET /@/2 HTTP/1.0\r\nHost: a\r\n\r\n`, sent: 2, afterClose: true },
  { name: 'Connection: close with a trailing tab (a close to Node 24, not to Node 20)', raw: `GET /@/1 HTTP/1.1\r\nHost: a\r\nConnection: close\t\r\n\r\nGET /@/2 HTTP/1.1\r\nHost: a\r\n\r\n`, sent: 2, afterClose: true, node24: true },
  { name: 'Connection: keep-alive, then close', raw: `GET /@/1 HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\nConnection: close\r\n\r\nGET /@/2 HTTP/1.1\r\nHost: a\r\n\r\n`, sent: 2, afterClose: true },
  { name: 'pipelined HTTP/1.0 keep-alive', raw: `GET /@/1 HTTP/1.0\r\nHost: a\r\nConnection: keep-alive\r\n\r\nGET /@/2 HTTP/1.0\r\nHost: a\r\n\r\n`, sent: 2 },
];

/** A plain node:http server (default options) that records what its handler received, per case prefix. */
async function recordingServer(): Promise<{ url: string; port: number; seen: Map<string, string[]>; close: () => Promise<void> }> {
  const seen = new Map<string, string[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const prefix = /^\/(c\d+)/.exec(req.url ?? '')?.[1] ?? 'none';
      seen.set(prefix, [...(seen.get(prefix) ?? []), `${req.method} ${req.url} ${JSON.stringify(Buffer.concat(chunks).toString('latin1'))}`]);
      res.setHeader('content-length', 2);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, seen, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

/** Sends the bytes and reads until the connection closes, or nothing came for `idleMs`. */
function exchange(port: number, raw: string, idleMs = 600): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    let timer = setTimeout(() => socket.destroy(), idleMs * 3);
    socket.on('data', (d: Buffer) => { got.push(d); clearTimeout(timer); timer = setTimeout(() => socket.destroy(), idleMs); });
    socket.on('error', () => { /* close follows */ });
    socket.on('close', () => { clearTimeout(timer); resolve(Buffer.concat(got).toString('latin1')); });
    socket.write(Buffer.from(raw, 'latin1'));
  });
}

const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => m[1] as string);

type Outcome = { direct: string[]; directSeen: string[]; tap: string[]; tapText: string; upstreamSeen: string[]; runs: string[] };

let direct: Awaited<ReturnType<typeof recordingServer>>;
let upstream: Awaited<ReturnType<typeof recordingServer>>;
let tap: TestTap;
const outcomes = new Map<string, Outcome>();

beforeAll(async () => {
  direct = await recordingServer();
  upstream = await recordingServer();
  tap = await startTestTap(upstream.url, 'adk');
  const tapPort = Number(new URL(tap.url).port);
  const cases = corpus.map((c, i) => ({ c, prefix: `c${i}`, raw: c.raw.replaceAll('/@', `/c${i}`) }));
  // A few at a time: each waits for its connection's idle end.
  for (let i = 0; i < cases.length; i += 8) {
    await Promise.all(cases.slice(i, i + 8).map(async ({ c, prefix, raw }) => {
      const [d, t] = await Promise.all([exchange(direct.port, raw), exchange(tapPort, raw)]);
      outcomes.set(c.name, { direct: statuses(d), directSeen: direct.seen.get(prefix) ?? [], tap: statuses(t), tapText: t, upstreamSeen: upstream.seen.get(prefix) ?? [], runs: [] });
    }));
  }
  // Every run has ended by now (each connection closed or sat idle); runs are told apart by prefix.
  for (const [i, c] of corpus.entries()) {
    const o = outcomes.get(c.name) as Outcome;
    o.runs = tap.ended.filter((e) => new RegExp(`^/c${i}(/|$)`).test(e.run.url)).map((e) => `${e.run.method} ${e.run.url}`);
  }
}, 120_000);

afterAll(async () => {
  await tap?.close();
  await direct?.close();
  await upstream?.close();
});

describe('the tap\'s request reader against a request-smuggling corpus, beside node:http', () => {
  const judge = (name: string, c: Case) => {
    const o = outcomes.get(name) as Outcome;
    const what = JSON.stringify({ ...o, tapText: o.tapText.slice(0, 400) }, null, 1);
    // Never more answers than requests, and never the tap's own 502: the upstream was up.
    expect(o.tap.length, what).toBeLessThanOrEqual(c.sent);
    expect(o.tap, what).not.toContain('502');
    // Behind the tap, Node's handler receives exactly what it receives alone.
    expect(o.upstreamSeen, what).toEqual(o.directSeen);
    // Every run is a request the upstream received, and every request it received is a run.
    expect(o.runs, what).toEqual(o.upstreamSeen.map((s) => s.split(' ').slice(0, 2).join(' ')));
    const refused = o.direct.includes('400');
    if (c.afterClose) {
      // Node answers the bytes after a closing request 400; the tap reads nothing after it and answers the request it forwarded.
      expect(refused, what).toBe(true);
      expect(o.tap, what).toEqual(['200']);
    } else if (refused) {
      // Refused as Node refuses it: the answers owed before it, then one 400 of the tap's own.
      expect(o.tap, what).toEqual([...o.upstreamSeen.map(() => '200'), '400']);
      expect(o.tapText, what).toContain('"code":"TAP_BAD_REQUEST"');
    } else {
      expect(o.tap, what).toEqual(o.direct);
    }
  };
  it.each(corpus.filter((c) => !c.node24).map((c) => [c.name, c] as const))('%s', judge);
  // Node 20's parser reads these otherwise; the kit's scripts run on Node 24 (package.json's devDependency `node`).
  it.skipIf(Number(process.versions.node.split('.')[0]) < 24).each(corpus.filter((c) => c.node24).map((c) => [c.name, c] as const))('%s (Node 24 and later)', judge);

  it('covers both sides: Node accepts some of the corpus and refuses some', () => {
    const refused = corpus.filter((c) => outcomes.get(c.name)?.direct.includes('400'));
    expect(refused.length).toBeGreaterThan(40);
    expect(corpus.length - refused.length).toBeGreaterThan(15);
  });
});

describe('a pipelined request behind an answer that closes the connection', () => {
  it('is no run and gets no answer of the tap\'s own: the upstream never read it', async () => {
    // An upstream that answers its first request with `Connection: close` and closes, as servers may (RFC 9112 §9.6).
    const received: string[] = [];
    const server = net.createServer((socket) => {
      socket.once('data', (d: Buffer) => {
        received.push(d.toString('latin1'));
        socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const closing = await startTestTap(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, 'adk');
    try {
      const text = await exchange(Number(new URL(closing.url).port), 'GET /first HTTP/1.1\r\nHost: a\r\n\r\nGET /second HTTP/1.1\r\nHost: a\r\n\r\n');
      expect(statuses(text)).toEqual(['200']);
      await closing.waitEnded(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(closing.ended.map((e) => `${e.run.url} ${e.summary.ending}`)).toEqual(['/first eof']);
      expect(received).toHaveLength(1);
    } finally {
      await closing.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
