/**
 * Seed 004 § Legacy Pattern (Current Default):
 *   "POST /apps/{app}/users/{user}/sessions/{session}/run  Body: {"query": "research topic"}
 *    Response: {"success": true, "sessionId": "..."}"
 *   "GET /apps/{app}/users/{user}/sessions/{session}/run  Response: text/event-stream (custom events)"
 * The POST starts the run in the background as a `/run_sse` to the ADK server with `newMessage`
 * built from `query`; the GET streams the derived events (legacy-derive.ts), replaying what a late
 * reader missed (and honouring Last-Event-ID), then follows the run live until research_complete.
 * "**Feature Flag** ... Always available": these routes answer whatever ENABLE_ADK_CANONICAL_STREAM says.
 */
import type { FastifyPluginAsync } from 'fastify';
import { routeConfig } from './access.ts';
import { createSseReader, encodeSse } from '../../core/sse.ts';
import type { GatewayContext } from './context.ts';
import { sendError } from './http-errors.ts';
import { createLegacyDeriver } from './legacy-derive.ts';
import type { LegacyRunStore, StoredEvent } from './legacy-runs.ts';
import { modelDump } from './run-request.ts';
import { streamHeaders } from './run-sse-route.ts';
import { streamUpstream } from './upstream.ts';

type Params = { app: string; user: string; session: string };

/** A reader this far behind is cut off rather than buffered without bound. */
const READER_BACKLOG_LIMIT = 1024 * 1024;

export function legacyRoutes(context: GatewayContext, store: LegacyRunStore): FastifyPluginAsync {
  const { config, stats, agents } = context;
  return async (app) => {
    const path = '/apps/:app/users/:user/sessions/:session/run';

    app.post<{ Params: Params }>(path, { config: routeConfig({ token: 'header' }) }, async (request, reply) => {
      const body = request.body as { query?: unknown; streaming?: unknown } | null;
      if (!body || typeof body !== 'object' || Array.isArray(body)) return sendError(reply, 'GW_INVALID_REQUEST', '/: the body must be a JSON object {"query": "..."}', { issues: [{ path: '/', message: 'must be object' }] });
      if (typeof body.query !== 'string' || body.query.trim() === '') return sendError(reply, 'GW_INVALID_REQUEST', '/query: must be a non-empty string', { issues: [{ path: '/query', message: 'must be a non-empty string' }] });
      if (body.streaming !== undefined && typeof body.streaming !== 'boolean') return sendError(reply, 'GW_INVALID_REQUEST', '/streaming: must be boolean', { issues: [{ path: '/streaming', message: 'must be boolean' }] });
      const { app: appName, user: userId, session: sessionId } = request.params;
      const started = store.start(runKey(request.params), request.principal?.subject);
      if (!started.ok) {
        return started.reason === 'active'
          ? sendError(reply, 'GW_LEGACY_RUN_ACTIVE', `a run is already in progress for session ${sessionId}; GET this path to read it`)
          : sendError(reply, 'GW_LEGACY_BUSY', `${config.legacy.maxRuns} legacy runs are in progress (LEGACY_MAX_RUNS); retry later`);
      }
      const run = started.run;
      const deriver = createLegacyDeriver(sessionId);
      const reader = createSseReader({ onFrame: (frame) => { for (const event of deriver.feed(frame.data)) run.push(event); } });
      const json = modelDump({ appName, userId, sessionId, newMessage: { role: 'user', parts: [{ text: body.query }] }, streaming: body.streaming ?? false });
      // Background task: not awaited; the run's own AbortController ends it when the run is dropped.
      void streamUpstream({ url: `${config.upstreamUrl}/run_sse`, body: json, timeoutMs: config.timeoutMs, signal: run.abort.signal, agents, onOpen: stats.onOpen, onClose: stats.onClose }, {
        write(chunk) {
          try {
            reader.feed(chunk);
          } catch (error) {
            // A derivation bug must end this run, not the gateway.
            request.log.error({ err: error }, 'legacy derivation failed');
            run.abort.abort();
          }
          return true;
        },
        onceDrain(resume) { resume(); },
      }).then((outcome) => {
        reader.end();
        for (const event of deriver.end(outcome, config.timeoutMs)) run.push(event);
        run.finish();
      });
      return reply.code(200).send({ success: true, sessionId });
    });

    app.get<{ Params: Params }>(path, { config: routeConfig({ token: 'header-or-cookie' }) }, async (request, reply) => {
      const run = store.get(runKey(request.params));
      if (!run) return sendError(reply, 'GW_LEGACY_RUN_NOT_FOUND', `no legacy run is held for session ${request.params.session}; POST this path first`);
      if (run.owner !== undefined && run.owner !== request.principal?.subject) return sendError(reply, 'GW_LEGACY_FORBIDDEN', 'the run was started by another subject');
      const lastHeader = request.headers['last-event-id'];
      const after = Number(Array.isArray(lastHeader) ? lastHeader[0] : lastHeader ?? 0) || 0;

      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, streamHeaders);
      res.on('error', () => res.destroy());
      const write = (event: StoredEvent): void => {
        if (event.id <= after || res.destroyed) return;
        res.write(encodeSse({ event: event.event, id: String(event.id), data: JSON.stringify(event.data) }));
        if (res.writableLength > READER_BACKLOG_LIMIT) res.destroy();
      };
      // Subscribing first marks the run as read; nothing can be pushed between here and the replay (one tick).
      const unsubscribe = run.subscribe((event) => {
        if (event === 'end') { unsubscribe(); if (!res.destroyed) res.end(); return; }
        write(event);
      });
      res.on('close', unsubscribe);
      for (const event of run.events()) write(event);
      if (run.finished) { unsubscribe(); res.end(); }
    });
  };
}

function runKey(params: Params): string {
  return JSON.stringify([params.app, params.user, params.session]);
}
