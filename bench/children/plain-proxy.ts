/**
 * The floor for any /run_sse passthrough: a bare `node:http` proxy that forwards the request body
 * upstream and writes each upstream chunk back as it arrives, with no auth, no validation and no
 * error frames. Like the reference gateway it opens a new upstream connection per request
 * (docs/gateway.md: no keep-alive pool). Whatever the gateway costs beyond this is its own work.
 *
 *   node --import tsx bench/children/plain-proxy.ts UPSTREAM_URL
 *
 * Prints `plain proxy listening on URL`.
 */
import http from 'node:http';

const upstream = process.argv[2];
if (!upstream) {
  process.stderr.write('usage: plain-proxy.ts UPSTREAM_URL\n');
  process.exit(2);
}

const server = http.createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (chunk: Buffer) => parts.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(parts);
    const out = http.request(new URL(req.url ?? '/', upstream), { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': body.length } }, (up) => {
      res.writeHead(up.statusCode ?? 502, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    res.on('close', () => out.destroy());
    out.end(body);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`plain proxy listening on http://127.0.0.1:${port}\n`);
});
const stop = () => { server.closeAllConnections(); server.close(() => process.exit(0)); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
