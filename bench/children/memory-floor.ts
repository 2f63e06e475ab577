/**
 * The memory probes' runs at bare cost (issue 30 §3, `npm start` < 8 s): what `npm start`'s memory
 * runs would cost with no kit code at all, so the harness bench can set its CPU against them.
 *
 *   memory-floor.mjs fetch N    N POST streams of three SSE events through global `fetch`, 8 at a
 *                               time, client and server in this one process (CLI-MEM-001's runs)
 *   memory-floor.mjs gateway N  N POSTs, 8 at a time, through a bare node:http gateway that opens a
 *                               connection to a bare upstream per run and pipes its answer back, each
 *                               in a process of its own (GW-MEM-002's runs)
 *
 * Prints one JSON line: the CPU milliseconds of each process and their sum, and the wall time.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const [role = 'fetch', arg = '1000'] = process.argv.slice(2);
const concurrency = 8;
const body = Buffer.from([0, 1, 2].map((i) => `data: ${JSON.stringify({ id: `e-${i}`, invocationId: 'inv-1', author: 'coordinator', content: { role: 'model', parts: [{ text: `Run 1: part ${i} of the answer` }] } })}\n\n`).join(''));
const request = JSON.stringify({ appName: 'a', userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } });
const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };

function answer(_req: http.IncomingMessage, res: http.ServerResponse): void {
  _req.resume();
  _req.on('end', () => { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.end(body); });
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function inTurn(n: number, one: () => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next < n) { next++; await one(); } }));
}

/** A server role in a child process: says its port, answers 'cpu' with its CPU so far. */
function serve(server: http.Server): void {
  void listen(server).then((port) => process.send?.({ port }));
  process.on('message', (m) => { if (m === 'cpu') process.send?.({ cpu: cpuMs() }); });
}

if (role === 'upstream') serve(http.createServer(answer));
else if (role === 'proxy') {
  const upstreamPort = Number(arg);
  const agent = new http.Agent({ keepAlive: false });
  serve(http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const b = Buffer.concat(parts);
      const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: 'POST', path: '/run_sse', agent, headers: { 'content-type': 'application/json', 'content-length': b.length } }, (ur) => { res.writeHead(200, { 'content-type': 'text/event-stream' }); ur.pipe(res); });
      up.end(b);
    });
  }));
} else if (role === 'fetch') {
  const n = Number(arg);
  const server = http.createServer(answer);
  const url = `http://127.0.0.1:${await listen(server)}/run_sse`;
  const t0 = performance.now();
  const c0 = cpuMs();
  await inTurn(n, async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: request });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    for (;;) { const { done, value } = await reader.read(); if (done) break; decoder.decode(value, { stream: true }); }
  });
  const cpu = cpuMs() - c0;
  process.stdout.write(`${JSON.stringify({ role, runs: n, wallMs: Math.round(performance.now() - t0), cpuMs: Math.round(cpu), processes: { client: Math.round(cpu) } })}\n`);
  server.close();
} else if (role === 'gateway') {
  const n = Number(arg);
  const self = fileURLToPath(import.meta.url);
  const start = (args: string[]) => new Promise<{ child: ReturnType<typeof fork>; port: number }>((resolve) => {
    const child = fork(self, args);
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }));
  });
  const cpuOf = (child: ReturnType<typeof fork>) => new Promise<number>((resolve) => { child.once('message', (m: { cpu: number }) => resolve(m.cpu)); child.send('cpu'); });
  const upstream = await start(['upstream']);
  const proxy = await start(['proxy', String(upstream.port)]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const one = () => new Promise<void>((resolve, reject) => {
    const r = http.request({ host: '127.0.0.1', port: proxy.port, method: 'POST', path: '/run_sse', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(request) } }, (res) => { res.resume(); res.on('end', () => resolve()); });
    r.on('error', reject);
    r.end(request);
  });
  const [u0, p0] = [await cpuOf(upstream.child), await cpuOf(proxy.child)];
  const t0 = performance.now();
  const c0 = cpuMs();
  await inTurn(n, one);
  const client = cpuMs() - c0;
  const [u1, p1] = [await cpuOf(upstream.child), await cpuOf(proxy.child)];
  const processes = { client: Math.round(client), gateway: Math.round(p1 - p0), upstream: Math.round(u1 - u0) };
  process.stdout.write(`${JSON.stringify({ role, runs: n, wallMs: Math.round(performance.now() - t0), cpuMs: processes.client + processes.gateway + processes.upstream, processes })}\n`);
  upstream.child.kill();
  proxy.child.kill();
  agent.destroy();
} else {
  process.stderr.write(`memory-floor: unknown role ${role}: fetch N or gateway N\n`);
  process.exitCode = 2;
}
