/**
 * The memory probes' runs at bare cost (issue 30 §3, `npm start` < 8 s): what `npm start`'s memory
 * runs would cost with no kit code at all, so the harness bench can set its CPU against them.
 *
 *   memory-floor.mjs local N    N POST streams of three SSE events through a global `fetch` that
 *                               answers in this process (a new Response per stream), 8 at a time:
 *                               CLI-MEM-001's runs of a module (harness/targets/client/in-process-fetch.ts)
 *   memory-floor.mjs fetch N    the same streams through the real `fetch` from a node:http server,
 *                               client and server in this one process: what those runs cost before
 *                               they were answered in-process
 *   memory-floor.mjs gateway N PLAIN_PROXY
 *                               N POSTs, 8 at a time, through PLAIN_PROXY (children/plain-proxy.ts,
 *                               compiled: a bare node:http gateway that opens a connection per run) to
 *                               a bare upstream (`upstream` below), each in a process of its own
 *                               (GW-MEM-002's runs)
 *
 * Prints one JSON line: the CPU milliseconds of each process and their sum, and the wall time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { cpuSeconds, spawnServer } from '../lib/children.ts';

const [role = 'fetch', arg = '1000', plainProxy = ''] = process.argv.slice(2);
const concurrency = 8;
const body = Buffer.from([0, 1, 2].map((i) => `data: ${JSON.stringify({ id: `e-${i}`, invocationId: 'inv-1', author: 'coordinator', content: { role: 'model', parts: [{ text: `Run 1: part ${i} of the answer` }] } })}\n\n`).join(''));
const request = JSON.stringify({ appName: 'a', userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } });
const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };

function answer(req: http.IncomingMessage, res: http.ServerResponse): void {
  req.resume();
  req.on('end', () => { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.end(body); });
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function inTurn(n: number, one: () => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next < n) { next++; await one(); } }));
}

if (role === 'upstream') {
  const server = http.createServer(answer);
  void listen(server).then((port) => process.stdout.write(`bare upstream listening on http://127.0.0.1:${port}\n`));
} else if (role === 'fetch' || role === 'local') {
  const n = Number(arg);
  // Only the real fetch needs a server; the in-process one answers without it.
  const server = role === 'fetch' ? http.createServer(answer) : undefined;
  const url = server ? `http://127.0.0.1:${await listen(server)}/run_sse` : 'http://127.0.0.1:1/run_sse';
  const post = role === 'fetch' ? fetch : async (_url: string, init: RequestInit) => {
    JSON.parse(init.body as string);
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  const t0 = performance.now();
  const c0 = cpuMs();
  await inTurn(n, async () => {
    const res = await post(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: request });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    for (;;) { const { done, value } = await reader.read(); if (done) break; decoder.decode(value, { stream: true }); }
  });
  const cpu = cpuMs() - c0;
  process.stdout.write(`${JSON.stringify({ role, runs: n, wallMs: Math.round(performance.now() - t0), cpuMs: Math.round(cpu), processes: { client: Math.round(cpu) } })}\n`);
  server?.close();
} else if (role === 'gateway' && plainProxy === '') {
  process.stderr.write('memory-floor: gateway N PLAIN_PROXY: give the compiled bench/children/plain-proxy.ts\n');
  process.exitCode = 2;
} else if (role === 'gateway') {
  const n = Number(arg);
  const upstream = await spawnServer({ args: [fileURLToPath(import.meta.url), 'upstream'] });
  const proxy = await spawnServer({ args: [plainProxy, upstream.url] });
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const url = new URL('/run_sse', proxy.url);
  const one = () => new Promise<void>((resolve, reject) => {
    const r = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(request) } }, (res) => { res.resume(); res.on('end', () => resolve()); });
    r.on('error', reject);
    r.end(request);
  });
  const [u0, p0] = [cpuSeconds(upstream.pid), cpuSeconds(proxy.pid)];
  const t0 = performance.now();
  const c0 = cpuMs();
  await inTurn(n, one);
  const client = cpuMs() - c0;
  const [u1, p1] = [cpuSeconds(upstream.pid), cpuSeconds(proxy.pid)];
  const processes = { client: Math.round(client), gateway: Math.round((p1 - p0) * 1000), upstream: Math.round((u1 - u0) * 1000) };
  process.stdout.write(`${JSON.stringify({ role, runs: n, wallMs: Math.round(performance.now() - t0), cpuMs: processes.client + processes.gateway + processes.upstream, processes })}\n`);
  agent.destroy();
  await Promise.all([upstream.stop(), proxy.stop()]);
} else {
  process.stderr.write(`memory-floor: unknown role ${role}: local N, fetch N or gateway N PLAIN_PROXY\n`);
  process.exitCode = 2;
}
