/**
 * Probes of the gateway's other faces: the cookie-to-bearer proxy (GW-PROXY-002) and the legacy
 * two-step endpoints (GW-LEGACY-*). Memory is in memory.ts.
 */
import type { Probe, RunEnv } from '../types.ts';
import type { Exchange } from '../../checks/gateway/types.ts';
import { checkLegacy } from '../../checks/gateway/legacy.ts';
import { checkProxy } from '../../checks/gateway/proxy.ts';
import { upstreamRuns } from '../../checks/gateway/forwarding.ts';
import { authCookieName } from './contract.ts';
import { exchange, pause, type MockClient } from './http.ts';
import { appNameOf, headersFor, prepareRun, sendRun, timelineOf, withInstance, type GatewayKit } from './kit.ts';
import { processOf } from './instances.ts';

type KitRef = () => GatewayKit;

export function proxyProbe(kitRef: KitRef): Probe {
  const id = 'probe:proxy';
  const requirements = ['GW-PROXY-002'];
  return {
    id: 'proxy',
    requirements,
    shared: true,
    run: (env) => withInstance(kitRef(), 'main', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      const run = await prepareRun(kit, mock, kit.scenario('plain_text'));
      const cookie = (token: string) => headersFor(kit, instance, { token: undefined }, [`${authCookieName}=${token}`]);
      const accepted = await sendRun(kit, instance, run, env, { path: '/api/sse/run_sse', headers: cookie(kit.creds.valid) });
      const refused = await sendRun(kit, instance, run, env, { path: '/api/sse/run_sse', headers: cookie(kit.creds.wrongKey) });
      // A valid token in the URL only: never to be accepted (seed 004: "must not be exposed in browser URLs").
      const bare = headersFor(kit, instance, { token: undefined });
      const urlToken = [];
      for (const path of [`/api/sse/run_sse?access_token=${kit.creds.valid}`]) {
        const sent = await prepareRun(kit, mock, kit.scenario('plain_text'));
        urlToken.push({ label: `POST ${path.split('?')[0]} with a valid token only in its URL (?${path.split('?')[1]?.split('=')[0]}=)`, exchange: await sendRun(kit, instance, sent, env, { path, headers: bare }) });
      }
      const journal = await mock.journal(run.target.sessionId);
      const upstreamUrls = Array.isArray(journal) ? upstreamRuns(journal).map((r) => r.url) : journal;
      return { outcomes: checkProxy(id, { accepted, expected: run.script.bytes, refused, upstreamUrls, token: kit.creds.valid, urlToken }), timeline: timelineOf('POST /api/sse/run_sse with the token in the access_token cookie', accepted) };
    }, env),
  };
}

async function upstreamStarted(mock: MockClient, sessionId: string, env: RunEnv): Promise<boolean | { error: string }> {
  for (let i = 0; i < 40 && !env.signal.aborted; i++) {
    const journal = await mock.journal(sessionId);
    if (!Array.isArray(journal)) return journal;
    if (upstreamRuns(journal).length > 0) return true;
    await pause(50, env.signal);
  }
  return false;
}

export function legacyProbe(kitRef: KitRef): Probe {
  const id = 'probe:legacy';
  const requirements = ['GW-LEGACY-001', 'GW-LEGACY-002'];
  return {
    id: 'legacy',
    requirements,
    shared: true,
    run: (env) => withInstance(kitRef(), 'main', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      const scenario = kit.scenario('plain_text');
      const sessionId = kit.session('legacy');
      const userId = scenario.session.userId;
      const app = appNameOf(kit, scenario);
      await mock.createSession(app, userId, sessionId);
      await mock.arm(sessionId, scenario.id, scenario.dialect);
      const url = `${instance.url}/apps/${encodeURIComponent(app)}/users/${encodeURIComponent(userId)}/sessions/${encodeURIComponent(sessionId)}/run`;
      const bound = Math.min(5000, env.scenarioTimeoutMs - 1000);
      const headers = headersFor(kit, instance);
      const post = await exchange(url, { body: JSON.stringify({ query: scenario.request.message }), headers: { ...headers, accept: 'application/json' }, deadlineMs: bound, root: processOf(instance), signal: env.signal });
      let get: Exchange | undefined;
      let started: boolean | { error: string } = false;
      if (post.status === 200) {
        started = await upstreamStarted(mock, sessionId, env);
        const getHeaders: Record<string, string> = { accept: 'text/event-stream', ...(headers.authorization ? { authorization: headers.authorization } : {}) };
        get = await exchange(url, { method: 'GET', headers: getHeaders, deadlineMs: bound, root: processOf(instance), signal: env.signal });
      }
      return { outcomes: checkLegacy(id, { sessionId, post, upstreamStarted: started, get }), timeline: [...timelineOf('legacy POST .../run', post), ...(get ? timelineOf('legacy GET .../run', get) : [])] };
    }, env),
  };
}
