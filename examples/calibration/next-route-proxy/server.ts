/**
 * A stand-in for the Next.js server around route.ts, so the route runs without Next: what Next's
 * App Router does with a route handler and nothing more. The request becomes a Web `Request` (its
 * URL built from the `Host` header, its signal aborted when the client leaves); the handler's
 * `Response` is written back as it streams, and its body is cancelled when the client leaves; a
 * handler that throws answers 500. No logic of the proxy is here.
 */
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { POST } from './route.ts';

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  if (url.pathname !== '/api/sse/run_sse') {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { Allow: 'POST' }).end();
    return;
  }
  const left = new AbortController();
  res.on('close', () => left.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  let response: Response;
  try {
    const request = new Request(url, { method: 'POST', headers, body: Readable.toWeb(req) as ReadableStream, duplex: 'half', signal: left.signal } as RequestInit);
    response = await POST(request);
  } catch (error) {
    console.error(error);
    response = new Response('Internal Server Error', { status: 500, headers: { 'Content-Type': 'text/plain' } });
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => reader.cancel().catch(() => undefined);
  if (left.signal.aborted) void cancel();
  else left.signal.addEventListener('abort', () => { if (!res.writableEnded) void cancel(); });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  } catch {
    res.destroy();
  }
});

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`proxy listening on http://127.0.0.1:${(server.address() as { port: number }).port}`);
});
