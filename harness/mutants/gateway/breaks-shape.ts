/**
 * Not mutants: gateways of other shapes the seeds allow, which must certify once they declare
 * their shape (docs/configuration.md "gateway"). `fixed-app-vana` serves one app, `vana` (seed
 * 004: `appName` "e.g., vana"), and refuses any other with 404, on the canonical and the legacy
 * routes; `no-proxy-no-enhanced` serves neither the cookie proxy route (seed 004 puts it in the
 * frontend) nor /run_sse_enhanced (seed 000 puts it in the ADK service's main.py);
 * `canonical-only` serves /run_sse and not the legacy routes, which seed 004 keeps in the existing
 * app (the seed-literal FastAPI gateway of docs/calibration.md §6).
 */
import type { GatewayBreak } from './host.ts';

const fixedApp = 'vana';
const pathOf = (url: string) => url.split('?')[0] ?? '';

export const shapeVariants: Record<string, GatewayBreak> = {
  'fixed-app-vana': {
    app(app) {
      app.addHook('onRequest', async (request, reply) => {
        const legacy = /^\/apps\/([^/]+)\//.exec(pathOf(request.url));
        const app = legacy?.[1] === undefined ? undefined : decodeURIComponent(legacy[1]);
        if (app !== undefined && app !== fixedApp) await reply.code(404).send({ detail: `App not found: ${app} (this gateway serves ${fixedApp})` });
      });
      app.addHook('preHandler', async (request, reply) => {
        const appName = (request.body as { appName?: unknown } | undefined)?.appName;
        // A missing or mistyped appName is the validation's to refuse (GW-REQ-001), naming the field.
        if (request.method === 'POST' && typeof appName === 'string' && appName !== fixedApp) await reply.code(404).send({ detail: `App not found: ${appName} (this gateway serves ${fixedApp})` });
      });
    },
  },
  'canonical-only': {
    app(app) {
      app.addHook('onRequest', async (request, reply) => {
        if (/^\/apps\/[^/]+\/users\/[^/]+\/sessions\/[^/]+\/run$/.test(pathOf(request.url))) await reply.code(404).send({ detail: 'Not Found' });
      });
    },
  },
  'no-proxy-no-enhanced': {
    app(app) {
      app.addHook('onRequest', async (request, reply) => {
        const path = pathOf(request.url);
        if (path === '/api/sse/run_sse' || path === '/run_sse_enhanced') await reply.code(404).send({ detail: 'Not Found' });
      });
    },
  },
};
