/**
 * Probes of the gateway's other faces: the cookie-to-bearer proxy (GW-PROXY-001), the legacy
 * two-step endpoints (GW-LEGACY-*), and its memory over thousands of runs (GW-MEM-001).
 */
import http from 'node:http';
import type { Probe, RunEnv, ScenarioCheck } from './types.ts';
import type { Exchange } from '../checks/gateway/types.ts';
import { checkLegacy } from '../checks/gateway/legacy.ts';
import { checkMemory, type MemoryObservation } from '../checks/gateway/memory.ts';
import { checkProxy } from '../checks/gateway/proxy.ts';
import { upstreamRuns } from '../checks/gateway/forwarding.ts';
import { authCookieName, clientHeaders } from './gateway-contract.ts';
import { exchange, pause, type MockClient } from './gateway-http.ts';
import type { GatewayInstance } from './gateway-instances.ts';
import { prepareRun, sendRun, timelineOf, withInstance, type GatewayKit } from './gateway-kit.ts';

type KitRef = () => GatewayKit;

export function proxyProbe(kitRef: KitRef): Probe {
  const id = 'probe:proxy';
  const requirements = ['GW-PROXY-001'];
  return {
    id: 'proxy',
    requirements,
    run: (env) => withInstance(kitRef(), 'main', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      const run = await prepareRun(kit, mock, kit.scenario('plain_text'));
      const cookie = (token: string) => clientHeaders(undefined, kit.creds.csrf, [`${authCookieName}=${token}`]);
      const accepted = await sendRun(kit, instance, run, env, { path: '/api/sse/run_sse', headers: cookie(kit.creds.valid) });
      const refused = await sendRun(kit, instance, run, env, { path: '/api/sse/run_sse', headers: cookie(kit.creds.wrongKey) });
      const journal = await mock.journal(run.target.sessionId);
      const upstreamUrls = Array.isArray(journal) ? upstreamRuns(journal).map((r) => r.url) : journal;
      return { outcomes: checkProxy(id, { accepted, expected: run.script.bytes, refused, upstreamUrls, token: kit.creds.valid }), timeline: timelineOf('POST /api/sse/run_sse with the token in the access_token cookie', accepted) };
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
    run: (env) => withInstance(kitRef(), 'main', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      const scenario = kit.scenario('plain_text');
      const sessionId = kit.session('legacy');
      const userId = scenario.session.userId;
      await mock.createSession(scenario.id, userId, sessionId);
      await mock.arm(sessionId, scenario.id, scenario.dialect);
      const url = `${instance.url}/apps/${scenario.id}/users/${userId}/sessions/${encodeURIComponent(sessionId)}/run`;
      const bound = Math.min(5000, env.scenarioTimeoutMs - 1000);
      const headers = clientHeaders(kit.hasKey ? kit.creds.valid : undefined, kit.creds.csrf);
      const post = await exchange(url, { body: JSON.stringify({ query: scenario.request.message }), headers: { ...headers, accept: 'application/json' }, deadlineMs: bound, signal: env.signal });
      let get: Exchange | undefined;
      let started: boolean | { error: string } = false;
      if (post.status === 200) {
        started = await upstreamStarted(mock, sessionId, env);
        const getHeaders: Record<string, string> = { accept: 'text/event-stream', ...(headers.authorization ? { authorization: headers.authorization } : {}) };
        get = await exchange(url, { method: 'GET', headers: getHeaders, deadlineMs: bound, signal: env.signal });
      }
      return { outcomes: checkLegacy(id, { sessionId, post, upstreamStarted: started, get }), timeline: [...timelineOf('legacy POST .../run', post), ...(get ? timelineOf('legacy GET .../run', get) : [])] };
    }, env),
  };
}

export type MemoryProbeOptions = { runs: number; warmupRuns: number; boundBytes: number; concurrency: number };

async function repeatRuns(count: number, concurrency: number, one: () => Promise<string | undefined>, env: RunEnv): Promise<{ failed: number; first?: string }> {
  let next = 0;
  let failed = 0;
  let first: string | undefined;
  const worker = async () => {
    while (next < count && !env.signal.aborted) {
      next++;
      const problem = await one();
      if (problem !== undefined) { failed++; first ??= problem; }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { failed, ...(first !== undefined ? { first } : {}) };
}

async function measureMemory(kit: GatewayKit, instance: GatewayInstance, mock: MockClient, o: MemoryProbeOptions, env: RunEnv): Promise<MemoryObservation | { error: string }> {
  const first = instance.rss();
  if (typeof first !== 'number') return first;
  const scenario = kit.scenario('plain_text');
  const sessionId = kit.session('memory');
  await mock.createSession(scenario.id, scenario.session.userId, sessionId);
  const body = JSON.stringify({ appName: scenario.id, userId: scenario.session.userId, sessionId, newMessage: { role: 'user', parts: [{ text: scenario.request.message }] }, streaming: false });
  const headers = clientHeaders(kit.hasKey ? kit.creds.valid : undefined, kit.creds.csrf);
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency });
  const one = async (): Promise<string | undefined> => {
    const x = await exchange(`${instance.url}/run_sse`, { body, headers, agent, deadlineMs: 5000, signal: env.signal, maxBodyBytes: 64 * 1024 });
    return x.status === 200 && x.ending === 'complete' ? undefined : `HTTP ${x.status ?? '-'} ${x.ending}${x.error ? ` (${x.error})` : ''}`;
  };
  try {
    await repeatRuns(o.warmupRuns, o.concurrency, one, env);
    const baseline = instance.rss();
    if (typeof baseline !== 'number') return baseline;
    const samples: MemoryObservation['samples'] = [];
    let failed = 0;
    let firstFailure: string | undefined;
    const quarter = Math.ceil(o.runs / 4);
    for (let done = 0; done < o.runs && !env.signal.aborted; done += quarter) {
      const r = await repeatRuns(Math.min(quarter, o.runs - done), o.concurrency, one, env);
      failed += r.failed;
      firstFailure ??= r.first;
      const rss = instance.rss();
      if (typeof rss !== 'number') return rss;
      samples.push({ afterRuns: Math.min(done + quarter, o.runs), rssBytes: rss });
    }
    if (env.signal.aborted) return { error: 'the memory probe was cancelled before its runs were done' };
    return { runs: o.runs, failedRuns: failed, baselineBytes: baseline, samples, boundBytes: o.boundBytes, firstFailure };
  } finally {
    agent.destroy();
  }
}

export type MemoryLoad = {
  /** Start the runs in the background (idempotent): they overlap the other probes, which mostly wait. */
  kick: (env: RunEnv) => void;
  probe: Probe;
  stop: () => void;
};

/**
 * GW-MEM-001's thousands of runs take seconds of CPU while the scenarios and the other probes
 * mostly wait on the upstream's scripted pauses, so they run alongside them; the probe itself
 * (run last) collects the result. Checks that count on shared mock counters are written so that
 * completed runs cannot disturb them (see abortSeen).
 */
export function createMemoryLoad(kitRef: KitRef, options: MemoryProbeOptions): MemoryLoad {
  const id = 'probe:memory';
  const requirements = ['GW-MEM-001'];
  const cancel = new AbortController();
  let result: Promise<ScenarioCheck> | undefined;
  const kick = (env: RunEnv) => {
    result ??= withInstance(kitRef(), 'main', requirements, id, async (instance, mock) => {
      const observation = await measureMemory(kitRef(), instance, mock, options, { ...env, signal: cancel.signal });
      const summary = 'error' in observation ? observation.error : `${observation.runs} runs after ${options.warmupRuns} warm-up runs; RSS ${observation.samples.map((s) => `${(s.rssBytes / 1048576).toFixed(1)} MB`).join(' → ')} from ${(observation.baselineBytes / 1048576).toFixed(1)} MB`;
      return { outcomes: checkMemory(id, observation), timeline: [{ t: 0, kind: 'note', summary }] };
    }, env);
  };
  return {
    kick,
    probe: {
      id: 'memory',
      requirements,
      run: async (env) => {
        kick(env);
        const onAbort = () => cancel.abort();
        env.signal.addEventListener('abort', onAbort, { once: true });
        try { return await (result as Promise<ScenarioCheck>); } finally { env.signal.removeEventListener('abort', onAbort); }
      },
    },
    stop: () => cancel.abort(),
  };
}
