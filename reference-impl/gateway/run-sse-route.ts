/**
 * The canonical endpoints (seed 004 § Endpoint Specification): `POST /run_sse` and
 * `POST /run_sse_enhanced`, an authenticated pass-through to the same path on the ADK server.
 *
 * Seed 004 § Streaming Pattern: "**Mutation:** Zero (raw passthrough from ADK service)",
 * "**Buffering:** Disabled". Each upstream chunk is written to the client as it arrives; the
 * gateway adds bytes only when the exchange fails, and then exactly one terminal frame.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { routeConfig } from './access.ts';
import type { GatewayContext } from './context.ts';
import { streamErrorFrame, timeoutFrame, upstreamStatusFrame } from './error-frames.ts';
import { createFrameBoundaryTracker } from './frame-boundary.ts';
import { sendError } from './http-errors.ts';
import { checkRunAgentRequest } from './run-request.ts';
import { streamUpstream, type UpstreamOutcome } from './upstream.ts';

export type UpstreamPath = '/run_sse' | '/run_sse_enhanced';

/** Seed 004 § HTTP Headers, "Response Headers", exactly (no charset, unlike uvicorn's). */
export const streamHeaders = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
} as const;

export type RunSseHandler = (request: FastifyRequest, reply: FastifyReply, path: UpstreamPath) => Promise<void>;

export function createRunSseHandler(context: GatewayContext): RunSseHandler {
  const { config, stats, agents } = context;
  return async (request, reply, path) => {
    const checked = checkRunAgentRequest(request.body);
    if (!checked.ok) {
      await sendError(reply, 'GW_INVALID_REQUEST', checked.reason, { issues: checked.issues });
      return;
    }
    reply.hijack();
    const res = reply.raw;
    // Seed 004 § Timeout Error: "**HTTP Status:** 200 (stream starts successfully)": the status
    // and headers go out before the upstream answers, as the seed's StreamingResponse does.
    res.writeHead(200, streamHeaders);
    res.flushHeaders();

    const leave = new AbortController();
    res.on('close', () => { if (!res.writableFinished) leave.abort(); });
    // A socket error (EPIPE, reset) means the client is gone: the same as leaving, never a crash.
    res.on('error', () => leave.abort());
    const boundary = createFrameBoundaryTracker();
    const outcome = await streamUpstream({
      url: `${config.upstreamUrl}${path}`,
      body: checked.json,
      timeoutMs: config.timeoutMs,
      signal: leave.signal,
      agents,
      onOpen: stats.onOpen,
      onClose: stats.onClose,
    }, {
      write(chunk) {
        if (res.destroyed) return true;
        boundary.feed(chunk);
        return res.write(chunk);
      },
      onceDrain(resume) { res.once('drain', resume); },
    });
    if (outcome.kind === 'aborted' || res.destroyed) return;
    const frame = terminalFrame(outcome, config.timeoutMs, config.now());
    // A cut mid-event left a partial line with the client: close it so the frame is its own event.
    if (frame !== undefined) res.write(boundary.closingBytes() + frame);
    res.end();
  };
}

/**
 * The one frame that ends a failed exchange. A clean upstream EOF gets none: the real ADK sends
 * no DONE, and seed 004's generator appends nothing after `aiter_lines()` ends.
 */
export function terminalFrame(outcome: UpstreamOutcome, timeoutMs: number, nowMs: number): string | undefined {
  switch (outcome.kind) {
    case 'eof': return undefined;
    case 'aborted': return undefined;
    case 'timeout': return timeoutFrame(timeoutMs, nowMs);
    case 'status': return upstreamStatusFrame(outcome.status, outcome.detail, nowMs);
    case 'stream-error': return streamErrorFrame(outcome.message, nowMs);
  }
}

export function runSseRoutes(handle: RunSseHandler): FastifyPluginAsync {
  return async (app) => {
    const config = routeConfig({ canonical: true, token: 'header' });
    app.post('/run_sse', { config }, (request, reply) => handle(request, reply, '/run_sse'));
    // Seed 000 §2.2B: the enhanced stream (with `_audit_metadata`) is passed through the same way.
    app.post('/run_sse_enhanced', { config }, (request, reply) => handle(request, reply, '/run_sse_enhanced'));
  };
}
