/**
 * The cookie-to-bearer proxy part runner (PRX-*; docs/proxy-contract.md). The harness is the
 * browser on one side and the backend on the other: it starts the reference gateway behind a
 * recording relay (backend.ts), starts the proxy with BACKEND_URL pointing at the relay (or
 * reaches one already pointed there, `--proxy URL` with `--backend-port`), sends each scenario as
 * a browser would (the token only in the HttpOnly cookie, the double-submit CSRF pair), and
 * compares what the client got with what the backend was asked and answered.
 */
import { join } from 'node:path';
import { packageRoot } from '../../../core/package-root.ts';
import { randomBytes } from 'node:crypto';
import type { Scenario } from '../../../schemas/types.ts';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { checkAbort, checkCsrf, checkErrorAnswers, checkHostClaim, checkNoCookie, checkProxiedRun, checkUnbuffered, checkUrlTokens, type ErrorAnswerCase, type HostAttempt, type HostClaimCase } from '../../checks/proxy/index.ts';
import { checkForwardedBody, type BodyCase } from '../../checks/proxy/body.ts';
import { upstreamRuns } from '../../checks/gateway/forwarding.ts';
import { forwardedBodies, scriptedErrors } from './cases.ts';
import type { Exchange, UpstreamScript } from '../../checks/gateway/types.ts';
import { authCookieName, createCredentials, csrfCookieName, runBody, scriptedMs, upstreamScript, type Credentials, type RunTarget } from '../gateway/contract.ts';
import { createMockClient, exchange, pause, type MockClient } from '../gateway/http.ts';
import { freePort, processOf, spawnLauncher, type GatewayInstance, type GatewayLauncher } from '../gateway/instances.ts';
import { allUntested, timelineOf } from '../gateway/kit.ts';
import { startProxyBackend, type ProxyBackend } from './backend.ts';
import { shellQuote } from '../../../core/shell.ts';
import type { PartRunner, Probe, RunEnv, ScenarioCheck } from '../types.ts';
import type { StartupRecord } from '../../model.ts';

export type ProxyTarget = { url: string } | { command: string };

export type ProxyRunnerOptions = {
  /** Starts the proxy with the contract environment (default: the command, spawned); tests start mutants in process. */
  launcher?: GatewayLauncher;
  /** Where the backend relay listens in URL mode (the proxy's BACKEND_URL must point there); default 8000. */
  backendPort?: number;
  /** How long the proxy command may take to accept a TCP connection (--startup-timeout). Default 15000. */
  readyMs?: number;
  /** Include scenarios tagged `slow` or `timing` (default $ADK_CONFORMANCE_INCLUDE_SLOW === '1'). */
  includeSlow?: boolean;
  /** The cookie and header names the proxy reads (--auth-cookie, --csrf-cookie, --csrf-header); default seed 004's. */
  names?: Partial<ProxyNames>;
};

/** What a proxy's browser sends it by: seed 004's names by default, a team's own when it says so. */
export type ProxyNames = { authCookie: string; csrfCookie: string; csrfHeader: string };
export const defaultProxyNames: ProxyNames = { authCookie: authCookieName, csrfCookie: csrfCookieName, csrfHeader: 'x-csrf-token' };

export const defaultBackendPort = 8000;
/** The reference proxy as a child process, the way a team's proxy is started. */
export const referenceProxyCommand = `node ${shellQuote(join(packageRoot, 'bin', 'adk-conformance.js'))} proxy`;
const pauseMs = 1000;
const abortBoundMs = 2000;

export function proxyApplies(s: Scenario, includeSlow: boolean): boolean {
  return s.upstream.kind === 'run' && (s.request.endpoint === undefined || s.request.endpoint === '/run_sse')
    && s.session.create !== false && s.family !== 'index-reuse' && (includeSlow || !(s.tags ?? []).some((t) => t === 'slow' || t === 'timing'));
}

type Prepared = { target: RunTarget; body: Record<string, unknown>; script: UpstreamScript };

export function createProxyRunner(target: ProxyTarget, options: ProxyRunnerOptions = {}): PartRunner {
  const isUrl = 'url' in target;
  if (isUrl ? typeof target.url !== 'string' || target.url === '' : typeof target.command !== 'string' || target.command.trim() === '') {
    throw new TypeError('createProxyRunner: give {url: "http://127.0.0.1:3000"} or {command: "node my-proxy.js"}');
  }
  const includeSlow = options.includeSlow ?? process.env.ADK_CONFORMANCE_INCLUDE_SLOW === '1';
  const names: ProxyNames = { ...defaultProxyNames, ...options.names };
  let creds: Credentials | undefined;
  let backend: ProxyBackend | undefined;
  let proxy: GatewayInstance | undefined;
  let startError: string | undefined;
  let startup: StartupRecord | undefined;
  let mockUrl = '';
  let sessions = 0;
  const byId = new Map<string, Scenario>();

  // Unique on a shared mock: another runner (or run) may have used the same base ids there.
  const nonce = randomBytes(4).toString('hex');
  const session = (base: string) => `${base}-prx-${nonce}-${++sessions}`;

  async function prepare(mock: MockClient, scenario: Scenario, faults: Array<Record<string, unknown>> = []): Promise<Prepared> {
    const t: RunTarget = { appName: scenario.id, userId: scenario.session.userId, sessionId: session(scenario.session.sessionId) };
    await mock.createSession(t.appName, t.userId, t.sessionId, (scenario.session.state ?? {}) as Record<string, unknown>);
    await mock.arm(t.sessionId, scenario.id, scenario.dialect, faults);
    const body = runBody(scenario, t);
    return { target: t, body, script: upstreamScript(scenario, t, body.streaming === true, faults) };
  }

  /** A browser's request headers: the token only in the cookie, and the double-submit CSRF pair. */
  function browserHeaders(c: Credentials, o: { token?: string | undefined; csrfHeader?: string | undefined; csrfCookie?: string | undefined } = {}): Record<string, string> {
    const token = 'token' in o ? o.token : c.valid;
    const csrfHeader = 'csrfHeader' in o ? o.csrfHeader : c.csrf;
    const csrfCookie = 'csrfCookie' in o ? o.csrfCookie : c.csrf;
    const cookies = [...(token !== undefined ? [`${names.authCookie}=${token}`] : []), ...(csrfCookie !== undefined ? [`${names.csrfCookie}=${csrfCookie}`] : [])];
    return {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(csrfHeader !== undefined ? { [names.csrfHeader.toLowerCase()]: csrfHeader } : {}),
      ...(cookies.length > 0 ? { cookie: cookies.join('; ') } : {}),
    };
  }

  function send(run: Prepared, env: RunEnv, headers: Record<string, string>, extra: { query?: string; signal?: AbortSignal; onFirstBytes?: () => void; bodyText?: string } = {}): Promise<Exchange> {
    const holdOpen = run.script.end === 'hold-open';
    return exchange(`${proxy?.url ?? ''}/api/sse/run_sse${extra.query ?? ''}`, {
      body: extra.bodyText ?? JSON.stringify(run.body),
      headers,
      deadlineMs: Math.max(500, Math.min(scriptedMs(run.script) + (holdOpen ? 3000 : 5000), env.scenarioTimeoutMs - 1000)),
      totalMs: Math.max(500, env.scenarioTimeoutMs - 1000),
      ...(proxy ? { root: processOf(proxy) } : {}),
      signal: extra.signal ?? env.signal,
      ...(holdOpen ? { stopAfterBytes: run.script.bytes.length, graceMs: 150 } : {}),
      ...(extra.onFirstBytes ? { onFirstBytes: extra.onFirstBytes } : {}),
    });
  }

  /** Run `work` with the proxy up, or report `requirements` untested with why it is not. */
  async function withProxy(requirements: readonly string[], label: string, work: (c: Credentials, b: ProxyBackend, mock: MockClient) => Promise<ScenarioCheck>): Promise<ScenarioCheck> {
    if (startError !== undefined || !creds || !backend || !proxy) return allUntested(requirements, label, startError ?? 'the proxy was not started');
    const gone = proxy.gone();
    if (gone !== undefined) return allUntested(requirements, label, gone);
    const result = await work(creds, backend, createMockClient(mockUrl));
    const after = proxy.gone();
    return after !== undefined ? allUntested(requirements, label, `${after} during this run`) : result;
  }

  const scenario = (id: string): Scenario => {
    const s = byId.get(id);
    if (!s) throw new Error(`the proxy runner needs corpus scenario ${id}, which is not loaded`);
    return s;
  };

  const probes: Probe[] = [
    {
      id: 'proxy-auth', requirements: ['PRX-AUTH-001'], shared: true,
      run: (env) => withProxy(['PRX-AUTH-001'], 'probe:proxy-auth', async (c, b, mock) => {
        const run = await prepare(mock, scenario('plain_text'));
        const client = await send(run, env, browserHeaders(c, { token: undefined }));
        return { outcomes: [checkNoCookie('probe:proxy-auth', client, b.forSession(run.target.sessionId))], timeline: timelineOf('POST /api/sse/run_sse with the CSRF pair and no access_token cookie', client) };
      }),
    },
    {
      id: 'proxy-url', requirements: ['PRX-URL-001'], shared: true,
      run: (env) => withProxy(['PRX-URL-001'], 'probe:proxy-url', async (c, b, mock) => {
        const cases = [];
        for (const name of ['access_token', 'token']) {
          const run = await prepare(mock, scenario('plain_text'));
          const client = await send(run, env, browserHeaders(c, { token: undefined }), { query: `?${name}=${c.valid}` });
          cases.push({ label: `POST /api/sse/run_sse with a valid token only in its URL (?${name}=)`, client, records: b.forSession(run.target.sessionId) });
        }
        return { outcomes: [checkUrlTokens('probe:proxy-url', cases, c.valid)], timeline: cases.flatMap((x) => timelineOf(x.label, x.client)) };
      }),
    },
    {
      id: 'proxy-stream', requirements: ['PRX-PASS-002'], timed: true,
      run: (env) => withProxy(['PRX-PASS-002'], 'probe:proxy-stream', async (c, _b, mock) => {
        const run = await prepare(mock, scenario('plain_text_streaming'), [{ name: 'silence', afterFrame: 1, ms: pauseMs }]);
        const before = run.script.waits.find((w) => w.ms >= pauseMs)?.offset ?? 0;
        const client = await send(run, env, browserHeaders(c));
        return { outcomes: [checkUnbuffered('probe:proxy-stream', client, before, pauseMs)], timeline: timelineOf(`a stream the backend pauses ${pauseMs} ms after byte ${before}`, client) };
      }),
    },
    {
      id: 'proxy-abort', requirements: ['PRX-ABORT-001'], timed: true,
      run: (env) => withProxy(['PRX-ABORT-001'], 'probe:proxy-abort', async (c, b, mock) => {
        const run = await prepare(mock, scenario('plain_text'), [{ name: 'hold-open' }]);
        // The client leaves once it has bytes, or once the backend has sent the whole held-open
        // stream (a proxy that buffers sends the client nothing, yet must still pass the close on).
        const leave = new AbortController();
        let left: { at: number } | { error: string } = { error: 'neither the client nor the backend saw the stream start within 5 s' };
        const go = () => { if (!leave.signal.aborted) { left = { at: b.now() }; leave.abort(); } };
        const sent = send(run, env, browserHeaders(c), { signal: leave.signal, onFirstBytes: go });
        for (let waited = 0; !leave.signal.aborted && waited < 5000; waited += 25) {
          await pause(25);
          const r = b.forSession(run.target.sessionId)[0];
          if (r && r.responseBody.length >= run.script.bytes.length) { await pause(200); go(); }
        }
        const client = await sent;
        let record = b.forSession(run.target.sessionId)[0];
        // A refused run (not a stream) ends by itself: nothing to wait for (checkAbort leaves it untested).
        for (let waited = 0; 'at' in left && (client.status === undefined || client.status === 200) && waited < abortBoundMs + 1000 && record?.abandonedAt === undefined; waited += 50) {
          await pause(50);
          record = b.forSession(run.target.sessionId)[0];
        }
        return { outcomes: [checkAbort('probe:proxy-abort', left, record, abortBoundMs, client)], timeline: timelineOf('a held-open stream the client leaves after its first bytes', client) };
      }),
    },
    {
      id: 'proxy-csrf', requirements: ['PRX-CSRF-001'], shared: true,
      run: (env) => withProxy(['PRX-CSRF-001'], 'probe:proxy-csrf', async (c, _b, mock) => {
        const variants = [
          { label: 'a request with a valid double-submit pair', headers: browserHeaders(c), expectStream: true },
          { label: 'a request without X-CSRF-Token', headers: browserHeaders(c, { csrfHeader: undefined }), expectStream: false },
          { label: 'a request whose X-CSRF-Token does not match its csrf_token cookie', headers: browserHeaders(c, { csrfHeader: `${c.csrf.slice(0, -4)}0000` === c.csrf ? `${c.csrf.slice(0, -4)}1111` : `${c.csrf.slice(0, -4)}0000` }), expectStream: false },
        ];
        const cases = [];
        for (const v of variants) {
          const run = await prepare(mock, scenario('plain_text'));
          const client = await send(run, env, v.headers);
          const journal = await mock.journal(run.target.sessionId);
          cases.push({ label: v.label, client, expectStream: v.expectStream, reachedAdk: Array.isArray(journal) ? upstreamRuns(journal).length > 0 : journal });
        }
        return { outcomes: [checkCsrf('probe:proxy-csrf', cases)], timeline: cases.flatMap((x) => timelineOf(x.label, x.client)) };
      }),
    },
    {
      id: 'proxy-errors', requirements: ['PRX-PASS-001'], shared: true,
      run: (env) => withProxy(['PRX-PASS-001'], 'probe:proxy-errors', async (c, b, mock) => {
        const cases: ErrorAnswerCase[] = [];
        const mismatched = `${c.csrf.slice(0, -4)}${c.csrf.endsWith('0000') ? '1111' : '0000'}`;
        const fromGateway: Array<[string, Record<string, string>]> = [
          ['a cookie whose token the backend refuses (401)', browserHeaders(c, { token: c.wrongKey })],
          ['an X-CSRF-Token that does not match its cookie (403)', browserHeaders(c, { csrfHeader: mismatched })],
        ];
        for (const [label, headers] of fromGateway) {
          const run = await prepare(mock, scenario('plain_text'));
          const client = await send(run, env, headers);
          cases.push({ label, client, records: b.forSession(run.target.sessionId) });
        }
        for (const e of scriptedErrors) {
          const run = await prepare(mock, scenario('plain_text'));
          b.answerFor(run.target.sessionId, e.answer);
          const client = await send(run, env, browserHeaders(c));
          cases.push({ label: e.label, client, records: b.forSession(run.target.sessionId) });
        }
        return { outcomes: [checkErrorAnswers('probe:proxy-errors', cases)], timeline: cases.flatMap((x) => timelineOf(x.label, x.client)) };
      }),
    },
    {
      id: 'proxy-body', requirements: ['PRX-BODY-001'], shared: true,
      run: (env) => withProxy(['PRX-BODY-001'], 'probe:proxy-body', async (c, b, mock) => {
        const cases: BodyCase[] = [];
        for (const [label, body] of forwardedBodies) {
          const run = await prepare(mock, scenario('plain_text'));
          const sent = body({ ...run.body });
          const client = await send(run, env, browserHeaders(c), { bodyText: sent });
          cases.push({ label, sent, client, records: b.forSession(run.target.sessionId) });
        }
        return { outcomes: [checkForwardedBody('probe:proxy-body', cases)], timeline: cases.flatMap((x) => timelineOf(x.label, x.client)) };
      }),
    },
    {
      id: 'proxy-host', requirements: ['PRX-HOST-001'], shared: true,
      run: (env) => withProxy(['PRX-HOST-001'], 'probe:proxy-host', async (c, b, mock) => {
        // Any client can write this Host header; it says nothing about where the request came from.
        const host = `localhost:${proxy?.port ?? 80}`;
        const variants: Array<{ label: string; headers: Record<string, string>; lacks: HostClaimCase['lacks'] }> = [
          { label: 'a request with no access_token cookie', headers: { ...browserHeaders(c, { token: undefined }), host }, lacks: 'cookie' },
          { label: 'a request with a valid cookie and no X-CSRF-Token', headers: { ...browserHeaders(c, { csrfHeader: undefined }), host }, lacks: 'csrf' },
        ];
        const attempt = async (headers: Record<string, string>): Promise<HostAttempt> => {
          const run = await prepare(mock, scenario('plain_text'));
          const client = await send(run, env, headers);
          const journal = await mock.journal(run.target.sessionId);
          return { client, records: b.forSession(run.target.sessionId), reachedAdk: Array.isArray(journal) ? upstreamRuns(journal).length > 0 : journal };
        };
        const cases: HostClaimCase[] = [];
        for (const v of variants) {
          const { host: _claim, ...plainHeaders } = v.headers;
          cases.push({ label: v.label, lacks: v.lacks, plain: await attempt(plainHeaders), claimed: await attempt(v.headers) });
        }
        return { outcomes: [checkHostClaim('probe:proxy-host', cases)], timeline: cases.flatMap((x) => [...timelineOf(`${x.label} (own Host)`, x.plain.client), ...timelineOf(x.label, x.claimed.client)]) };
      }),
    },
  ];

  return {
    part: 'proxy',
    description: isUrl ? `cookie-to-bearer proxy at ${target.url}` : `cookie-to-bearer proxy command \`${target.command}\``,
    applies: (s) => proxyApplies(s, includeSlow),
    runScenario: (s, env) => withProxy(['PRX-PASS-001', 'PRX-AUTH-001', 'PRX-URL-001'], s.id, async (c, b, mock) => {
      const run = await prepare(mock, s);
      const client = await send(run, env, browserHeaders(c));
      return { outcomes: checkProxiedRun(s.id, client, b.forSession(run.target.sessionId), c.valid), timeline: timelineOf(`POST /api/sse/run_sse (session ${run.target.sessionId})`, client) };
    }),
    probes,
    async start(env) {
      mockUrl = env.mockUrl;
      if (byId.size === 0) for (const s of loadScenarios().scenarios) byId.set(s.id, s);
      creds = await createCredentials();
      try {
        backend = await startProxyBackend({ mockUrl: env.mockUrl, jwtSecret: creds.secret, port: isUrl ? options.backendPort ?? defaultBackendPort : 0, names });
      } catch (error) {
        startError = (error as Error).message;
        return;
      }
      if (isUrl) {
        proxy = { url: target.url.replace(/\/+$/, ''), port: Number(new URL(target.url).port), rss: () => ({ error: 'a proxy given by URL is not the harness\'s to measure' }), gone: () => undefined, stop: async () => {} };
        return;
      }
      const launch = options.launcher ?? spawnLauncher(target.command);
      const readyMs = options.readyMs ?? 15_000;
      const t0 = performance.now();
      const backendUrl = backend.url;
      const launchOn = async (port: number) => launch({ PORT: String(port), BACKEND_URL: backendUrl, AUTH_COOKIE_NAME: names.authCookie, CSRF_COOKIE_NAME: names.csrfCookie, CSRF_HEADER_NAME: names.csrfHeader }, { readyMs, label: 'proxy' });
      // A free port another process took before the proxy listened is the harness's race: once more on another port (as for a gateway).
      const first = await launchOn(await freePort());
      const launched = !first.ok && first.portTaken ? await launchOn(await freePort()) : first;
      startup = { part: 'proxy', instance: 'proxy', boundMs: readyMs, ...(launched.ok ? { readyMs: Math.round(performance.now() - t0), outcome: 'ready' as const } : { outcome: launched.reason.startsWith('timed out') ? 'timed-out' as const : 'failed' as const }) };
      if (launched.ok) proxy = launched.instance;
      else startError = launched.reason;
    },
    startups: () => (startup ? [startup] : []),
    async stop() {
      await proxy?.stop();
      await backend?.close();
    },
  };
}

