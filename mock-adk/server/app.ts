/**
 * The mock ADK API server as a fastify app (no `listen`: see start.ts). One plugin per concern,
 * all over the platform-free routes in this folder, which the msw shell serves too.
 *
 * Bodies are kept as raw bytes for every content type: the journal needs the exact text, and
 * each dialect decides for itself how (and whether) to read JSON, as the real servers do.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { dialects, isAdkJs } from '../core/dialects/index.ts';
import { loadScenarios } from '../../scenarios/loader.ts';
import type { Scenario } from '../../schemas/types.ts';
import { abortAll, routesPlugin, sendResult, toMockRequest, type ActiveReplays } from './fastify-io.ts';
import { allRouteGroups, recordRequest, unmatchedResult } from './route-table.ts';
import { createMockState, type MockState, type MockStateOptions } from './mock-state.ts';
import { installRecordProxy, type RecordProxyOptions } from './record-proxy.ts';

export type MockAppOptions = Omit<MockStateOptions, 'scenarios'> & {
  /** Default: the kit's corpus (load errors are the caller's to report: use loadScenarios). */
  scenarios?: readonly Scenario[];
  /** fastify's logger; default off. */
  logger?: boolean;
  /** Recording proxy mode (`mock --record-from`): forward to a real server and record its runs. */
  recordFrom?: RecordProxyOptions;
};

/** Express's `express.json({limit: "50mb"})`. */
const bodyLimit = 50 * 1024 * 1024;

const states = new WeakMap<FastifyInstance, MockState>();

/** The state behind an app built by `buildMockApp` (sessions, journal, counters), for tests and tools. */
export function mockStateOf(app: FastifyInstance): MockState {
  const state = states.get(app);
  if (!state) throw new TypeError('mockStateOf: this fastify instance was not built by buildMockApp');
  return state;
}

export function buildMockApp(options: MockAppOptions = {}): FastifyInstance {
  const state = createMockState({ ...options, scenarios: options.scenarios ?? loadScenarios().scenarios });
  const active: ActiveReplays = new Set();
  const frameworkAnswer = (status: number, message: string) => {
    const spec = dialects[state.dialect];
    return spec.json(status, isAdkJs(state.dialect) ? { error: message } : { detail: message });
  };
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit,
    // Express routing is not strict about a trailing slash, and session ids can be long.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 4096 },
    // Held-open streams must not keep `close()` waiting.
    forceCloseConnections: true,
    // Node's default, which Express keeps: Express-shaped answers say `Keep-Alive: timeout=5`.
    keepAliveTimeout: 5000,
    // A URL fastify cannot decode never reaches a route: answer it in the dialect's JSON error form.
    frameworkErrors: (error, _request, reply) => {
      sendResult(state, active, reply, { kind: 'answer', answer: frameworkAnswer(400, error.message) });
    },
  });
  states.set(app, state);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request: FastifyRequest, body: Buffer, done: (error: null, body: Buffer) => void) => done(null, body));

  // The journal records in each handler (one MockRequest, no async hook per request: issue 14);
  // a recording proxy hijacks before any handler, so there the hook records.
  if (options.recordFrom) {
    app.addHook('preHandler', async (request) => { recordRequest(state, toMockRequest(request)); });
    installRecordProxy(app, options.recordFrom);
  }
  const journaled = !options.recordFrom;
  app.addHook('preClose', async () => { abortAll(active); });

  for (const group of allRouteGroups) {
    void app.register(routesPlugin(state, active, group.routes, journaled));
  }
  app.setNotFoundHandler((request, reply) => {
    if (journaled) recordRequest(state, toMockRequest(request));
    sendResult(state, active, reply, unmatchedResult(state, request.method, request.raw.url ?? request.url));
  });
  // fastify's own errors (a body over the limit, a broken URL) in the dialect's words where it has them.
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode ?? 500;
    sendResult(state, active, reply, { kind: 'answer', answer: frameworkAnswer(status >= 400 && status <= 599 ? status : 500, error.message) });
  });
  return app;
}
