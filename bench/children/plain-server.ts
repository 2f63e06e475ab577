/**
 * The physical limit for the mock: a bare `node:http` server writing the very bytes the mock
 * renders (status, headers in order, one write per chunk, the same waits), with none of the
 * mock's work (routing, journal, session lookup, rendering). Nothing here is ADK-specific, so
 * whatever the mock loses against it is the mock's own overhead.
 *
 *   node --import tsx bench/children/plain-server.ts PLANS.json
 *
 * PLANS.json: {"<appName>": {status, headers: [[name, value]...], chunks: [{base64, delayMs}...]}};
 * the app is chosen by the request body's `appName`. Prints `plain server listening on URL`.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export type PlainPlan = { status: number; headers: Array<[string, string]>; chunks: Array<{ base64: string; delayMs: number }> };
type Loaded = { status: number; headers: Array<[string, string]>; chunks: Array<{ bytes: Buffer; delayMs: number }> };

/** The placeholder the mock's plans carry where the shell writes the current HTTP date. */
const httpDatePlaceholder = '{{http-date}}';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: plain-server.ts PLANS.json\n');
  process.exit(2);
}
const plans = new Map<string, Loaded>();
for (const [app, plan] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, PlainPlan>)) {
  plans.set(app, { status: plan.status, headers: plan.headers, chunks: plan.chunks.map((c) => ({ bytes: Buffer.from(c.base64, 'base64'), delayMs: c.delayMs })) });
}

let dateText = new Date().toUTCString();
setInterval(() => { dateText = new Date().toUTCString(); }, 1000).unref();

async function play(res: http.ServerResponse, plan: Loaded): Promise<void> {
  const headers: string[] = [];
  for (const [name, value] of plan.headers) headers.push(name, value === httpDatePlaceholder ? dateText : value);
  res.sendDate = false;
  res.writeHead(plan.status, headers);
  for (const chunk of plan.chunks) {
    if (chunk.delayMs > 0) await sleep(chunk.delayMs);
    if (res.destroyed) return;
    // A client that leaves while we wait for 'drain' ends the wait too ('close').
    if (!res.write(chunk.bytes)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
  res.end();
}

const server = http.createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (chunk: Buffer) => parts.push(chunk));
  req.on('end', () => {
    let app = '';
    try { app = String((JSON.parse(Buffer.concat(parts).toString('utf8')) as { appName?: unknown }).appName); } catch { /* answered below */ }
    const plan = plans.get(app);
    if (!plan) { res.writeHead(404, { 'content-type': 'text/plain' }).end(`no plan for appName '${app}'\n`); return; }
    play(res, plan).catch(() => res.destroy());
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`plain server listening on http://127.0.0.1:${port}\n`);
});
const stop = () => { server.closeAllConnections(); server.close(() => process.exit(0)); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
