/**
 * GW-MEM-002's run pool against servers that frame their answers every way HTTP/1.1 allows, and
 * against the ways a run fails: what it says of each must be what node:http's client said.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunPool } from './run-pool.ts';

type Raw = { url: string; requests: () => number; connections: () => number; close: () => Promise<void> };

/** A server that reads each request head and body (Content-Length) and answers with `answer(n)`'s bytes; `end` closes after it. */
async function rawServer(answer: (n: number) => { bytes: string; end?: boolean; hang?: boolean }): Promise<Raw> {
  let requests = 0;
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    let buf = '';
    socket.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      for (;;) {
        const at = buf.indexOf('\r\n\r\n');
        if (at < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buf.slice(0, at))?.[1] ?? 0);
        if (buf.length < at + 4 + length) return;
        buf = buf.slice(at + 4 + length);
        const a = answer(++requests);
        if (a.hang) return;
        if (a.end) socket.end(a.bytes, 'latin1');
        else socket.write(a.bytes, 'latin1');
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/run_sse`,
    requests: () => requests,
    connections: () => connections,
    close: () => new Promise((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}

const sse = 'data: {"a":1}\n\n';
const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => { for (const c of closers.splice(0)) await c(); });

async function runs(url: string, n: number, idleMs = 2000, signal = new AbortController().signal): Promise<Array<string | undefined>> {
  const pool = createRunPool({ url, headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: '{"x":1}', idleMs, signal });
  closers.push(() => pool.close());
  const out: Array<string | undefined> = [];
  for (let i = 0; i < n; i++) out.push(await pool.one());
  return out;
}

describe('the GW-MEM-002 run pool', () => {
  it('reads Content-Length answers on one kept-alive connection', async () => {
    const s = await rawServer(() => ({ bytes: `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${sse.length}\r\n\r\n${sse}` }));
    closers.push(s.close);
    expect(await runs(s.url, 5)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(s.requests()).toBe(5);
    expect(s.connections()).toBe(1);
  });

  it('reads chunked answers, split anywhere, and answers delimited by the close (a new connection each)', async () => {
    const chunked = `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${sse.length.toString(16)}\r\n${sse}\r\n0\r\n\r\n`;
    const s = await rawServer((n) => (n % 2 === 1 ? { bytes: chunked } : { bytes: `HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n${sse}`, end: true }));
    closers.push(s.close);
    expect(await runs(s.url, 4)).toEqual([undefined, undefined, undefined, undefined]);
    // Runs 2 and 4 closed their connection: 3 and (none after 4) needed new ones.
    expect(s.connections()).toBe(2);
  });

  it('says what went wrong as the node:http exchange did: a status, a cut body, a refused connection, a silence past the window, an abort', async () => {
    const s = await rawServer((n) => (n === 1 ? { bytes: 'HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n' }
      : n === 2 ? { bytes: `HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n${sse}`, end: true }
        : { bytes: '', hang: true }));
    closers.push(s.close);
    const [status, cut, silent] = await runs(s.url, 3, 300);
    expect(status).toBe('HTTP 502 complete');
    expect(cut).toMatch(/^HTTP 200 broken/);
    expect(silent).toBe('HTTP - deadline');
    const refused = await rawServer(() => ({ bytes: '' }));
    await refused.close();
    // Tried three times (a connect can fail by itself on a loaded machine), then said with its code.
    expect((await runs(refused.url, 1))[0]).toMatch(/^HTTP - connect-failed \(the connection was refused or reset: ECONNREFUSED\)$/);
    const controller = new AbortController();
    const hang = await rawServer(() => ({ bytes: '', hang: true }));
    closers.push(hang.close);
    const pending = runs(hang.url, 1, 5000, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect((await pending)[0]).toBe('HTTP - aborted');
  });
});
