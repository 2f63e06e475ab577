/**
 * `POST /normalize/turn`: run one agent turn against the Anthropic-compatible upstream and stream
 * seed 003's block-indexed events back as SSE, one `data: {"event_type":...,"data":{...}}` frame
 * per event (no `event:` field, the ADK framing: the type is inside the JSON). The frames carry
 * exactly the lines `adk-conformance normalize` prints, so one checker serves both.
 *
 * Body: `{"model": "<anthropic-turn scenario id>", "message"?: "<user text>"}`. A client that goes
 * away aborts the turn, upstream calls included.
 */
import type { FastifyPluginAsync } from 'fastify';
import { encodeSse } from '../../core/sse.ts';
import { runTurn } from '../turn-runner.ts';
import { sendError } from './http-errors.ts';

export type NormalizeRouteOptions = { upstreamUrl: string };

const normalizeRoute: FastifyPluginAsync<NormalizeRouteOptions> = async (app, opts) => {
  if (typeof opts.upstreamUrl !== 'string' || !/^https?:\/\//.test(opts.upstreamUrl)) {
    throw new TypeError(`normalize-route: register it with {upstreamUrl: 'http://host:port'} (the Anthropic-compatible upstream, e.g. the mock), got ${JSON.stringify(opts.upstreamUrl)}`);
  }

  app.post('/normalize/turn', async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return sendError(reply, 'GW_INVALID_REQUEST', 'the body must be a JSON object {"model": "<scenario id>", "message"?: "..."}');
    }
    const { model, message } = body as Record<string, unknown>;
    if (typeof model !== 'string' || model === '') return sendError(reply, 'GW_INVALID_REQUEST', 'body.model must be a non-empty string: the anthropic-turn scenario (model) to run', { issues: [{ path: '/model', message: 'must be a non-empty string' }] });
    if (message !== undefined && typeof message !== 'string') return sendError(reply, 'GW_INVALID_REQUEST', 'body.message must be a string when present', { issues: [{ path: '/message', message: 'must be a string' }] });

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    const controller = new AbortController();
    // 'close' after the response finished is the normal end; before it, the client left.
    res.on('close', () => { if (!res.writableFinished) controller.abort(); });
    const write = (event: unknown) => { if (!res.destroyed) res.write(encodeSse({ data: JSON.stringify(event) })); };
    try {
      await runTurn({ upstreamUrl: opts.upstreamUrl, scenarioModel: model, message, signal: controller.signal, onEvent: write });
    } catch (error) {
      request.log.error({ err: error }, 'normalize turn failed');
      write({ event_type: 'error', data: { reason: 'internal_error', message: `the turn runner failed: ${(error as Error).message}` } });
      write({ event_type: 'stream_end', data: {} });
    }
    if (!res.destroyed) res.end();
  });
};

export default normalizeRoute;
