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
 *
 * Two requests with the same `x-bench-pair` header (bench/lib/http-load.ts pairedLoop) are played
 * in lockstep: the second one's arrival starts both, and each chunk is written to both responses in
 * the same tick (which one first alternates). Paced separately, each stream's timers drift on their
 * own, and that drift, not the hops in front of this server, was most of a pair's difference (the
 * tap benchmark's bare-against-bare floor was 14 ms at p99). A partner that does not come within
 * 1 s leaves the first to play alone.
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

async function play(responses: readonly http.ServerResponse[], plan: Loaded): Promise<void> {
  const headers: string[] = [];
  for (const [name, value] of plan.headers) headers.push(name, value === httpDatePlaceholder ? dateText : value);
  for (const res of responses) {
    res.sendDate = false;
    res.writeHead(plan.status, headers);
  }
  let k = 0;
  for (const chunk of plan.chunks) {
    if (chunk.delayMs > 0) await sleep(chunk.delayMs);
    const order = k++ % 2 === 0 ? responses : [...responses].reverse();
    const waits: Array<Promise<unknown>> = [];
    for (const res of order) {
      // A client that leaves while we wait for 'drain' ends the wait too ('close').
      if (!res.destroyed && !res.write(chunk.bytes)) waits.push(Promise.race([once(res, 'drain'), once(res, 'close')]));
    }
    if (responses.every((res) => res.destroyed)) return;
    if (waits.length > 0) await Promise.all(waits);
  }
  for (const res of responses) if (!res.destroyed) res.end();
}

/** The first of each pair, waiting for its partner (see the header comment). */
const waiting = new Map<string, { res: http.ServerResponse; timer: NodeJS.Timeout }>();

function start(res: http.ServerResponse, plan: Loaded, pair: string | undefined): void {
  const go = (responses: http.ServerResponse[]) => { play(responses, plan).catch(() => { for (const r of responses) r.destroy(); }); };
  if (pair === undefined) { go([res]); return; }
  const first = waiting.get(pair);
  if (first) {
    waiting.delete(pair);
    clearTimeout(first.timer);
    go([first.res, res]);
    return;
  }
  waiting.set(pair, { res, timer: setTimeout(() => { waiting.delete(pair); go([res]); }, 1000) });
}

const server = http.createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (chunk: Buffer) => parts.push(chunk));
  req.on('end', () => {
    let app = '';
    try { app = String((JSON.parse(Buffer.concat(parts).toString('utf8')) as { appName?: unknown }).appName); } catch { /* answered below */ }
    const plan = plans.get(app);
    if (!plan) { res.writeHead(404, { 'content-type': 'text/plain' }).end(`no plan for appName '${app}'\n`); return; }
    const pair = req.headers['x-bench-pair'];
    start(res, plan, typeof pair === 'string' ? pair : undefined);
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
