/**
 * The reference gateway of seed 004 as a fastify app (no listen: start.ts does that). One plugin
 * per concern; every request first passes access.ts (flag → JWT → CSRF).
 *
 * Routes: POST /run_sse, POST /run_sse_enhanced (canonical passthrough), POST /api/sse/run_sse
 * (cookie-to-bearer proxy), POST|GET /apps/{app}/users/{user}/sessions/{session}/run (legacy
 * two-step), POST /normalize/turn (block-index normaliser, when its plugin is present), and the
 * public GET /_gateway/stats, GET /_gateway/csrf, GET /health. docs/gateway.md documents them.
 */
import { kitModule } from '../../core/package-root.ts';
import { existsSync } from 'node:fs';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { installAccessControl, routeConfig } from './access.ts';
import { resolveGatewayConfig, type GatewayConfigInput } from './config.ts';
import { closeGatewayContext, createGatewayContext } from './context.ts';
import { cookieProxyRoute } from './cookie-proxy-route.ts';
import { csrfCookie, newCsrfToken } from './csrf.ts';
import { installErrorHandlers } from './http-errors.ts';
import { legacyRoutes } from './legacy-route.ts';
import { createLegacyRunStore } from './legacy-runs.ts';
import { createRunSseHandler, runSseRoutes } from './run-sse-route.ts';
import { statsRoute } from './stats.ts';

export type BuildGatewayOptions = { logger?: boolean | { level: string } };

const normalizeRouteFile = kitModule('reference-impl/gateway/normalize-route.ts');

export function buildGatewayApp(input: GatewayConfigInput, options: BuildGatewayOptions = {}): FastifyInstance {
  const config = resolveGatewayConfig(input);
  const context = createGatewayContext(config);
  const store = createLegacyRunStore(config.legacy);
  // forceCloseConnections: open SSE responses are torn down on close (and their upstreams aborted).
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: config.bodyLimitBytes, forceCloseConnections: true });
  // Every body the gateway takes is JSON; fastify's built-in text/plain parser would let a string through to validation.
  app.removeContentTypeParser('text/plain');
  installErrorHandlers(app);
  installAccessControl(app, config);

  const handle = createRunSseHandler(context);
  void app.register(runSseRoutes(handle));
  void app.register(cookieProxyRoute(handle));
  void app.register(legacyRoutes(context, store));
  if (config.exposeStats) void app.register(statsRoute(() => ({ streams: { ...context.stats.streams }, legacy: store.stats() })));

  const publicAccess = routeConfig({ public: true });
  app.get('/_gateway/csrf', { config: publicAccess }, async (_request, reply) => {
    const token = newCsrfToken();
    return reply.header('set-cookie', csrfCookie(config.csrf.cookieName, token)).header('cache-control', 'no-store').send({ csrfToken: token, header: 'X-CSRF-Token', cookie: config.csrf.cookieName });
  });
  app.get('/health', { config: publicAccess }, async () => ({ status: 'ok', upstream: config.upstreamUrl, canonicalStreamEnabled: config.canonicalStreamEnabled, auth: config.auth.mode }));

  // The block-index normaliser's SSE route belongs to another part; it joins when it exists.
  if (existsSync(normalizeRouteFile)) {
    const specifier = normalizeRouteFile;
    void app.register(import(specifier) as Promise<{ default: FastifyPluginAsync<{ upstreamUrl: string }> }>, { upstreamUrl: config.anthropicUpstreamUrl });
  }

  app.addHook('onClose', async () => {
    store.close();
    closeGatewayContext(context);
  });
  return app;
}
