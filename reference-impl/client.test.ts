import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunClient } from './client.ts';
import type { ClientFrame } from './transformer/frames.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const handlers = new Map<string, Handler>();
const received: Array<{ path: string; headers: IncomingMessage['headers']; body: string }> = [];
const closedEarly = new Set<string>();
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body });
      res.on('close', () => { if (!res.writableEnded) closedEarly.add(path); });
      (handlers.get(path) ?? ((_q, r) => { r.writeHead(404).end('no handler'); }))(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const sse = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
async function collect(path: string, options: Parameters<typeof createRunClient>[0] extends infer C ? Partial<C> : never = {}, signal?: AbortSignal): Promise<ClientFrame[]> {
  const client = createRunClient({ baseUrl, path, idleMs: 2000, ...options });
  const frames: ClientFrame[] = [];
  for await (const frame of client.run({ appName: 'plain_text', userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'hi' }] } }, signal ? { signal } : {})) frames.push(frame);
  return frames;
}
const kinds = (frames: ClientFrame[]) => frames.map((f) => (f.kind === 'end' ? `end:${f.reason}` : f.kind));
const answer = '{"invocationId":"e-1","author":"assistant","id":"B8EWHkk1","content":{"role":"model","parts":[{"text":"Done."}]},"finishReason":"STOP"}';

describe('the POST SSE client (seed 004 "POST SSE Client")', () => {
  it('POSTs the request as JSON with Accept: text/event-stream and the configured headers', async () => {
    handlers.set('/req', (_q, res) => { sse(res); res.end(); });
    await collect('/req', { headers: { authorization: 'Bearer t' } });
    const request = received.find((r) => r.path === '/req');
    expect(request?.headers).toMatchObject({ accept: 'text/event-stream', 'content-type': 'application/json', authorization: 'Bearer t' });
    expect(JSON.parse(request?.body ?? '')).toEqual({ appName: 'plain_text', userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'hi' }] } });
  });

  it('yields each event as it is framed, then the EOF end', async () => {
    handlers.set('/eof', (_q, res) => { sse(res); res.write(`data: ${answer}\n\n`); res.end(`data: ${answer.replace('B8EWHkk1', 'C9')}\n\n`); });
    const frames = await collect('/eof');
    expect(kinds(frames)).toEqual(['event', 'event', 'end:eof']);
  });

  it('reads CRLF and CR line ends, a BOM, comments and multi-line data the WHATWG way', async () => {
    handlers.set('/framing', (_q, res) => {
      sse(res);
      res.write(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`: keep-alive\r\ndata: ${answer}\r\n\r\n`)]));
      res.write(`data: {"a":\rdata: 1}\r\r`);
      res.end();
    });
    const frames = await collect('/framing');
    expect(kinds(frames)).toEqual(['event', 'event', 'end:eof']);
    expect(frames[1]).toMatchObject({ kind: 'event', data: '{"a":\n1}', event: { a: 1 } });
  });

  it('drops an event unfinished at EOF and surfaces it as an issue', async () => {
    handlers.set('/cut', (_q, res) => { sse(res); res.write(`data: ${answer}\n\n`); res.end('data: {"author":"assis'); });
    const frames = await collect('/cut');
    expect(kinds(frames)).toEqual(['event', 'issue', 'end:eof']);
    expect(frames[1]).toMatchObject({ kind: 'issue', issue: { kind: 'unterminated-event' } });
  });

  it('an error frame ends the run even when the server keeps the connection open', async () => {
    handlers.set('/error', (_q, res) => { sse(res); res.write('data: {"error": "boom"}\n\n'); });
    const frames = await collect('/error');
    expect(kinds(frames)).toEqual(['error', 'end:error-frame']);
  });

  it('a [DONE] sentinel ends the run', async () => {
    handlers.set('/done', (_q, res) => { sse(res); res.write(`data: ${answer}\n\ndata: [DONE]\n\n`); });
    expect(kinds(await collect('/done'))).toEqual(['event', 'done', 'end:done-sentinel']);
  });

  it('a connection held open after the final answer completes by the final rule after the grace window', async () => {
    handlers.set('/hold', (_q, res) => { sse(res); res.write(`data: ${answer}\n\n`); });
    expect(kinds(await collect('/hold', { idleMs: 400, graceMs: 50 }))).toEqual(['event', 'end:final-rule']);
  });

  it('a connection held open with no answer ends by the idle fallback', async () => {
    handlers.set('/idle', (_q, res) => { sse(res); res.write('data: {"author":"a","content":{"role":"model","parts":[{"text":"x"}]},"partial":true}\n\n'); });
    expect(kinds(await collect('/idle', { idleMs: 100 }))).toEqual(['event', 'end:idle']);
  });

  it('a non-200 answer is an http-error end with the status and the body text', async () => {
    handlers.set('/404', (_q, res) => { res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end('{"error":"Session not found: s1"}'); });
    expect(await collect('/404')).toEqual([{ kind: 'end', reason: 'http-error', status: 404, body: '{"error":"Session not found: s1"}' }]);
  });

  it('a 200 that is not text/event-stream is read as SSE, with an issue saying so', async () => {
    handlers.set('/json', (_q, res) => { res.writeHead(200, { 'content-type': 'application/json' }).end(`data: ${answer}\n\n`); });
    expect(kinds(await collect('/json'))).toEqual(['issue', 'event', 'end:eof']);
  });

  it('an abort ends the run with the aborted end and closes the connection', async () => {
    handlers.set('/abort', (_q, res) => { sse(res); res.write('data: {"author":"a","content":{"role":"model","parts":[{"text":"x"}]},"partial":true}\n\n'); });
    const controller = new AbortController();
    const client = createRunClient({ baseUrl, path: '/abort', idleMs: 5000 });
    const frames: ClientFrame[] = [];
    for await (const frame of client.run({}, { signal: controller.signal })) { frames.push(frame); if (frame.kind === 'event') controller.abort(); }
    expect(kinds(frames)).toEqual(['event', 'end:aborted']);
    await expect.poll(() => closedEarly.has('/abort')).toBe(true);
  });

  it('an already aborted signal sends nothing', async () => {
    const before = received.length;
    const controller = new AbortController();
    controller.abort();
    expect(kinds(await collect('/never', {}, controller.signal))).toEqual(['end:aborted']);
    expect(received.length).toBe(before);
  });

  it('a consumer that stops reading closes the connection', async () => {
    handlers.set('/break', (_q, res) => { sse(res); res.write(`data: ${answer}\n\n`); });
    const client = createRunClient({ baseUrl, path: '/break', idleMs: 5000 });
    for await (const frame of client.run({})) { expect(frame.kind).toBe('event'); break; }
    await expect.poll(() => closedEarly.has('/break')).toBe(true);
  });

  it('a refused connection is a network-error end naming the cause', async () => {
    const client = createRunClient({ baseUrl: 'http://127.0.0.1:1', idleMs: 1000 });
    const frames: ClientFrame[] = [];
    for await (const frame of client.run({})) frames.push(frame);
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ kind: 'end', reason: 'network-error' });
    expect((frames[0] as { message: string }).message).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it('a baseUrl that is not an absolute http URL is refused at once', () => {
    expect(() => createRunClient({ baseUrl: '127.0.0.1:8000' })).toThrow(/baseUrl must (be an absolute http\(s\) URL|use http or https)/);
    expect(() => createRunClient({ baseUrl: 'ftp://127.0.0.1' })).toThrow(/must use http or https/);
    expect(() => createRunClient({ baseUrl, idleMs: -1 })).toThrow(/idleMs must be a positive number/);
  });
});
