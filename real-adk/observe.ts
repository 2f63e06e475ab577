/**
 * What a client of an ADK API server sees of one scenario run, read the same way from the mock and
 * from the real server: the raw status line and headers (order and spelling kept, node:http
 * `rawHeaders`), the body split into SSE frames by the kit's one SSE reader, and the session
 * read back after the run.
 */
import { request as httpRequest } from 'node:http';
import { readSse } from '../core/sse.ts';

export type HttpExchange = { status: number; headers: Array<[string, string]>; body: string };

export type Observation = {
  run: {
    status: number;
    headers: Array<[string, string]>;
    /** SSE bodies: each frame's data, parsed when it is JSON. Other bodies: the text, parsed when JSON. */
    frames?: unknown[];
    /** `adk` when the body is exactly the frames as `data: <payload>\n\n` (adk-js framing); else the raw body. */
    framing?: string;
    body?: unknown;
  };
  session: { status: number; headers: Array<[string, string]>; body: unknown };
};

export type RunRequest = {
  appName: string;
  userId: string;
  sessionId: string;
  message: string;
  emptyParts: boolean;
  streaming: boolean;
  stateDelta?: Record<string, unknown>;
};

export function exchange(baseUrl: string, method: string, path: string, body?: unknown, timeoutMs = 60_000): Promise<HttpExchange> {
  const url = new URL(path, baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent: false, headers: payload === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      const headers: Array<[string, string]> = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '']);
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${url.href} took longer than ${timeoutMs} ms`)));
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

function parseMaybe(text: string): unknown {
  try { return JSON.parse(text); } catch { return text; }
}

function isSse(headers: Array<[string, string]>): boolean {
  return headers.some(([n, v]) => n.toLowerCase() === 'content-type' && v.startsWith('text/event-stream'));
}

export function sessionPath(appName: string, userId: string, sessionId: string): string {
  return `/apps/${encodeURIComponent(appName)}/users/${encodeURIComponent(userId)}/sessions/${encodeURIComponent(sessionId)}`;
}

/** POST /run_sse as a client of the real server would, then GET the session. */
export async function observeRun(baseUrl: string, run: RunRequest): Promise<Observation> {
  const answer = await exchange(baseUrl, 'POST', '/run_sse', {
    appName: run.appName,
    userId: run.userId,
    sessionId: run.sessionId,
    newMessage: { role: 'user', parts: run.emptyParts ? [] : [{ text: run.message }] },
    streaming: run.streaming,
    ...(run.stateDelta ? { stateDelta: run.stateDelta } : {}),
  });
  const observed: Observation['run'] = { status: answer.status, headers: answer.headers };
  if (isSse(answer.headers)) {
    const { frames } = readSse(answer.body);
    observed.frames = frames.map((f) => parseMaybe(f.data));
    const canonical = frames.map((f) => `data: ${f.data}\n\n`).join('');
    observed.framing = canonical === answer.body ? 'adk' : answer.body;
  } else {
    observed.body = parseMaybe(answer.body);
  }
  const session = await exchange(baseUrl, 'GET', sessionPath(run.appName, run.userId, run.sessionId));
  return { run: observed, session: { status: session.status, headers: session.headers, body: parseMaybe(session.body) } };
}
