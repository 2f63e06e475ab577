/**
 * tap/server.ts at the byte level: what a client reads through the tap is what the upstream wrote,
 * status line, header spelling and chunk framing included; keep-alive and pipelined requests are
 * each a run; a client that does not speak HTTP gets a 400 and the tap keeps serving.
 */
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { jsFinalFrame, runBody, startTestTap } from './test-support.ts';

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => { for (const c of cleanup.reverse()) await c(); });

/** A TCP upstream that answers each request head it reads with `answer` (a raw HTTP response). */
async function rawUpstream(answer: (n: number) => string): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = net.createServer((socket) => {
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end !== -1; end = pending.indexOf('\r\n\r\n')) {
        const head = pending.slice(0, end + 4);
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) break;
        requests.push(pending.slice(0, end + 4 + length));
        pending = pending.slice(end + 4 + length);
        socket.write(answer(requests.length));
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  cleanup.push(() => new Promise((resolve) => { server.close(() => resolve()); }));
  return { url: `http://127.0.0.1:${port}`, requests };
}

/** Send raw bytes to the tap and read until the connection closes or `until` matches. */
function exchange(url: string, bytes: string, until: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    let text = '';
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`no whole answer within 10 s; got ${JSON.stringify(text)}`)); }, 10_000);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (until(text)) { clearTimeout(timer); socket.destroy(); resolve(text); }
    });
    socket.on('close', () => { clearTimeout(timer); resolve(text); });
    socket.on('error', () => {});
  });
}

const final = jsFinalFrame();
// ASCII only (non-ASCII escaped), so string lengths are byte counts in the raw exchanges below.
const sse = `data: ${JSON.stringify(final.event).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n\n`;
/** Chunk sizes chosen by the upstream: the client must see these very sizes, not a re-framing. */
const chunked = (reason: string) => `HTTP/1.1 200 ${reason}\r\nX-Powered-By: Express\r\ncontent-type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n${(7).toString(16)}\r\n${sse.slice(0, 7)}\r\n${(sse.length - 7).toString(16)};note=x\r\n${sse.slice(7)}\r\n0\r\n\r\n`;

describe('the tap shell at the byte level', () => {
  it('a client reads the upstream\'s bytes exactly: reason phrase, header case, chunk sizes and extensions', async () => {
    const upstream = await rawUpstream(() => chunked('Fine Thanks'));
    const tap = await startTestTap(upstream.url, 'adk');
    cleanup.push(tap.close);
    const body = runBody('s1');
    const got = await exchange(tap.url, `POST /run_sse HTTP/1.1\r\nHost: client.example\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`, (t) => t.endsWith('0\r\n\r\n'));
    expect(got).toBe(chunked('Fine Thanks'));
    // The request went up as sent, but for Host.
    expect(upstream.requests[0]).toBe(`POST /run_sse HTTP/1.1\r\nHost: ${new URL(upstream.url).host}\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    await tap.waitEnded(1);
    expect(tap.ended[0]?.summary).toMatchObject({ ending: 'eof', frames: 1, failed: false });
  });

  it('two pipelined requests on one connection are two runs, answered in order', async () => {
    const upstream = await rawUpstream((n) => chunked(`OK ${n}`));
    const tap = await startTestTap(upstream.url, 'adk');
    cleanup.push(tap.close);
    const request = (s: string) => { const body = runBody(s); return `POST /run_sse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`; };
    const got = await exchange(tap.url, request('a') + request('b'), (t) => t.split('0\r\n\r\n').length === 3);
    expect(got).toBe(chunked('OK 1') + chunked('OK 2'));
    await tap.waitEnded(2);
    expect(tap.ended.map((e) => [e.summary.ending, e.summary.frames, e.summary.failed])).toEqual([['eof', 1, false], ['eof', 1, false]]);
  });

  it('an interim 100 Continue goes to the client as it came, and the run is judged on the final answer', async () => {
    const upstream = await rawUpstream(() => `HTTP/1.1 100 Continue\r\n\r\n${chunked('OK')}`);
    const tap = await startTestTap(upstream.url, 'adk');
    cleanup.push(tap.close);
    const body = runBody('s3');
    const got = await exchange(tap.url, `POST /run_sse HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`, (t) => t.endsWith('0\r\n\r\n'));
    expect(got).toBe(`HTTP/1.1 100 Continue\r\n\r\n${chunked('OK')}`);
    await tap.waitEnded(1);
    expect(tap.ended[0]?.summary).toMatchObject({ ending: 'eof', status: 200, frames: 1, failed: false });
  });

  it('a request head that does not arrive whole in time gets a 408 TAP_BAD_REQUEST, and nothing goes up', async () => {
    const upstream = await rawUpstream(() => chunked('OK'));
    const tap = await startTestTap(upstream.url, 'adk', { headTimeoutMs: 200 });
    cleanup.push(tap.close);
    const got = await exchange(tap.url, 'POST /run_sse HTTP/1.1\r\nHost: x\r\nContent-Type: appl', () => false);
    expect(got).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(JSON.parse(got.slice(got.indexOf('\r\n\r\n') + 4)) as unknown).toMatchObject({ code: 'TAP_BAD_REQUEST', error: expect.stringMatching(/within 200 ms/) as unknown });
    expect(upstream.requests).toEqual([]);
  });

  it('after 101 Switching Protocols the bytes both ways are a tunnel: passed on, not read as HTTP', async () => {
    // An upstream that switches protocols, then echoes every byte back in upper case.
    const server = net.createServer((socket) => {
      let switched = false;
      socket.on('data', (chunk: Buffer) => {
        if (!switched) { switched = true; socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n'); return; }
        socket.write(chunk.toString('latin1').toUpperCase());
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((resolve) => { server.close(() => resolve()); }));
    const tap = await startTestTap(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, 'adk');
    cleanup.push(tap.close);
    const { hostname, port } = new URL(tap.url);
    const got = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => socket.write('GET /echo HTTP/1.1\r\nHost: x\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n'));
      let text = '';
      const timer = setTimeout(() => { socket.destroy(); reject(new Error(`no echo within 10 s; got ${JSON.stringify(text)}`)); }, 10_000);
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (text.endsWith('\r\n\r\n') && !text.includes('NOT HTTP')) socket.write('not http at all\r\n\r\n');
        if (text.includes('NOT HTTP AT ALL')) { clearTimeout(timer); socket.destroy(); resolve(text); }
      });
      socket.on('error', () => {});
    });
    expect(got).toBe('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\nNOT HTTP AT ALL\r\n\r\n');
    await tap.waitEnded(1);
    expect(tap.ended[0]?.summary).toMatchObject({ ending: 'eof', status: 101 });
  });

  it('a client that does not speak HTTP gets a 400 TAP_BAD_REQUEST, and the tap keeps serving', async () => {
    const upstream = await rawUpstream(() => chunked('OK'));
    const tap = await startTestTap(upstream.url, 'adk');
    cleanup.push(tap.close);
    const bad = await exchange(tap.url, '\x16\x03\x01\x02\x00 not http\r\n\r\n', () => false);
    expect(bad).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(bad.slice(bad.indexOf('\r\n\r\n') + 4)) as unknown).toMatchObject({ code: 'TAP_BAD_REQUEST', error: expect.stringMatching(/HPE_INVALID_METHOD/) as unknown });
    expect(upstream.requests).toEqual([]);
    const body = runBody('s2');
    const good = await exchange(tap.url, `POST /run_sse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`, (t) => t.endsWith('0\r\n\r\n'));
    expect(good).toBe(chunked('OK'));
  });
});
