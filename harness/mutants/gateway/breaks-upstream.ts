/**
 * Breaks of what the gateway does upstream, through the mutant host's interposer (interposer.ts):
 * read and idle timeouts (httpx's default 5 s read timeout), an upstream left open after the total
 * timeout, client headers copied onto the upstream request (credentials, Host), and an upstream
 * error described by the HTTP client's own message (the internal URL) instead of the upstream's text.
 */
import type http from 'node:http';
import { STATUS_CODES } from 'node:http';
import { timeoutFrame, upstreamStatusFrame } from '../../../reference-impl/gateway/error-frames.ts';
import { editResponse, isStreamPost, type GatewayBreak, type MutantContext } from './host.ts';

const STREAM_ERROR = /data: [^\n]*"error_code": "STREAM_ERROR"[^\n]*\n\n/;
const STATUS_FRAME = /data: ([^\n]*"status_code": [^\n]*)\n\n/;

/** What `str(exc)` of an httpx HTTPStatusError says: the internal URL, not the upstream's text. */
function httpxStatusMessage(status: number, url: string): string {
  const kind = status < 500 ? 'Client error' : 'Server error';
  return `${kind} '${status} ${STATUS_CODES[status] ?? ''}' for url '${url}'\nFor more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/${status}`;
}

const totalOf = (ctx: MutantContext) => Number(ctx.env.GATEWAY_TIMEOUT_MS ?? 300_000);

/**
 * A read timeout of `ms` between upstream chunks, handled the way a FastAPI gateway catching
 * `httpx.TimeoutException` does: the upstream is closed and the client gets the TIMEOUT frame.
 * `total: false` also removes the total timeout (a timeout that restarts with every chunk).
 */
function readTimeout(ms: (ctx: MutantContext) => number, total = true): GatewayBreak {
  let limitMs = 0;
  // The sessions whose upstream exchange the read timeout gave up: their STREAM_ERROR is its doing.
  const gaveUp = new Set<string>();
  const sessionOf = new WeakMap<http.IncomingMessage, string>();
  return {
    ...(total ? {} : { config: (c) => ({ ...c, timeoutMs: 24 * 3600 * 1000 }) }),
    upstream: (ctx) => ({ readTimeoutMs: ms(ctx), onGiveUp: (body) => { const id = sessionIdOf(body); if (id !== undefined) gaveUp.add(id); } }),
    app(app) {
      app.addHook('preHandler', async (request) => {
        const body = request.body as { sessionId?: unknown } | null;
        if (isStreamPost(request.raw) && body && typeof body.sessionId === 'string') sessionOf.set(request.raw, body.sessionId);
      });
    },
    request(req, res, ctx) {
      limitMs = totalOf(ctx);
      if (isStreamPost(req)) {
        editResponse(res, {
          streamsOnly: true,
          write(chunk, emit) {
            const text = chunk.toString('utf8');
            const id = sessionOf.get(req);
            emit(STREAM_ERROR.test(text) && id !== undefined && gaveUp.has(id) ? text.replace(STREAM_ERROR, timeoutFrame(limitMs, Date.now())) : chunk);
          },
        });
      }
      return 'gateway';
    },
  };
}

function sessionIdOf(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { sessionId?: unknown }).sessionId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The clients' headers by the session their run names, for the interposer to copy upstream. */
const clientHeadersBySession = new Map<string, http.IncomingHttpHeaders>();

function recordClientHeaders(): GatewayBreak['app'] {
  return (app) => {
    app.addHook('preHandler', async (request) => {
      const body = request.body as { sessionId?: unknown } | null;
      if (!isStreamPost(request.raw) || !body || typeof body.sessionId !== 'string') return;
      clientHeadersBySession.set(body.sessionId, request.headers);
      if (clientHeadersBySession.size > 1000) clientHeadersBySession.delete(clientHeadersBySession.keys().next().value as string);
    });
  };
}

function clientHeadersOf(body: string): http.IncomingHttpHeaders | undefined {
  const id = sessionIdOf(body);
  return id === undefined ? undefined : clientHeadersBySession.get(id);
}

/**
 * The sessions whose client stream got the TIMEOUT frame: only their upstream is left open. (A
 * clock window around the last frame also kept a client disconnect's upstream that happened to
 * fall inside it, and failed GW-ABORT-001 besides.)
 */
const timedOutSessions = new Set<string>();
const timedOutSessionOf = new WeakMap<http.IncomingMessage, string>();

export const upstreamBreaks: Record<string, GatewayBreak> = {
  'read-timeout': readTimeout(() => 1200),
  'read-timeout-5s': readTimeout(() => 5000),
  'idle-timeout': readTimeout(totalOf, false),
  /** The total timeout ends the client stream, but the upstream request is left streaming. */
  'keeps-upstream-after-timeout': {
    upstream: () => ({ keepUpstream: (body) => { const id = sessionIdOf(body); return id !== undefined && timedOutSessions.has(id); } }),
    app(app) {
      app.addHook('preHandler', async (request) => {
        const body = request.body as { sessionId?: unknown } | null;
        if (isStreamPost(request.raw) && body && typeof body.sessionId === 'string') timedOutSessionOf.set(request.raw, body.sessionId);
      });
    },
    request(req, res) {
      if (isStreamPost(req)) {
        editResponse(res, {
          streamsOnly: true,
          write(chunk, emit) {
            const id = timedOutSessionOf.get(req);
            if (id !== undefined && chunk.toString('utf8').includes('"error_code": "TIMEOUT"')) {
              timedOutSessions.add(id);
              if (timedOutSessions.size > 1000) timedOutSessions.delete(timedOutSessions.values().next().value as string);
            }
            emit(chunk);
          },
        });
      }
      return 'gateway';
    },
  },
  /** `headers=dict(request.headers)`-style forwarding of the client's credentials. */
  'forwards-credentials': {
    app: recordClientHeaders(),
    upstream: () => ({
      headers(headers, body) {
        const client = clientHeadersOf(body);
        return { ...headers, ...(client?.authorization ? { authorization: client.authorization } : {}), ...(client?.cookie ? { cookie: client.cookie } : {}) };
      },
    }),
  },
  /** `detail=str(exc)` on httpx's HTTPStatusError: the internal upstream URL instead of the upstream's own error text. */
  'detail-from-httpx-error': {
    request(req, res, ctx) {
      if (isStreamPost(req)) {
        const url = `${(ctx.config.upstreamUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, '')}${(req.url ?? '').split('?')[0] ?? ''}`;
        editResponse(res, {
          streamsOnly: true,
          write(chunk, emit) {
            const text = chunk.toString('utf8');
            const m = STATUS_FRAME.exec(text);
            if (!m) { emit(chunk); return; }
            const frame = JSON.parse(m[1] as string) as { status_code: number; timestamp: number };
            emit(text.replace(STATUS_FRAME, upstreamStatusFrame(frame.status_code, httpxStatusMessage(frame.status_code, url), frame.timestamp * 1000)));
          },
        });
      }
      return 'gateway';
    },
  },
  /** An upstream 5xx is tried again (tenacity's habit), so the user's run starts twice. */
  'retries-5xx': { upstream: () => ({ retry5xx: true }) },
  /** The client's Host header copied onto the upstream request. */
  'forwards-host': {
    app: recordClientHeaders(),
    upstream: () => ({
      headers(headers, body) {
        const client = clientHeadersOf(body);
        return client?.host ? { ...headers, host: client.host } : headers;
      },
    }),
  },
};
