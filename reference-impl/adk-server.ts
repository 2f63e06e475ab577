/**
 * A POST /run_sse route around an adk-js Runner (docs/adk-server-contract.md), the way a framework
 * helper serves one: each event the Runner yields is written as `data: ` + JSON.stringify(event) +
 * `\n\n` (the real AdkApiServer's bytes, adk-wire-format §3), nothing else; the run is aborted when
 * the client leaves; the Runner is pulled no faster than the client reads; and a message with
 * nothing in it is refused before the model runs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The part of an adk-js Runner the route uses. */
export type RunnerLike = {
  appName: string;
  sessionService: { getSession(request: { appName: string; userId: string; sessionId: string }): Promise<unknown> };
  runAsync(params: { userId: string; sessionId: string; newMessage: unknown; stateDelta?: Record<string, unknown>; runConfig?: { streamingMode?: unknown }; abortSignal?: AbortSignal }): AsyncGenerator<unknown, void, undefined>;
};

/** How the route behaves; the reference is every field's default (the kit's mutants change one each). */
export type RouteBehaviour = {
  serialise: (event: unknown) => string;
  abortOnClose: boolean;
  backpressure: boolean;
  refuseEmpty: boolean;
  /** Bytes written before the first event. */
  preamble: string;
};

export const referenceBehaviour: RouteBehaviour = { serialise: (e) => JSON.stringify(e), abortOnClose: true, backpressure: true, refuseEmpty: true, preamble: '' };

const maxBodyBytes = 1024 * 1024;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A part that gives the model something: non-empty text, or any other kind of part (inlineData, functionResponse...). */
const hasContent = (part: unknown): boolean => isRecord(part) && Object.entries(part).some(([k, v]) => (k === 'text' ? typeof v === 'string' && v.trim() !== '' : k !== 'thought' && v !== undefined && v !== null));

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > maxBodyBytes) return undefined;
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Write, and when the socket's buffer is full wait for it to drain (or for the client to leave). */
function write(res: ServerResponse, text: string, backpressure: boolean): Promise<void> | undefined {
  if (res.write(text) || !backpressure || res.destroyed) return undefined;
  return new Promise((resolve) => {
    const done = () => { res.off('drain', done); res.off('close', done); resolve(); };
    res.on('drain', done);
    res.on('close', done);
  });
}

export function createRunSseRoute(runner: RunnerLike, behaviour: RouteBehaviour = referenceBehaviour): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/run_sse') { json(res, 404, { error: `Cannot ${req.method} ${req.url}` }); return; }
    const text = await readBody(req);
    if (text === undefined) { json(res, 413, { error: `The body is over ${maxBodyBytes} bytes.` }); return; }
    let body: unknown;
    try { body = JSON.parse(text); } catch { json(res, 400, { error: 'The body is not JSON.' }); return; }
    if (!isRecord(body)) { json(res, 400, { error: 'The body is not a JSON object.' }); return; }
    const { appName, userId, sessionId, newMessage, streaming, stateDelta } = body;
    if (typeof appName !== 'string' || typeof userId !== 'string' || typeof sessionId !== 'string') { json(res, 400, { error: 'appName, userId and sessionId are required strings.' }); return; }
    if (appName !== runner.appName) { json(res, 404, { error: `App not found: ${appName}` }); return; }
    const parts = isRecord(newMessage) ? newMessage.parts : undefined;
    if (behaviour.refuseEmpty && (!Array.isArray(parts) || !parts.some(hasContent))) { json(res, 400, { error: 'newMessage has no content: give at least one part with text or data.' }); return; }
    if (!(await runner.sessionService.getSession({ appName, userId, sessionId }))) { json(res, 404, { error: `Session not found: ${sessionId}` }); return; }
    const controller = new AbortController();
    if (behaviour.abortOnClose) res.on('close', () => { if (!res.writableFinished) controller.abort(); });
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    res.flushHeaders();
    if (behaviour.preamble !== '') res.write(behaviour.preamble);
    try {
      const events = runner.runAsync({ userId, sessionId, newMessage, ...(isRecord(stateDelta) ? { stateDelta } : {}), runConfig: { streamingMode: streaming === true ? 'sse' : 'none' }, abortSignal: controller.signal });
      for await (const event of events) {
        if (controller.signal.aborted) break;
        const waiting = write(res, `data: ${behaviour.serialise(event)}\n\n`, behaviour.backpressure);
        if (waiting) await waiting;
      }
      res.end();
    } catch (error) {
      // The compact error line adk-js writes when a run fails after the headers (adk-wire-format §6).
      if (!res.destroyed) res.end(`data: ${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n\n`);
    }
  };
}

/** The module contract's factory: `createAdkServer({runner})` returns a Node request listener. */
export function createAdkServer(options: { runner: RunnerLike }): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return createRunSseRoute(options.runner);
}
