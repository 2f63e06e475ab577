/**
 * One served Runner: a real adk-js Runner over a script of agents.ts, wrapped so that
 * the harness sees what it yielded, how far the helper pulled it and how it ended, handed to the
 * helper's factory, and the helper bound on 127.0.0.1 (docs/adk-server-contract.md). A helper is a
 * Node request listener, or an object with a fetch-style `fetch(Request) => Response`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { loadRealAdk } from '../../../real-adk/load.ts';
import { scriptAgent, type FloodShape, type ModelCounter, type ScriptKind } from './agents.ts';

export const APP_NAME = 'briefing_app';
export const USER_ID = 'u1';

/** What the Runner did for the helper, read by the probes. */
export type RunnerRecord = {
  runs: number;
  /** Each yielded event as JSON.stringify would serialise it at the moment it was yielded (not kept for floods). */
  yielded: unknown[];
  pulled: number;
  /** How the last run's generator ended: completed, threw, returned early (the helper stopped pulling); undefined: still open. */
  ended?: 'completed' | 'threw' | 'returned';
  endedAt?: number;
  aborted: boolean;
  abortedAt?: number;
  model: ModelCounter;
};

export type AdkServerFactory = (options: { runner: unknown }) => unknown;
type Listener = (req: IncomingMessage, res: ServerResponse) => void;
type FetchHandler = { fetch: (request: Request) => Response | Promise<Response> };

export type ServedHelper = { url: string; record: RunnerRecord; sessions: (id: string) => Promise<void>; close: () => Promise<void> };

/** Set when the harness is done with a helper: a run it left going (a helper that never aborts) ends at its next pull. */
type Stop = { stopped: boolean };

async function recordingRunner(kind: ScriptKind, flood: FloodShape | undefined, record: Omit<RunnerRecord, 'model'>, stop: Stop) {
  const { adk } = await loadRealAdk();
  const { agent, counter } = scriptAgent(adk, kind, flood);
  const keep = kind !== 'flood';
  class RecordingRunner extends adk.Runner {
    override async *runAsync(params: Parameters<InstanceType<typeof adk.Runner>['runAsync']>[0]): AsyncGenerator<import('@google/adk').Event, void, undefined> {
      record.runs++;
      record.yielded = [];
      record.pulled = 0;
      delete record.ended;
      params.abortSignal?.addEventListener('abort', () => { record.aborted = true; record.abortedAt = performance.now(); }, { once: true });
      let ended: RunnerRecord['ended'];
      try {
        for await (const event of super.runAsync(params)) {
          if (stop.stopped) return;
          record.pulled++;
          if (keep) record.yielded.push(JSON.parse(JSON.stringify(event)));
          yield event;
        }
        ended = 'completed';
      } catch (error) {
        ended = 'threw';
        throw error;
      } finally {
        record.ended = ended ?? 'returned';
        record.endedAt = performance.now();
      }
    }
  }
  const runner = new RecordingRunner({ appName: APP_NAME, agent, sessionService: new adk.InMemorySessionService() });
  return { runner, counter };
}

/** A fetch-style handler run behind a Node listener: the request's signal aborts when the client leaves, the body is written as it is read. */
function fetchListener(handler: FetchHandler): Listener {
  return (req, res) => {
    const controller = new AbortController();
    res.on('close', () => { if (!res.writableFinished) controller.abort(); });
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, signal: controller.signal, ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }) });
      const response = await handler.fetch(request);
      res.writeHead(response.status, [...response.headers].flat());
      if (!response.body) { res.end(); return; }
      // Written with backpressure, so what the handler's stream does is what the client sees.
      const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
      res.on('close', () => body.destroy());
      body.on('error', () => res.destroy());
      body.pipe(res);
    })().catch((error: unknown) => { if (!res.headersSent) { res.writeHead(500); res.end(String(error)); } else res.destroy(); });
  };
}

/** The helper's factory given this script's Runner, bound on 127.0.0.1; throws with a fix when it returns neither a listener nor a fetch handler. */
export async function serveHelper(factory: AdkServerFactory, kind: ScriptKind, flood?: FloodShape): Promise<ServedHelper> {
  const partial: Omit<RunnerRecord, 'model'> = { runs: 0, yielded: [], pulled: 0, aborted: false };
  const stop: Stop = { stopped: false };
  const { runner, counter } = await recordingRunner(kind, flood, partial, stop);
  const record = Object.assign(partial, { model: counter }) as RunnerRecord;
  const made = await factory({ runner });
  let listener: Listener;
  if (typeof made === 'function') listener = made as Listener;
  else if (typeof made === 'object' && made !== null && typeof (made as FetchHandler).fetch === 'function') listener = fetchListener(made as FetchHandler);
  else throw new TypeError(`createAdkServer({runner}) returned ${made === null ? 'null' : typeof made}; return a Node request listener (req, res) => void or an object with fetch(request) => Response (docs/adk-server-contract.md)`);
  // A helper that throws or rejects is its own failure (a 500 or a cut), never the harness's crash.
  const guarded: Listener = (req, res) => {
    const failed = () => { if (!res.headersSent) { res.writeHead(500); res.end(); } else res.destroy(); };
    try {
      const result = (listener as (req: IncomingMessage, res: ServerResponse) => unknown)(req, res);
      if (result instanceof Promise) result.catch(failed);
    } catch { failed(); }
  };
  const server: Server = createServer(guarded);
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    record,
    sessions: async (id) => { await runner.sessionService.createSession({ appName: APP_NAME, userId: USER_ID, sessionId: id }); },
    close: () => new Promise<void>((resolve) => { stop.stopped = true; server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
