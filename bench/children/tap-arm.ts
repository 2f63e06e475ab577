/**
 * One arm of the tap benchmark (bench/tap.ts), in its own process:
 *
 *   node [--expose-gc] --import tsx bench/children/tap-arm.ts tap|parse|bare UPSTREAM_URL [PROBE_FILE]
 *
 * - `tap`: the real tap, wired as `adk-conformance tap --role adk` wires it (cli/commands/tap.ts):
 *   `createTapCore({ role: 'adk' })` with the report collector as its observer, behind `startTap`.
 *   The CLI's one printed line per run is left out (it is terminal output, not judging).
 * - `parse`: the floor of any tap that judges: the same shell (`startTap`) with a core that only
 *   frames each event (core/sse.ts) and JSON.parses its data. Judging cannot cost less than this,
 *   so its events/s bound what any judging tap reaches on this machine.
 * - `bare`: the floor of any reverse proxy: node:http, the request piped up, the response piped
 *   back with the upstream's raw status and headers, a keep-alive upstream agent like the tap's,
 *   no judging.
 *
 * Prints `<arm> listening on URL`. With PROBE_FILE and --expose-gc, SIGUSR2 runs a full GC and
 * writes process.memoryUsage() with the open streams and (tap) the collector's counts and verdict
 * to PROBE_FILE, so retained memory is told apart from heap sizing (as bench/children/gc-probe.ts),
 * with the collections the arm ran by itself so far (`gc`: young and full, counts and ms).
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { constants as perfConstants, PerformanceObserver } from 'node:perf_hooks';
import { createSseReader } from '../../core/sse.ts';
import { createReportCollector, createTapCore, startTap, type RunHandle, type TapCore } from '../../tap/index.ts';

const [mode, upstream, probeFile] = process.argv.slice(2);
if ((mode !== 'tap' && mode !== 'parse' && mode !== 'bare') || !upstream) {
  process.stderr.write('usage: tap-arm.ts tap|parse|bare UPSTREAM_URL [PROBE_FILE]\n');
  process.exit(2);
}

type Snapshot = () => Record<string, unknown>;
let snapshot: Snapshot;
let stop: () => Promise<void>;
let url: string;

if (mode === 'tap') {
  const collector = createReportCollector({ role: 'adk', upstream });
  const core = createTapCore({
    role: 'adk',
    observers: [collector],
    onObserverError: (callback, error) => process.stderr.write(`tap: an observer's ${callback} threw: ${(error as Error).message}\n`),
  });
  const tap = await startTap({ core, upstream, host: '127.0.0.1', port: 0 });
  url = tap.url;
  snapshot = () => {
    const result = collector.result();
    const failedRequirements = [...collector.perRequirement()].filter(([, t]) => t.failedRuns > 0).map(([id, t]) => `${id} (${t.failedRuns} runs)`);
    return { open: core.openRuns(), ...collector.counts(), verdict: result?.verdict ?? null, passed: result?.passed ?? null, failedRequirements };
  };
  stop = async () => { await core.stop(); await tap.close(); };
} else if (mode === 'parse') {
  const shell = createTapCore({ role: 'adk' });
  let open = 0;
  let parsed = 0;
  const startRun: TapCore['startRun'] = (request) => {
    open++;
    const reader = createSseReader({ onFrame: (frame) => { try { JSON.parse(frame.data); parsed++; } catch { /* counted as not parsed */ } } });
    const handle: RunHandle = {
      run: { seq: 0, name: 'parse', kind: 'run', method: request.method, url: request.url, startedAt: '', requestHeaders: request.headers, dialect: 'unknown' },
      requestBody: () => undefined,
      responseHead: () => undefined,
      chunk: (bytes) => reader.feed(bytes),
      end: () => { open--; return undefined; },
    };
    return handle;
  };
  const tap = await startTap({ core: { ...shell, startRun, openRuns: () => open }, upstream, host: '127.0.0.1', port: 0 });
  url = tap.url;
  snapshot = () => ({ open, parsed });
  stop = () => tap.close();
} else {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true });
  let open = 0;
  const server = http.createServer((req, res) => {
    open++;
    res.once('close', () => { open--; });
    const headers: string[] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i] as string;
      if (name.toLowerCase() !== 'host' && name.toLowerCase() !== 'connection') headers.push(name, req.rawHeaders[i + 1] as string);
    }
    headers.push('Host', target.host);
    const out = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: headers as unknown as http.OutgoingHttpHeaders, agent }, (answer) => {
      res.sendDate = false;
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    res.on('close', () => { if (!res.writableFinished) out.destroy(); });
    req.pipe(out);
  });
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  snapshot = () => ({ open });
  stop = () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); agent.destroy(); });
}

/**
 * Garbage collections the arm's own work caused, from node:perf_hooks 'gc' entries: the probe's
 * forced collections (flag FORCED) are left out. Young: V8's scavenges; full: mark-compacts and
 * their incremental marking steps.
 */
const gcTotals = { young: 0, youngMs: 0, full: 0, fullMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const detail = (entry as PerformanceEntry & { detail?: { kind: number; flags: number } }).detail;
    if (!detail || (detail.flags & perfConstants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0) continue;
    if (detail.kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) { gcTotals.young++; gcTotals.youngMs += entry.duration; }
    else if (detail.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR || detail.kind === perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL) { gcTotals.full++; gcTotals.fullMs += entry.duration; }
  }
}).observe({ entryTypes: ['gc'] });

const gc = (globalThis as { gc?: () => void }).gc;
if (probeFile) {
  if (!gc) throw new Error('tap-arm: a PROBE_FILE needs --expose-gc');
  process.on('SIGUSR2', () => {
    const collections = { ...gcTotals };
    gc();
    gc();
    writeFileSync(probeFile, JSON.stringify({ at: Date.now(), ...process.memoryUsage(), ...snapshot(), gc: collections }));
  });
}

process.stdout.write(`${mode} listening on ${url}\n`);
const shutdown = () => { void stop().then(() => process.exit(0)); };
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
