/**
 * The client's memory probe (issue 30 §2 "Memory across runs", CLI-MEM-001): 10,000 and more short
 * streams read by ONE long-lived client, the memory read after every batch, judged by the gateway's
 * statistics (harness/targets/memory-load.ts, harness/checks/memory-retention.ts).
 *
 * - A module: ONE object from createClient reads every stream, in a Node process of the probe's own
 *   (memory-host.ts; metric `heap`, read there after forced full collections), so the probe runs
 *   beside the rest of the certification. Its streams are answered there through the global fetch
 *   (in-process-fetch.ts says why), or by a server on 127.0.0.1 for a client that does not call it.
 * - A session-form command: one session process of its own, 8 streams at a time (metric `rss`).
 * - A one-shot command starts a fresh process per stream: not applicable (runner.ts).
 *
 * Each stream is three events of one answer ending at EOF, its ids and text made the run's own, so
 * a client that keeps what it read (records, events, an id map) grows with every run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientMemoryId, checkClientRetention } from '../../checks/client/memory.ts';
import type { SessionPool } from '../../session.ts';
import { heapAfterCollection, memoryProbeAdmission, measureInstance, memoryProbeExtraMs, runRetentionProbe, type Measurable } from '../memory-load.ts';
import { groupRss } from '../process-memory.ts';
import { openMemoryChild } from '../memory-host.ts';
import { loadClientModule } from './instances.ts';
import { kitModule } from '../../../core/package-root.ts';
import type { Probe, RunEnv, ScenarioCheck } from '../types.ts';
import { answerInProcess } from './in-process-fetch.ts';
import { driveClientCommand, hasEndRecord, runWithin, type ClientFactory, type ClientWindows, type Drive, type ModuleClient } from './drive.ts';
import { clientServerKeepAliveMs } from './router.ts';

export const clientMemoryProbeId = 'client-memory';

export const clientOneShotMemory = 'a one-shot command starts a fresh process per stream: a finished run leaves nothing behind in a process that lives on (a command speaking the session form, docs/session-protocol.md, has this judged)';

/** What the memory probe runs its streams through. */
export type ClientMemoryInstance = Measurable & { label: string; close: () => Promise<void> };

/** Run `n`'s body: a partial event, a tool call and the final answer, its ids and text its own. */
export function memoryBody(n: number): Buffer {
  const event = (i: number, fields: Record<string, unknown>) => `data: ${JSON.stringify({ id: `mem-${n}-${i}`, invocationId: `mem-inv-${n}`, author: 'coordinator', timestamp: 1_700_000_000 + n, ...fields })}\n\n`;
  return Buffer.from([
    event(0, { partial: true, content: { role: 'model', parts: [{ text: `Run ${n}: reading the fire perimeter` }] } }),
    event(1, { content: { role: 'model', parts: [{ functionCall: { id: `call-${n}`, name: 'get_perimeter', args: { fire: `f-${n}` } } }] } }),
    event(2, { content: { role: 'model', parts: [{ text: `Run ${n}: the perimeter holds at 40% containment.` }] }, finishReason: 'STOP' }),
  ].join(''), 'utf8');
}

const ended = (d: Drive): string | undefined => {
  if (hasEndRecord(d)) return undefined;
  return d.exit.spawnError ?? d.exit.threw ?? (d.exit.timedOut ? 'timed out' : `no end record (exit ${String(d.exit.exitCode ?? d.exit.signal)})`);
};

/**
 * One stream through the shared object, bound as driveClientModule bounds a module's run (runWithin),
 * keeping nothing: only whether an end record came. What the client keeps of its records is what the
 * probe measures; the copies driveClientModule makes for the checks (a structured clone of the request
 * and of every record) are no part of it, and cost the probe's process a tenth of its CPU
 * (docs/performance.md fix 52).
 */
export async function streamOnce(client: ModuleClient, request: Record<string, unknown>, boundMs: number): Promise<string | undefined> {
  let end = false;
  const ran = await runWithin(client, request, (r) => { if (typeof r === 'object' && r !== null && 'end' in r) end = true; }, boundMs);
  return end ? undefined : ran.threw ?? (ran.timedOut ? 'timed out' : 'no end record (exit 0)');
}

/** A session process of its own, read from outside. */
export function commandMemory(command: string, pool: SessionPool, windows: ClientWindows): ClientMemoryInstance {
  return {
    label: 'one session process',
    metric: 'rss',
    run: async (n) => ended(await driveClientCommand(command, { chunks: [{ bytes: memoryBody(n), delayMs: 0 }], transport: 'eof', windows, boundMs: 5000, runChild: pool.runChild })),
    read: () => { const pid = pool.pid(); return pid === undefined ? { error: 'the session process is gone' } : groupRss(pid); },
    pid: pool.pid,
    close: () => pool.close(),
  };
}

/** The run number a memory stream's request names (`sessionId: "memory-<n>"`); 0 for a body spelled otherwise. */
export function runOfRequest(body: string): number {
  try { return Number(/^memory-(\d+)$/.exec(String((JSON.parse(body) as Record<string, unknown>).sessionId))?.[1] ?? 0); } catch { return 0; }
}

const streamHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** The stream a memory request's body asks for, whichever way it arrived. */
const streamFor = (body: string): Buffer => memoryBody(runOfRequest(body));

/** A server on 127.0.0.1 answering every POST with the stream its body names: where the probe's streams go when not answered in-process. */
async function startMemoryServer(): Promise<{ baseUrl: string; served: () => number; close: () => Promise<void> }> {
  let served = 0;
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      served++;
      res.writeHead(200, streamHeaders);
      res.end(streamFor(Buffer.concat(parts).toString('utf8')));
    });
  });
  server.keepAliveTimeout = clientServerKeepAliveMs;
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served: () => served,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/**
 * ONE client object for every stream, read after forced collections: its streams answered through
 * this process's global fetch (in-process-fetch.ts), or by the server behind `baseUrl` for a
 * client that does not call it. `create` is called after the fetch is in place, so a module that
 * takes the global fetch when it loads (`load`) or creates its client gets the probe's.
 */
export async function moduleMemory(load: () => Promise<ClientFactory>, windows: ClientWindows): Promise<ClientMemoryInstance> {
  const server = await startMemoryServer();
  const local = answerInProcess(server.baseUrl, (body) => ({ status: 200, headers: streamHeaders, body: streamFor(body) }));
  try {
    const create = await load();
    const baseUrl = server.baseUrl;
    const client = create({ baseUrl, ...windows });
    return {
      label: 'one client object',
      metric: 'heap',
      read: heapAfterCollection(),
      via: () => `${local.counts().local} streams answered in this process through the global fetch and ${server.served()} by a server on 127.0.0.1`,
      run: (n) => streamOnce(client, { appName: 'client_memory', userId: 'u1', sessionId: `memory-${n}`, newMessage: { role: 'user', parts: [{ text: `run ${n}` }] } }, 5000),
      close: async () => { local.restore(); await server.close(); },
    };
  } catch (error) {
    local.restore();
    await server.close();
    throw error;
  }
}

/** Run in the probe's own process (memory-child.ts): the module loaded there, ONE object and its streams. */
export async function openModuleMemory(module: string, windows: ClientWindows): Promise<ClientMemoryInstance> {
  return moduleMemory(() => loadClientModule(module), windows);
}

/** ONE client object of `module` in a process of the probe's own (memory-host.ts), its streams served there too. */
export async function childModuleMemory(module: string, windows: ClientWindows): Promise<ClientMemoryInstance> {
  const remote = await openMemoryChild({ entry: kitModule('harness/targets/client/memory.ts'), args: [module, { idleMs: windows.idleMs, graceMs: windows.graceMs, callIdleMs: windows.callIdleMs }] });
  return { label: remote.label, metric: remote.metric, read: remote.read, run: remote.run, measureHere: remote.measureHere, pid: remote.pid, close: remote.close };
}

/** The probe's room beyond the scenario bound (memory-load.ts): 11,000 and more streams, each a real HTTP request for a module. */
export const clientMemoryExtraMs = memoryProbeExtraMs;

/**
 * `open`: the instance every run of the probe shares (undefined for a one-shot command: not
 * applicable); `measured`: streams measured (memory-load.ts). A background job (memoryProbeAdmission
 * says why).
 */
export function createClientMemoryProbe(open: () => Promise<ClientMemoryInstance | undefined>, measured?: number): Probe {
  return {
    id: clientMemoryProbeId,
    ...memoryProbeAdmission,
    requirements: [clientMemoryId],
    // Its streams are the kit's own; an --upstream run runs no probe (harness/upstream.ts).
    mockOnly: true,
    run: (env: RunEnv): Promise<ScenarioCheck> => runRetentionProbe({
      requirement: clientMemoryId, probe: `probe:${clientMemoryProbeId}`, notApplicable: clientOneShotMemory, open,
      measure: (instance, e, began) => measureInstance(instance, e.signal, began + e.scenarioTimeoutMs + clientMemoryExtraMs - 3000, 'gave no end record', measured),
      judge: checkClientRetention,
      counted: (o, label) => `${o.runs} streams read by ${label} after ${o.warmupRuns} warm-up streams`,
    }, env),
  };
}
