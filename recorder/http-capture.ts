/**
 * The recorder's own HTTP client (node:http, not fetch: a recording needs the raw header order
 * and spelling, and the time each body chunk arrived). It creates the session the way an ADK
 * client does, then POSTs the run and keeps every byte. Nothing here parses SSE.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { CapturedChunk, CapturedResponse } from './types.ts';

export type HttpTarget = {
  /** The upstream's base URL, e.g. http://127.0.0.1:8000. */
  base: string;
  /** Extra request headers (Authorization, cookies...): sent, never recorded. */
  headers?: ReadonlyArray<readonly [string, string]>;
};

export type CaptureBounds = {
  /** Stop waiting after this long without a byte; the end is then recorded as hold-open. */
  idleMs: number;
  /** Stop after this long in all; the end is then recorded as hold-open. */
  maxMs: number;
};

export class UpstreamError extends Error {
  override name = 'UpstreamError';
}

function endpoint(base: string, path: string): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new UpstreamError(`the upstream '${base}' is not a URL; give the ADK server's base URL, e.g. http://127.0.0.1:8000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UpstreamError(`the upstream '${base}' must be an http(s) URL`);
  return new URL(url.pathname.replace(/\/$/, '') + path, url);
}

function send(target: HttpTarget, path: string, body: string, accept: string): Promise<IncomingMessage> {
  const url = endpoint(target.base, path);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept, 'content-length': String(Buffer.byteLength(body)) };
  for (const [name, value] of target.headers ?? []) headers[name] = value;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, resolve);
    req.on('error', (error: NodeJS.ErrnoException) => {
      reject(new UpstreamError(`cannot reach the upstream at ${url.origin} (${error.code ?? error.message}); is the ADK server running there?`));
    });
    req.end(body);
  });
}

async function readAll(res: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of res) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/**
 * Create the session (`POST /apps/{app}/users/{user}/sessions[/{id}]`, both servers) and return
 * its id: the given one, or the one the server chose.
 */
export async function createSession(target: HttpTarget, app: string, user: string, sessionId?: string, state?: Record<string, unknown>): Promise<string> {
  const path = `/apps/${encodeURIComponent(app)}/users/${encodeURIComponent(user)}/sessions${sessionId === undefined ? '' : `/${encodeURIComponent(sessionId)}`}`;
  // adk-js reads {state}; the Python id route reads the body as the state dict itself. An empty
  // object is right for both when there is no state.
  const body = state === undefined ? '{}' : JSON.stringify(sessionId === undefined ? { state } : state);
  const res = await send(target, path, body, 'application/json');
  const text = await readAll(res);
  const status = res.statusCode ?? 0;
  if (status === 400 || status === 409) throw new UpstreamError(`the upstream refused to create session '${sessionId}' (HTTP ${status}: ${text.slice(0, 200)}); omit --session to let the server choose an id, or pick a new one`);
  if (status < 200 || status > 299) throw new UpstreamError(`creating the session failed: POST ${path} answered HTTP ${status}: ${text.slice(0, 200)}`);
  let id: unknown;
  try { id = (JSON.parse(text) as { id?: unknown }).id; } catch { id = undefined; }
  if (sessionId !== undefined) return sessionId;
  if (typeof id !== 'string' || id === '') throw new UpstreamError(`POST ${path} answered HTTP ${status} without a session id in its JSON body (${text.slice(0, 200)})`);
  return id;
}

/** POST the run and keep every byte with its arrival time, until EOF, a reset, or a bound. */
export async function captureRun(target: HttpTarget, path: string, body: unknown, bounds: CaptureBounds): Promise<CapturedResponse> {
  const res = await send(target, path, JSON.stringify(body), 'text/event-stream');
  const t0 = performance.now();
  const headers: Array<[string, string]> = [];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
  const chunks: CapturedChunk[] = [];
  return new Promise((resolve) => {
    let settled = false;
    let idle: NodeJS.Timeout | undefined;
    const finish = (end: CapturedResponse['end']) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      clearTimeout(overall);
      resolve({ status: res.statusCode ?? 0, headers, chunks, end, endAtMs: performance.now() - t0 });
      if (end === 'hold-open') res.destroy();
    };
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => finish('hold-open'), bounds.idleMs);
    };
    const overall = setTimeout(() => finish('hold-open'), bounds.maxMs);
    armIdle();
    res.on('data', (chunk: Buffer) => {
      chunks.push({ bytes: new Uint8Array(chunk), atMs: performance.now() - t0 });
      armIdle();
    });
    res.on('end', () => finish('eof'));
    // A body that stops without its end (no chunked terminator) is a reset, whatever Node calls it.
    res.on('error', () => finish('reset'));
    res.on('close', () => finish(res.complete ? 'eof' : 'reset'));
  });
}
