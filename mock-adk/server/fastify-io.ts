/**
 * The fastify shell's output side: every answer and every replay is written on the raw Node
 * response after `reply.hijack()`, so the status line, the header order and spelling, and each
 * body write are exactly the plan's ("the shells add nothing but what HTTP itself requires").
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';
import { createReplay } from '../replay.ts';
import { NodeSink } from '../node-sink.ts';
import type { ReplayPlan } from '../core/types.ts';
import type { MockState } from './mock-state.ts';
import type { Answer, MockRequest, MockResult, MockRoute } from './route-types.ts';
import { flattenHeaders, isExpressShaped, planWireHeaders, resolveHeaders } from './wire-headers.ts';
import { mockErrorAnswer } from './mock-errors.ts';
import { recordRequest } from './route-table.ts';

/** Replays in flight, so closing the app can release held-open connections at once. */
export type ActiveReplays = Set<{ closeByApp: () => void }>;

/** The framework-free request the route handlers take. */
export function toMockRequest(request: FastifyRequest): MockRequest {
  const url = request.raw.url ?? request.url;
  const raw = request.headers;
  const headers: Record<string, string | undefined> = {};
  for (const name in raw) {
    const value = raw[name];
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  let query: URLSearchParams | undefined;
  return {
    method: request.method,
    url,
    params: (request.params ?? {}) as Record<string, string>,
    // Made when a route asks: only the control routes read a query.
    get query() { return (query ??= queryOf(url)); },
    headers,
    body: rawBodyText(request.body),
  };
}

/** The query of a path: most requests have none, and a URL parse per request is not free. */
function queryOf(url: string): URLSearchParams {
  const at = url.indexOf('?');
  if (at < 0) return new URLSearchParams();
  return new URL(url, 'http://mock.invalid').searchParams;
}

export function rawBodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  return typeof body === 'string' ? body : '';
}

/**
 * Write the status line and headers. Node adds a `Date` of its own unless told not to: the plan
 * has its own (its placeholder filled here), so that one is switched off. Node's `Connection:
 * keep-alive` and `Keep-Alive: timeout=5` are exactly what Express sends on a response that did
 * not set Connection itself, so they stay for Express-shaped plans (`X-Powered-By: Express`) and
 * are switched off for every other server (uvicorn sends neither). Framing is not switchable:
 * with neither Content-Length nor Transfer-Encoding in the plan, Node chunks the body, because
 * HTTP/1.1 needs one of the two.
 */
function writeHead(res: ServerResponse, status: number, headers: Answer['headers']): void {
  writeFlatHead(res, status, flattenHeaders(resolveHeaders(headers)), isExpressShaped(headers));
}

function writeFlatHead(res: ServerResponse, status: number, flat: string[], expressShaped: boolean): void {
  res.sendDate = false;
  if (!expressShaped) res.removeHeader('connection');
  res.writeHead(status, flat);
}

export { isExpressShaped };

export function writeAnswer(res: ServerResponse, answer: Answer): void {
  const problem = headProblem(answer.status, answer.headers);
  // A header value Node refuses (a line break, a bad status) is a scenario bug: say which.
  const sent = problem ? mockErrorAnswer('MOCK_RENDER_FAILED', `the answer's status line or headers cannot be written: ${problem}`) : answer;
  writeHead(res, sent.status, sent.headers);
  res.end(sent.body);
}

export function sendResult(state: MockState, active: ActiveReplays, reply: FastifyReply, result: MockResult): void {
  reply.hijack();
  const res = reply.raw;
  if (result.kind === 'answer') { writeAnswer(res, result.answer); return; }
  const { plan } = result;
  const problem = headProblem(plan.status, plan.headers);
  if (problem) {
    writeAnswer(res, mockErrorAnswer('MOCK_RENDER_FAILED', `scenario '${result.scenarioId}': the plan's status line or headers cannot be written: ${problem}`));
    return;
  }
  state.streams.opened(result.sessionId);
  // "flushing headers before the first chunk": a client sees the status while the first delay
  // runs. A first chunk due at once carries them itself (one write instead of two).
  const first = plan.chunks[0];
  const flush = !first || first.bytes.byteLength === 0 || first.delayMs * state.timeScale > 0;
  const replay = createReplay(plan, new PlanSink(res, plan, flush), { timeScale: state.timeScale });
  // Played to its end already (a short run written at once): nothing is left to abort or wait for.
  // A write that found the peer gone is a client leaving, as below.
  if (replay.finished) {
    state.streams.closed(replay.finished.outcome, replay.finished.outcome === 'aborted' ? 'client' : 'plan', result.sessionId);
    return;
  }
  let settled = false;
  let by: 'client' | 'app' | 'plan' = 'plan';
  const entry = { closeByApp: () => { if (!settled) { by = 'app'; replay.abort('app'); } } };
  active.add(entry);
  res.on('close', () => {
    // 'close' also follows a normal end; only a close before the replay settled is the client leaving.
    if (settled || by !== 'plan') return;
    by = 'client';
    replay.abort('client');
  });
  void replay.done.then((outcome) => {
    settled = true;
    active.delete(entry);
    // Aborted with nobody having asked: a write found the peer gone before 'close' was seen.
    state.streams.closed(outcome.outcome, outcome.outcome === 'aborted' && by === 'plan' ? 'client' : by, result.sessionId);
  });
}

/** The Node sink whose head is the plan's status line and headers (flushed when `flush`). */
class PlanSink extends NodeSink {
  private readonly plan: ReplayPlan;
  private readonly flush: boolean;

  constructor(res: ServerResponse, plan: ReplayPlan, flush: boolean) {
    super(res, undefined, plan.end === 'reset');
    this.plan = plan;
    this.flush = flush;
  }

  override head(): void {
    const head = planWireHeaders(this.plan.headers);
    writeFlatHead(this.res, this.plan.status, head.flat, head.expressShaped);
    if (this.flush) this.res.flushHeaders();
  }
}

/** Why Node would refuse this status line or these headers, or undefined when it will not. */
const validHeads = new WeakSet<Answer['headers']>();

function headProblem(status: number, headers: Answer['headers']): string | undefined {
  if (!Number.isInteger(status) || status < 100 || status > 999) return `status ${status} is not a 3-digit HTTP status`;
  // A cached plan's headers are the same array every run: checked once.
  if (validHeads.has(headers)) return undefined;
  for (const [name, value] of headers) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch (error) {
      return (error as Error).message;
    }
  }
  validHeads.add(headers);
  return undefined;
}

/** Abort every replay in flight because the app is closing. */
export function abortAll(active: ActiveReplays): void {
  for (const entry of [...active]) entry.closeByApp();
}

/** One concern's routes as one fastify plugin. */
export function routesPlugin(state: MockState, active: ActiveReplays, routes: readonly MockRoute[], journal = false) {
  return async function plugin(app: FastifyInstance): Promise<void> {
    for (const route of routes) {
      app.route({
        method: route.method,
        url: route.path,
        handler: (request, reply) => {
          const mockRequest = toMockRequest(request);
          if (journal) recordRequest(state, mockRequest);
          sendResult(state, active, reply, route.handle(state, mockRequest));
        },
      });
    }
  };
}
