/**
 * Hosts one gateway mutant: the reference gateway (buildGatewayApp, unchanged) behind a plain
 * node:http server that applies one deliberate break. A break may change the settings, add fastify
 * hooks, rewrite a request before routing, edit the response bytes, or hand the request to the
 * same gateway with auth off ("lets it through"). The reference's own code is never edited.
 *
 * `serve.ts` runs this as a program (the mutant's --gateway-cmd); tests call it in process.
 */
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { buildGatewayApp } from '../../../reference-impl/gateway/app.ts';
import { readGatewayConfig, type GatewayConfigInput } from '../../../reference-impl/gateway/config.ts';
import { startInterposer, type Interposer, type UpstreamHooks } from './interposer.ts';

export type MutantContext = {
  config: GatewayConfigInput;
  env: Record<string, string | undefined>;
};

/** Where a request goes after a break looked at it. */
export type Route = 'gateway' | 'open';

export type GatewayBreak = {
  /** Settings the break overrides (it sees what the contract environment asked for). */
  config?: (config: GatewayConfigInput) => GatewayConfigInput;
  /** Fastify hooks on the gateway app (preHandler, onSend...), added before it is ready. */
  app?: (app: FastifyInstance, ctx: MutantContext) => void;
  /** Called per request before routing: rewrite it, edit its response, or send it to the open gateway. */
  request?: (req: http.IncomingMessage, res: http.ServerResponse, ctx: MutantContext) => Route | Promise<Route>;
  /** Interpose on the gateway's upstream exchanges (interposer.ts): what it sends there, and when it gives up. */
  upstream?: (ctx: MutantContext) => UpstreamHooks;
};

export type RunningMutant = { url: string; port: number; close: () => Promise<void> };

export async function startMutantGateway(brk: GatewayBreak, env: Record<string, string | undefined>, port: number): Promise<RunningMutant> {
  const base = readGatewayConfig(env);
  let config = brk.config ? brk.config(base) : base;
  let interposer: Interposer | undefined;
  if (brk.upstream) {
    interposer = await startInterposer(config.upstreamUrl ?? 'http://127.0.0.1:8080', brk.upstream({ config, env }));
    config = { ...config, upstreamUrl: interposer.url };
  }
  const ctx: MutantContext = { config, env };
  const app = buildGatewayApp(config);
  brk.app?.(app, ctx);
  // The same gateway without auth: what a break "lets through" is then served exactly as usual.
  const open = buildGatewayApp({ ...config, auth: { mode: 'off' } });
  await Promise.all([app.ready(), open.ready()]);
  const server = http.createServer((req, res) => {
    void (async () => {
      let route: Route = 'gateway';
      try {
        if (brk.request) route = await brk.request(req, res, ctx);
      } catch {
        route = 'gateway';
      }
      (route === 'open' ? open : app).routing(req, res);
    })();
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', resolve); });
  const address = server.address();
  const chosen = typeof address === 'object' && address !== null ? address.port : port;
  return {
    url: `http://127.0.0.1:${chosen}`,
    port: chosen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([app.close(), open.close(), interposer?.close()]);
    },
  };
}

/** POST /run_sse or /run_sse_enhanced: the canonical streaming routes. */
export function isStreamPost(req: http.IncomingMessage): boolean {
  const path = (req.url ?? '').split('?')[0];
  return req.method === 'POST' && (path === '/run_sse' || path === '/run_sse_enhanced');
}

export type ResponseEdit = {
  /** Edit only an event stream (a 200 text/event-stream head); other answers (401, 422...) pass untouched. */
  streamsOnly?: boolean;
  /** Change the status line's headers (called for every writeHead). */
  headers?: (status: number, headers: Record<string, unknown>) => Record<string, unknown>;
  /** Each body write: emit what the client gets instead (nothing, the same, more). */
  write?: (chunk: Buffer, emit: (bytes: Buffer | string) => void) => void;
  /** Before the response ends: emit anything still held. */
  end?: (emit: (bytes: Buffer | string) => void) => void;
};

type Writer = (chunk: unknown, ...rest: unknown[]) => boolean;
type Ender = (...args: unknown[]) => http.ServerResponse;
type HeadWriter = (status: number, ...rest: unknown[]) => http.ServerResponse;

/** Edit one response's head and body bytes as the handler writes them. */
export function editResponse(res: http.ServerResponse, edit: ResponseEdit): void {
  const write = res.write.bind(res) as Writer;
  const end = res.end.bind(res) as Ender;
  const writeHead = res.writeHead.bind(res) as HeadWriter;
  const emit = (bytes: Buffer | string): boolean => (bytes.length > 0 ? write(bytes) : true);
  let active = edit.streamsOnly !== true;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const last = rest.at(-1);
    const headers = last && typeof last === 'object' && !Array.isArray(last) ? (last as Record<string, unknown>) : {};
    const reason = typeof rest[0] === 'string' ? [rest[0]] : [];
    if (edit.streamsOnly) {
      const type = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? res.getHeader('content-type');
      active = status === 200 && /^text\/event-stream/i.test(String(type ?? ''));
    }
    return writeHead(status, ...reason, active && edit.headers ? edit.headers(status, { ...headers }) : headers);
  }) as typeof res.writeHead;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    const encoding = typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : 'utf8';
    const bytes = Buffer.isBuffer(chunk) ? chunk : typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk as Uint8Array);
    let ok = true;
    if (active && edit.write) edit.write(bytes, (b) => { ok = emit(b) && ok; });
    else ok = emit(bytes);
    callback?.();
    return ok;
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    const callback = args.find((a) => typeof a === 'function') as (() => void) | undefined;
    const chunk = typeof args[0] === 'function' ? undefined : args[0];
    if (chunk !== undefined && chunk !== null) (res.write as Writer)(chunk);
    if (active) edit.end?.((b) => { emit(b); });
    return callback ? end(callback) : end();
  }) as typeof res.end;
}

/** Whether bytes hold one of the gateway's own error frames (Python json.dumps spacing). */
export const gatewayFrame = /data: [^\n]*"(error_code|status_code)": /;
