// A misbehaving gateway command (docs/harness-gateway.md "The gateway contract") for the hostile
// battery. It listens on 127.0.0.1:$PORT (unless the mode says otherwise) and answers every request
// the same wrong way; it never calls its upstream.
//   node test/hostile/impls/gateway.mjs <mode> [marker]
// The marker is ignored; it only makes this process findable in /proc by the test that started it.
import http from 'node:http';

const mode = process.argv[2];
const port = Number(process.env.PORT);
const sse = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' };
const forever = () => setInterval(() => {}, 60_000);

/** Each mode: what to do with one request (the body is read first, as a gateway would). */
const answers = {
  garbage(req, res) {
    let x = 11;
    res.writeHead(200, sse);
    res.end(Buffer.alloc(4096, 0).map(() => { x = (x * 1103515245 + 12345) & 0x7fffffff; return x & 0xff; }));
  },
  'never-ends'(req, res) {
    res.writeHead(200, sse);
    res.flushHeaders();
    // Nothing more, ever: the response stays open until the client leaves.
  },
  'one-byte-a-second'(req, res) {
    res.writeHead(200, sse);
    const text = 'data: {"author":"coordinator","content":{"parts":[{"text":"slow"}]}}\n\n';
    let i = 0;
    const timer = setInterval(() => { if (i < text.length) res.write(text[i++]); else { clearInterval(timer); res.end(); } }, 1000);
    res.on('close', () => clearInterval(timer));
  },
  'early-close'(req, res) {
    // The first bytes every upstream stream starts with, then the connection is cut.
    res.writeHead(200, sse);
    res.write('data: {"', () => res.socket?.destroy());
  },
  'multi-megabyte-line'(req, res) {
    res.writeHead(200, sse);
    res.end(`data: ${'x'.repeat(6 * 1024 * 1024)}`);
  },
  'invalid-utf8'(req, res) {
    res.writeHead(200, sse);
    res.end(Buffer.concat([Buffer.from('data: {"text":"'), Buffer.from([0x80, 0xc0, 0xaf, 0xff, 0xfe]), Buffer.from('"}\n\n')]));
  },
  'wrong-content-type'(req, res) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  },
  html(req, res) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><body><h1>It works!</h1></body></html>\n');
  },
  'empty-200'(req, res) {
    res.writeHead(200);
    res.end();
  },
  'ignores-sigterm'(req, res) {
    res.writeHead(200);
    res.end();
  },
  'stderr-only'(req, res) {
    process.stderr.write(`${req.method} ${req.url}: refusing to answer\n`);
    res.socket?.destroy();
  },
  'listens-then-dies'() {
    process.stderr.write('fatal: upstream client not configured\n');
    process.exit(7);
  },
};

if (mode === 'exits-at-once') {
  process.stderr.write('gateway.mjs: exiting before listening\n');
  process.exit(3);
} else if (mode === 'never-listens') {
  // Alive, quiet, and not listening anywhere.
  forever();
} else if (answers[mode]) {
  if (mode === 'ignores-sigterm') process.on('SIGTERM', () => { process.stderr.write('SIGTERM ignored\n'); });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => answers[mode](req, res));
  });
  server.listen(port, '127.0.0.1');
} else {
  process.stderr.write(`gateway.mjs: unknown mode '${mode}'\n`);
  process.exit(64);
}
