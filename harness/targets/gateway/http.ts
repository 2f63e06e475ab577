/**
 * The harness's two HTTP conversations in a gateway run: with the gateway under test (raw bytes,
 * header names as sent, arrival times: node:http, never fetch, which would normalise both), and
 * with the mock's control routes (sessions, arming, journal, stream counters).
 *
 * Nothing here throws because of what the gateway does: every exchange settles with an
 * observation, bounded by a deadline the caller gives.
 */
import http from 'node:http';
import type { Exchange, UpstreamRequest } from '../../checks/gateway/types.ts';
import type { MockStreams } from '../../checks/gateway/abort.ts';
import { callMock } from '../mock-sse.ts';
import { fairIdleTimeout, fairTimeout, type FairIdleTimer, type FairTimer } from '../../fair-timer.ts';

export type ExchangeOptions = {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /**
   * Give up (and record `deadline`) after this many ms without progress: the window restarts with
   * every body chunk, so a stream that keeps coming on a loaded machine is not cut, while one that
   * stops is (the engine's scenario bound still caps the whole exchange).
   */
  deadlineMs: number;
  /**
   * The process group of the implementation that answers (a gateway or proxy command; undefined: in
   * the harness's process): the `deadlineMs` window gives back the CPU time the machine withheld from
   * it and from the harness (fair-timer.ts), so a loaded machine does not cut a stream.
   */
  root?: () => number | undefined;
  /**
   * Give up (and record `deadline`, with the reason in `error`) after this many ms in all, progress
   * or not: a gateway dribbling a byte a second restarts `deadlineMs` forever, and a run the
   * gateway runner started ahead of the engine's call does not listen to the engine's bound.
   */
  totalMs?: number;
  /** Stop reading (and record `stopped`) `graceMs` after the body reached this many bytes. */
  stopAfterBytes?: number;
  graceMs?: number;
  /** Cancel (and record `aborted`): the engine's scenario bound. */
  signal?: AbortSignal;
  /** A pooled agent (the memory probe); default: a fresh connection per exchange. */
  agent?: http.Agent;
  /** Keep at most this many body bytes (the rest is counted in arrivals, not kept). */
  maxBodyBytes?: number;
  /** Called once the first body bytes arrived (the abort probe leaves then). */
  onFirstBytes?: () => void;
};

/** One request to the gateway; settles with what the client saw, however it ended. */
export function exchange(url: string, options: ExchangeOptions): Promise<Exchange> {
  const started = performance.now();
  const now = () => performance.now() - started;
  const maxBody = options.maxBodyBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let kept = 0;
    let total = 0;
    const obs: Exchange = { rawHeaders: [], body: new Uint8Array(0), arrivals: [], ending: 'complete', durationMs: 0 };
    let settled = false;
    let timer: FairIdleTimer | undefined;
    let grace: NodeJS.Timeout | undefined;
    let cap: FairTimer | undefined;
    const finish = (ending: Exchange['ending'], error?: string) => {
      if (settled) return;
      settled = true;
      timer?.cancel();
      clearTimeout(grace);
      cap?.cancel();
      options.signal?.removeEventListener('abort', onAbort);
      obs.ending = ending;
      if (error !== undefined) obs.error = error;
      obs.body = new Uint8Array(Buffer.concat(parts));
      obs.durationMs = Math.round(now());
      resolve(obs);
    };
    const headers: Record<string, string> = { connection: 'keep-alive', ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    let req: http.ClientRequest;
    try {
      req = http.request(url, { method: options.method ?? 'POST', headers, agent: options.agent ?? false });
    } catch (error) {
      finish('connect-failed', (error as Error).message);
      return;
    }
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (obs.status === undefined) finish('connect-failed', describe(error));
      else finish('broken', describe(error));
    });
    const stop = (ending: Exchange['ending'], error?: string) => {
      finish(ending, error);
      req.destroy();
    };
    const onAbort = () => stop('aborted');
    if (options.signal?.aborted) { stop('aborted'); return; }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // A fair idle window: a harness descheduled past it reads what arrived meanwhile before it judges
    // (a plain timer runs before the poll phase): the in-process reference gateway's smoke run once
    // ended with 0 bytes read beside three certifications in one vitest worker (CI of 839abf2).
    timer = fairIdleTimeout(options.deadlineMs, () => stop('deadline'), options.root ? { root: options.root } : {});
    if (options.totalMs !== undefined) {
      const totalMs = options.totalMs;
      // Fair too: a plain total cut a 6.5 s silence on a loaded runner (the package test's GW-TIMEOUT-002 in the
      // CI of d7b7040: the gateway's first event came late, and 9.5 s from the request ended before the rest).
      cap = fairTimeout(totalMs, () => stop('deadline', `the response had not ended after ${totalMs} ms (${total} body bytes by then)`), options.root ? { root: options.root } : {});
    }
    req.on('response', (res) => {
      obs.status = res.statusCode;
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) obs.rawHeaders.push([res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '']);
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const first = total === 0;
        total += chunk.length;
        obs.arrivals.push({ t: now(), end: total });
        if (kept < maxBody) { parts.push(chunk.subarray(0, maxBody - kept)); kept += Math.min(chunk.length, maxBody - kept); }
        if (first) {
          options.onFirstBytes?.();
          // It may have ended the exchange (the abort probe leaves then): arm no timer after that.
          if (settled) return;
        }
        // The window restarts with every chunk (a clock read, no new timer per chunk).
        timer?.touch();
        if (options.stopAfterBytes !== undefined && total >= options.stopAfterBytes && grace === undefined) {
          grace = setTimeout(() => stop('stopped'), options.graceMs ?? 0);
        }
      });
      res.on('end', () => finish('complete'));
      res.on('error', (error: NodeJS.ErrnoException) => finish('broken', describe(error)));
      res.on('close', () => { if (!res.complete) finish('broken', 'the connection closed before the response ended'); });
    });
    req.end(options.body);
  });
}

function describe(error: NodeJS.ErrnoException): string {
  return error.code && !error.message.includes(error.code) ? `${error.message} (${error.code})` : error.message;
}

export type MockClient = {
  createSession: (appName: string, userId: string, sessionId: string, state?: Record<string, unknown>) => Promise<void>;
  arm: (sessionId: string, scenario: string, dialect: string, faults?: Array<Record<string, unknown>>) => Promise<void>;
  /** The journal entries naming this session. */
  journal: (sessionId: string) => Promise<UpstreamRequest[] | { error: string }>;
  /** Every journal entry (for requests that name no session). */
  journalAll: () => Promise<UpstreamRequest[] | { error: string }>;
  /** The stream counters of every stream, or of one session's streams only. */
  streams: (sessionId?: string) => Promise<MockStreams>;
};

/**
 * The mock's own routes. A failure here is the harness's problem, not the gateway's: session
 * creation and arming throw (the engine reports the scenario as errored, all untested). They get
 * no abort signal: each is one quick local call, and the engine's bound covers the run.
 */
export function createMockClient(mockUrl: string): MockClient {
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }> => {
    const { status, text } = await callMock(`${mockUrl}${path}`, method, body);
    let json: unknown;
    try { json = JSON.parse(text); } catch { json = undefined; }
    return { status, json, text };
  };
  const journalOf = async (query: string): Promise<UpstreamRequest[] | { error: string }> => {
    try {
      const r = await call('GET', `/_mock/requests${query}`);
      const list = (r.json as { requests?: unknown } | undefined)?.requests;
      if (r.status !== 200 || !Array.isArray(list)) return { error: `GET /_mock/requests answered ${r.status}: ${r.text.slice(0, 200)}` };
      return list.map((e: { method?: unknown; url?: unknown; body?: unknown; headers?: unknown }) => ({ method: String(e.method), url: String(e.url), body: typeof e.body === 'string' ? e.body : '', headers: headersOf(e.headers) }));
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  return {
    async createSession(appName, userId, sessionId, state = {}) {
      const path = `/apps/${encodeURIComponent(appName)}/users/${encodeURIComponent(userId)}/sessions/${encodeURIComponent(sessionId)}`;
      const r = await call('POST', path, { state });
      if (r.status !== 200) throw new Error(`the mock refused to create session ${appName}/${userId}/${sessionId}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
    },
    async arm(sessionId, scenario, dialect, faults = []) {
      const r = await call('POST', '/_mock/arm', { sessionId, scenario, dialect, faults });
      if (r.status !== 200) throw new Error(`the mock refused to arm scenario ${scenario} for session ${sessionId}: HTTP ${r.status} ${r.text.slice(0, 300)}`);
    },
    journal: (sessionId) => journalOf(`?sessionId=${encodeURIComponent(sessionId)}`),
    journalAll: () => journalOf(''),
    async streams(sessionId) {
      const r = await call('GET', `/_mock/streams${sessionId !== undefined ? `?sessionId=${encodeURIComponent(sessionId)}` : ''}`);
      const s = r.json as MockStreams | undefined;
      if (r.status !== 200 || !s || typeof s.open !== 'number') throw new Error(`GET /_mock/streams answered ${r.status}: ${r.text.slice(0, 200)}`);
      return s;
    },
  };
}

/** A journal entry's headers as lower-case name → values (the mock journals what Node parsed). */
function headersOf(value: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (value === null || typeof value !== 'object') return out;
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    const values = Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];
    out[name.toLowerCase()] = values;
  }
  return out;
}

/**
 * Whether `work` settled within `ms`. The timer is cleared as soon as it does: a bare race with
 * `pause(ms)` keeps the event loop (and the CLI's exit) waiting out the whole of `ms`.
 */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  const stop = new AbortController();
  try {
    return await Promise.race([work.then(() => true, () => true), pause(ms, stop.signal).then(() => false)]);
  } finally {
    stop.abort();
  }
}

/** Wait `ms`, or less if `signal` aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) { resolve(); return; }
    const t = setTimeout(() => { signal?.removeEventListener('abort', done); resolve(); }, ms);
    const done = () => { clearTimeout(t); resolve(); };
    signal?.addEventListener('abort', done, { once: true });
  });
}
