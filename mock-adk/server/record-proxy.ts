/**
 * The mock's recording proxy (`adk-conformance mock --record-from URL`), after WireMock's record
 * mode: every request except the control routes is forwarded to a real ADK server and its answer
 * streamed back as it arrives (status line, header order and spelling, each body write), and every
 * run (`POST /run_sse`, `/run_sse_enhanced`) becomes a scenario file in the record folder, built
 * by the same recorder core as `adk-conformance record`. Credentials are forwarded to the upstream
 * (it needs them) and never written: see recorder/redact.ts.
 */
import { mkdirSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { buildScenario, type BuildResult } from '../../recorder/scenario.ts';
import { safeOrigin, userRedactions } from '../../recorder/redact.ts';
import type { CapturedChunk, CapturedExchange } from '../../recorder/types.ts';

export type RecordProxyOptions = {
  /** The real server's base URL. */
  upstream: string;
  /** Where scenario files are written (created when missing). */
  dir: string;
  normalizeIds?: boolean;
  /** `--redact` patterns added to the default list. */
  redact?: readonly string[];
  /** Told about every recording (the mock command prints it); a failure to record is `error`. */
  onRecorded?: (event: { file: string; result: BuildResult } | { error: string }) => void;
};

const runPaths = new Set(['/run_sse', '/run_sse_enhanced']);
/** Connection-level headers are the proxy's own business on each hop. */
const hopByHop = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'proxy-connection']);

export function installRecordProxy(app: FastifyInstance, options: RecordProxyOptions): void {
  let upstream: URL;
  try { upstream = new URL(options.upstream); } catch { throw new TypeError(`--record-from ${options.upstream} is not a URL; give the ADK server's base URL, e.g. http://127.0.0.1:8000`); }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new TypeError(`--record-from ${options.upstream} must be an http(s) URL`);
  const redactions = userRedactions(options.redact ?? []);
  const sessionStates = new Map<string, Record<string, unknown>>();
  const taken = new Set<string>();

  const nextId = (appName: string): string => {
    const stem = (appName.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'run').slice(0, 56);
    for (let n = 1; ; n++) {
      const id = `${stem}_${String(n).padStart(3, '0')}`;
      if (!taken.has(id) && !existsSync(join(options.dir, `${id}.json`))) { taken.add(id); return id; }
    }
  };

  app.addHook('preHandler', async (request, reply) => {
    const path = (request.raw.url ?? '/').split('?')[0] ?? '/';
    if (path.startsWith('/_mock/')) return;
    reply.hijack();
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const session = /^\/apps\/([^/]+)\/users\/([^/]+)\/sessions(?:\/([^/]+))?\/?$/.exec(path);
    const isRun = request.method === 'POST' && runPaths.has(path);
    forward(upstream, request, body, reply.raw, isRun || (session !== null && request.method === 'POST'), (status, raw, chunks, end) => {
      if (session && request.method === 'POST' && status === 200) rememberSession(sessionStates, session, chunks);
      if (!isRun) return;
      try {
        const exchange = exchangeOf(options.upstream, path as '/run_sse' | '/run_sse_enhanced', body, sessionStates, { status, headers: raw, chunks: chunks.chunks, end, endAtMs: chunks.endAtMs });
        if (!exchange) { options.onRecorded?.({ error: `not recorded: POST ${path} had no appName/userId/sessionId in its JSON body` }); return; }
        const id = nextId(exchange.request.appName);
        const result = buildScenario(exchange, { id, normalizeIds: options.normalizeIds === true, redactions });
        mkdirSync(options.dir, { recursive: true });
        const file = join(options.dir, `${id}.json`);
        writeFileSync(file, `${JSON.stringify(result.scenario, null, 2)}\n`);
        options.onRecorded?.({ file, result });
      } catch (error) {
        options.onRecorded?.({ error: `not recorded: POST ${path}: ${(error as Error).message}` });
      }
    });
  });
}

type Received = { chunks: CapturedChunk[]; endAtMs: number };
type Done = (status: number, headers: Array<[string, string]>, received: Received, end: 'eof' | 'reset' | 'hold-open') => void;

/** Forward one request and stream the answer back write by write, keeping what passed. */
function forward(upstream: URL, request: FastifyRequest, body: Buffer, res: ServerResponse, keep: boolean, done: Done): void {
  const headers: Array<[string, string]> = [];
  const raw = request.raw.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) if (!hopByHop.has(raw[i]!.toLowerCase())) headers.push([raw[i]!, raw[i + 1]!]);
  headers.push(['Host', upstream.host]);
  if (body.length > 0 || request.method === 'POST') headers.push(['Content-Length', String(body.length)]);
  const base = upstream.pathname.replace(/\/$/, '');
  const target = new URL(base + (request.raw.url ?? '/'), upstream);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  // A flat name/value array keeps the client's header order and spelling on the way up too.
  const outgoing = send(target, { method: request.method, headers: headers.flat() });
  let finished = false;
  outgoing.on('error', (error: NodeJS.ErrnoException) => {
    if (res.headersSent) { res.destroy(); return; }
    const text = JSON.stringify({ error: `the recording proxy cannot reach ${target.origin} (${error.code ?? error.message})`, fix: 'start the ADK server, or point --record-from at it' });
    res.writeHead(502, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  });
  outgoing.on('response', (answer: IncomingMessage) => {
    const t0 = performance.now();
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) pairs.push([answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!]);
    const received: Received = { chunks: [], endAtMs: 0 };
    res.sendDate = false;
    res.removeHeader('connection');
    res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
    res.flushHeaders();
    const finish = (end: 'eof' | 'reset' | 'hold-open') => {
      if (finished) return;
      finished = true;
      received.endAtMs = performance.now() - t0;
      done(answer.statusCode ?? 502, pairs, received, end);
    };
    answer.on('data', (chunk: Buffer) => {
      if (keep) received.chunks.push({ bytes: new Uint8Array(chunk), atMs: performance.now() - t0 });
      res.write(chunk);
    });
    answer.on('end', () => { res.end(); finish('eof'); });
    answer.on('error', () => { res.destroy(); finish('reset'); });
    answer.on('close', () => { if (!answer.complete) { res.destroy(); finish('reset'); } });
    // The client left first: stop the upstream; the recording keeps what arrived, held open.
    res.on('close', () => { if (!finished) { finish('hold-open'); outgoing.destroy(); } });
  });
  outgoing.end(body);
}

function rememberSession(states: Map<string, Record<string, unknown>>, match: RegExpExecArray, received: Received): void {
  try {
    const text = Buffer.concat(received.chunks.map((c) => Buffer.from(c.bytes))).toString('utf8');
    const session = JSON.parse(text) as { id?: unknown; state?: unknown };
    const id = typeof session.id === 'string' ? session.id : decodeURIComponent(match[3] ?? '');
    if (session.state !== null && typeof session.state === 'object' && !Array.isArray(session.state)) {
      states.set(`${decodeURIComponent(match[1] ?? '')}/${decodeURIComponent(match[2] ?? '')}/${id}`, session.state as Record<string, unknown>);
    }
  } catch {
    // Not a session body (a proxy page, an error): nothing to remember.
  }
}

/** The run request's fields, read as both servers accept them (camelCase or snake_case); also used by `tap --save-failing`. */
export function exchangeOf(upstream: string, endpoint: '/run_sse' | '/run_sse_enhanced', body: Buffer, states: Map<string, Record<string, unknown>>, response: CapturedExchange['response']): CapturedExchange | undefined {
  let json: Record<string, unknown>;
  try { json = JSON.parse(body.toString('utf8')) as Record<string, unknown>; } catch { return undefined; }
  if (json === null || typeof json !== 'object') return undefined;
  const pick = (camel: string, snake: string) => json[camel] ?? json[snake];
  const appName = pick('appName', 'app_name');
  const userId = pick('userId', 'user_id');
  const sessionId = pick('sessionId', 'session_id');
  if (typeof appName !== 'string' || typeof userId !== 'string' || typeof sessionId !== 'string' || !appName || !userId || !sessionId) return undefined;
  const message = pick('newMessage', 'new_message') as { parts?: Array<{ text?: unknown }> } | undefined;
  const text = Array.isArray(message?.parts) ? message.parts.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('') : '';
  const state = states.get(`${appName}/${userId}/${sessionId}`);
  return {
    request: { endpoint, appName, userId, sessionId, message: text, streaming: json['streaming'] === true, ...(state ? { sessionState: state } : {}) },
    response,
    upstream: safeOrigin(upstream),
    recordedAt: new Date().toISOString(),
  };
}
