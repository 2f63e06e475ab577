/**
 * `render(scenario, ctx) → ReplayPlan`: the one entry point from a scenario to the exact HTTP
 * response the mock replays, for `run`, `http` and `bytes` upstreams. Pure and deterministic: the
 * same scenario and context give the same plan, byte for byte.
 */
import type { Scenario } from '../../schemas/types.ts';
import { expressEtag } from './dialects/etag.ts';
import { describeDialects, dialectNames, getDialect, resolveDialect } from './dialects/index.ts';
import { framesOfBytes, utf8 } from './frames.ts';
import { decodeBase64, renderRun } from './render-run.ts';
import type { PlanChunk, RenderContext, ReplayPlan } from './types.ts';
import { HTTP_DATE } from './types.ts';

type HttpUpstreamInput = { kind: 'http'; status: number; headers?: Array<[string, string]>; body?: string; json?: unknown };
type BytesChunkInput = { text?: string; base64?: string; repeat?: number; delayMs?: number };
type BytesUpstreamInput = { kind: 'bytes'; status?: number; headers?: Array<[string, string]>; chunks: BytesChunkInput[]; end?: ReplayPlan['end'] };

function checkContext(ctx: RenderContext): void {
  if (ctx === null || typeof ctx !== 'object') throw new TypeError('render: ctx must be a RenderContext object');
  if (!(dialectNames as readonly string[]).includes(ctx.dialect)) throw new TypeError(`render: ctx.dialect must be one of ${describeDialects()}, got ${JSON.stringify(ctx.dialect)}`);
  if (typeof ctx.streaming !== 'boolean') throw new TypeError(`render: ctx.streaming must be a boolean, got ${JSON.stringify(ctx.streaming)}`);
  if (typeof ctx.sessionId !== 'string') throw new TypeError('render: ctx.sessionId must be a string (it seeds the ids)');
}

export function render(scenario: Scenario, given: RenderContext): ReplayPlan {
  // A versioned name or alias (adk-js@2.0 = adk-js) renders as its internal key.
  const ctx: RenderContext = given !== null && typeof given === 'object' ? { ...given, dialect: resolveDialect(given.dialect) ?? given.dialect } : given;
  checkContext(ctx);
  const kind = (scenario?.upstream as { kind?: unknown } | undefined)?.kind;
  switch (kind) {
    case 'run': return renderRun(scenario, ctx);
    case 'http': return renderHttp(scenario.upstream as unknown as HttpUpstreamInput, ctx);
    case 'bytes': return renderBytes(scenario.upstream as unknown as BytesUpstreamInput, ctx);
    case 'anthropic-turn':
      throw new TypeError(`scenario ${scenario.id} is an anthropic-turn: serve it with renderAnthropicCall(scenario, callIndex) from mock-adk/core/anthropic.ts`);
    default:
      throw new TypeError(`scenario ${scenario?.id ?? '(no id)'} has upstream.kind ${JSON.stringify(kind)}; render handles run, http and bytes`);
  }
}

/** Replace same-named headers in place (names compare case-insensitively), append the others. */
export function mergeHeaders(base: Array<[string, string]>, extra: Array<[string, string]>): Array<[string, string]> {
  const out = base.map(([n, v]): [string, string] => [n, v]);
  for (const [name, value] of extra) {
    const at = out.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
    if (at >= 0) out[at] = [out[at]![0], value];
    else out.push([name, value]);
  }
  return out;
}

/** The plan's header list with HTTP_DATE placeholders filled (what a shell writes). */
export function resolveHeaders(headers: Array<[string, string]>, now: Date = new Date()): Array<[string, string]> {
  return headers.map(([n, v]) => [n, v === HTTP_DATE ? now.toUTCString() : v]);
}

function renderHttp(up: HttpUpstreamInput, ctx: RenderContext): ReplayPlan {
  if (!Number.isInteger(up.status) || up.status < 100 || up.status > 599) throw new TypeError(`upstream (http).status must be an HTTP status 100..599, got ${JSON.stringify(up.status)}`);
  if (up.body !== undefined && up.json !== undefined) throw new TypeError('upstream (http) has both body and json: give one');
  const dialect = getDialect(ctx.dialect);
  const answer = dialect.json(up.status, up.json === undefined ? null : up.json);
  let body = answer.body;
  let headers = answer.headers;
  if (up.json === undefined) {
    // A scripted text body keeps the dialect's JSON headers, with its own length and ETag.
    body = up.body ?? '';
    const length = String(utf8(body).length);
    headers = headers.map(([n, v]) => {
      const lower = n.toLowerCase();
      if (lower === 'content-length') return [n, length];
      if (lower === 'etag') return [n, expressEtag(body)];
      return [n, v];
    });
  }
  headers = mergeHeaders(headers, up.headers ?? []);
  if (dialect.orderHeaders) headers = dialect.orderHeaders(headers);
  const chunks: PlanChunk[] = body.length > 0 ? [{ bytes: utf8(body), delayMs: 0, frame: -1 }] : [];
  return { status: up.status, headers, chunks, end: 'eof', frames: [] };
}

function renderBytes(up: BytesUpstreamInput, ctx: RenderContext): ReplayPlan {
  const dialect = getDialect(ctx.dialect);
  if (!Array.isArray(up.chunks)) throw new TypeError('upstream (bytes).chunks must be an array of {text | base64, repeat?, delayMs?}');
  const chunks: PlanChunk[] = [];
  up.chunks.forEach((c, i) => {
    const where = `upstream.chunks[${i}]`;
    if ((c.text === undefined) === (c.base64 === undefined)) throw new TypeError(`${where} needs exactly one of text or base64`);
    const bytes = c.text !== undefined ? utf8(c.text) : decodeBase64(c.base64!, where);
    const repeat = c.repeat ?? 1;
    if (!Number.isInteger(repeat) || repeat < 1) throw new TypeError(`${where}.repeat must be an integer >= 1, got ${repeat}`);
    for (let r = 0; r < repeat; r++) chunks.push({ bytes, delayMs: r === 0 ? c.delayMs ?? 0 : 0, frame: -1 });
  });
  const total = chunks.reduce((n, c) => n + c.bytes.length, 0);
  const body = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) { body.set(c.bytes, at); at += c.bytes.length; }
  return { status: up.status ?? 200, headers: up.headers ?? dialect.sseHeaders(), chunks, end: up.end ?? 'eof', frames: framesOfBytes(body) };
}
