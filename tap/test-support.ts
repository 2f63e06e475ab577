/**
 * What the tap's tests share: a real tap on 127.0.0.1 in process, defective upstreams (node:http
 * servers keyed by the run's sessionId, and a TCP server that does not speak HTTP), and valid
 * adk-js bytes taken from the mock's own renderer, so a mutant differs from a correct server in
 * exactly one defect.
 */
import http from 'node:http';
import net from 'node:net';
import { render } from '../mock-adk/core/render.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { createTapCore, type TapCore } from './core.ts';
import { createReportCollector, type ReportCollector } from './report.ts';
import { createFailingRunSaver, type FailingRunSaver } from './save-failing.ts';
import { startTap } from './server.ts';
import type { Judge, TapLimits, TapRun, TapRunSummary, UpstreamRole } from './types.ts';

export type TestTap = {
  url: string;
  core: TapCore;
  collector: ReportCollector;
  saver?: FailingRunSaver;
  ended: Array<{ run: TapRun; summary: TapRunSummary }>;
  /** Resolves once `n` requests (of any kind) have ended. */
  waitEnded: (n: number) => Promise<void>;
  close: () => Promise<void>;
};

export async function startTestTap(upstream: string, role: UpstreamRole, options: { judges?: Judge[]; limits?: Partial<TapLimits>; saveDir?: string; headTimeoutMs?: number } = {}): Promise<TestTap> {
  const ended: TestTap['ended'] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const saver = options.saveDir ? createFailingRunSaver({ dir: options.saveDir, upstream }) : undefined;
  const collector = createReportCollector({ role, upstream, replayOf: (r) => saver?.fileOf(r) });
  const core = createTapCore({
    role, limits: options.limits ?? {}, judges: options.judges ?? [],
    observers: [...(saver ? [saver] : []), collector, {
      onRunEnd(run, summary) {
        ended.push({ run, summary });
        for (const w of waiters.splice(0)) { if (ended.length >= w.n) w.resolve(); else waiters.push(w); }
      },
    }],
  });
  const tap = await startTap({ core, upstream, ...(options.headTimeoutMs !== undefined ? { headTimeoutMs: options.headTimeoutMs } : {}) });
  return {
    url: tap.url, core, collector, ended, ...(saver ? { saver } : {}),
    waitEnded: (n) => (ended.length >= n ? Promise.resolve() : new Promise((resolve) => { waiters.push({ n, resolve }); })),
    close: async () => { await core.stop(); await tap.close(); },
  };
}

/** `REQ code` of every finding a run kept, sorted: what a test compares exactly. */
export function findingsOf(summary: TapRunSummary): string[] {
  return [...summary.judged.values()].flat().map((f) => `${f.requirement} ${f.code}`).sort();
}

/** The requirements a run failed, sorted. */
export function failedOf(summary: TapRunSummary): string[] {
  return [...summary.judged].filter(([, f]) => f.length > 0).map(([id]) => id).sort();
}

/** A valid RunAgentRequest for a session, as a conforming client sends it. */
export function runBody(sessionId: string, appName = 'plain_text'): string {
  return JSON.stringify({ appName, userId: 'u1', sessionId, newMessage: { role: 'user', parts: [{ text: 'Brief me on Cedar Creek' }] }, streaming: false });
}

export const clientHeaders = { 'content-type': 'application/json', accept: 'text/event-stream' };

/** The adk-js bytes of a correct one-event run (the mock's rendering of plain_text), and its event. */
export function jsFinalFrame(): { bytes: string; event: Record<string, unknown> } {
  const scenario = loadScenarios().scenarios.find((s) => s.id === 'plain_text');
  if (!scenario) throw new Error('the corpus has no plain_text scenario');
  const plan = render(scenario, { dialect: 'adk-js', streaming: false, appName: 'plain_text', userId: 'u1', sessionId: 'fixed' });
  const bytes = Buffer.concat(plan.chunks.map((c) => Buffer.from(c.bytes))).toString('utf8');
  const data = bytes.slice('data: '.length, bytes.indexOf('\n'));
  return { bytes, event: JSON.parse(data) as Record<string, unknown> };
}

export const jsHeaders: Array<[string, string]> = [['X-Powered-By', 'Express'], ['Cache-Control', 'no-cache'], ['Content-Type', 'text/event-stream'], ['Connection', 'keep-alive']];
export const gatewayHeaders: Array<[string, string]> = [['Content-Type', 'text/event-stream'], ['Cache-Control', 'no-cache'], ['Connection', 'keep-alive'], ['X-Accel-Buffering', 'no']];

export type UpstreamBehaviour = (res: http.ServerResponse, req: http.IncomingMessage) => void;

/**
 * A node:http upstream that answers each POST by the `sessionId` of its JSON body (the behaviour of
 * that name), and GETs and everything else with 404. `behaviours` may be extended after start.
 */
export async function startUpstream(behaviours: Record<string, UpstreamBehaviour>): Promise<{ url: string; server: http.Server; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      let sessionId = '';
      try { sessionId = String((JSON.parse(Buffer.concat(parts).toString('utf8')) as { sessionId?: unknown }).sessionId ?? ''); } catch { /* not JSON */ }
      const behaviour = behaviours[sessionId];
      if (!behaviour) { res.writeHead(404, { 'content-type': 'application/json' }); res.end(JSON.stringify({ error: `no behaviour ${sessionId}` })); return; }
      behaviour(res, req);
    });
  });
  return listen(server);
}

/** Write the head (in this order and spelling) and these writes, then end. */
export function stream(writes: Array<string | Uint8Array>, headers: Array<[string, string]> = jsHeaders, ending: 'end' | 'hold' | 'destroy' = 'end'): UpstreamBehaviour {
  return (res) => {
    res.sendDate = false;
    res.writeHead(200, headers.flat() as unknown as http.OutgoingHttpHeaders);
    for (const w of writes) res.write(w);
    if (ending === 'end') res.end();
    // After the writes reached the wire: a reset before any byte would be a connection failure, not a cut.
    else if (ending === 'destroy') setTimeout(() => res.socket?.destroy(), 50);
  };
}

/** A TCP server that answers every connection with bytes that are not HTTP. */
export async function startNotHttp(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.end('SSH-2.0-OpenSSH_9.6\r\nthis is not an HTTP server\r\n');
  });
  const running = await listen(server);
  return { url: running.url, close: () => { for (const s of sockets) s.destroy(); return running.close(); } };
}

async function listen<S extends net.Server>(server: S): Promise<{ url: string; server: S; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    server,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      if (server instanceof http.Server) server.closeAllConnections();
    }),
  };
}
