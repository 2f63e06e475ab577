/**
 * Certifies a /run_sse gateway (seed 004, GW-* requirements): every streaming scenario of the
 * corpus through the gateway, byte for byte against what the mock wrote, plus probes for what no
 * scenario exercises (auth, CSRF, the flag, validation, timeouts, disconnects, memory...).
 *
 * Command mode starts the team's command once per configuration it needs (docs/harness-gateway.md
 * lists the environment: the gateway contract); URL mode talks to a gateway the team started
 * against the mock, and reports what needs another configuration as unreachable.
 */
import { join } from 'node:path';
import { packageRoot } from '../../../core/package-root.ts';
import { randomBytes } from 'node:crypto';
import type { Scenario } from '../../../schemas/types.ts';
import { loadScenarios } from '../../../scenarios/loader.ts';
import type { PartRunner, Probe, RunEnv, StartEnv } from '../types.ts';
import type { StartupRecord } from '../../model.ts';
import { contractEnv, createCredentials, endpointOf, type ContractSettings, type Credentials, type InstanceKind } from './contract.ts';
import { discoverCsrf } from './csrf.ts';
import { freePort, refusedPort, spawnLauncher, type GatewayLauncher, type LaunchResult } from './instances.ts';
import type { GatewayKit } from './kit.ts';
import { createMemoryLoad, memoryBoundMs, startFixedUpstream, type FixedUpstream, type MemoryLoadOptions } from './memory.ts';
import { createScenarioScheduler, streamRequirementIds } from './scenarios.ts';
import { authProbe, csrfHostProbe, csrfProbe, flagProbe, requestValidationProbe } from './probes-access.ts';
import { abortProbe, errorsProbe, flushingProbe, forwardingProbe } from './probes-stream.ts';
import { legacyProbe, proxyProbe } from './probes-more.ts';
import { createTimingLoad, defaultSilenceMs, timingLoadBoundMs } from './probes-timing.ts';

const bin = join(packageRoot, 'bin', 'adk-conformance.js');
const quote = (s: string) => (/^[\w./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The shell command that starts the reference gateway (it reads the contract environment). */
export const referenceGatewayCommand = `node ${quote(bin)} gateway`;

export type GatewayRunnerOptions = {
  reference: boolean;
  /** URL mode: the HS256 secret the team's gateway verifies with. Command mode: generated when absent. */
  jwtSecret?: string;
  /** Start instances this way instead of spawning `target.command` (tests run mutants in process). */
  launch?: GatewayLauncher;
  /** GATEWAY_TIMEOUT_MS of `alt`, the instance of the TIMEOUT frame's probes. Default 4000. */
  timingTimeoutMs?: number;
  /** GW-TIMEOUT-002's silence on `main` (probes-timing.ts). Default 6500: httpx's default 5 s read timeout fails it. */
  silenceMs?: number;
  /** GATEWAY_TIMEOUT_MS of every other instance. Default 300000 (seed 004's own). */
  mainTimeoutMs?: number;
  /** How long an instance may take to accept a TCP connection (--startup-timeout). Default 20000. */
  readyMs?: number;
  /** GW-MEM-002: the memory probe's settings (harness/targets/gateway/memory.ts; the defaults certify). */
  memory?: MemoryLoadOptions;
  /** Instances started with the run (default all five: `main` first, the others once it listens); any other starts when a probe needs it. */
  prestart?: InstanceKind[];
  /** Scenario runs in flight at once (default 4). */
  scenarioConcurrency?: number;
} & GatewayShape;

/**
 * What the gateway under test is, where the seeds leave it open (docs/configuration.md "gateway").
 * Asked, not assumed: each has a default the seeds justify, and what a gateway does not declare is
 * not applicable to it, with the reason.
 */
export type GatewayShape = {
  /**
   * The one app a fixed-app gateway serves (seed 004: `appName` "e.g., vana"): every run, legacy
   * route and mock session names it. Default: none, each run names its scenario's id.
   */
  appName?: string;
  /** It serves the cookie-to-bearer proxy route POST /api/sse/run_sse (GW-PROXY-002). Default false: seed 004 puts the proxy in the frontend. */
  cookieProxy?: boolean;
  /** It serves POST /run_sse_enhanced (GW-ENH-001). Default false: seed 000 puts that endpoint in the ADK service's main.py. */
  enhancedEndpoint?: boolean;
  /**
   * It serves the legacy routes POST/GET /apps/{app}/users/{user}/sessions/{session}/run
   * (GW-LEGACY-001/002). Default true (seed 004: "Legacy endpoints remain available"); false when
   * they stay in the existing app and the gateway serves only the canonical route.
   */
  legacyRoutes?: boolean;
};

const legacyElsewhere = 'the gateway declares that the legacy routes (POST and GET /apps/{app}/users/{user}/sessions/{session}/run) are served by another app (--gateway-serves legacy-elsewhere, config gateway.legacyRoutes: false): seed 004 keeps them where they are ("Backward compatible: Legacy endpoints remain available") and puts the canonical stream beside them, so a gateway that serves only /run_sse is not judged on them';

/** Why a requirement of a part the gateway does not declare is not applicable (runner `notApplicable`). */
export const undeclaredReasons = {
  'GW-PROXY-002': 'the gateway does not declare the cookie-to-bearer proxy: seed 004 puts it in the frontend (`frontend/src/app/api/sse/run_sse/route.ts`, a Next.js API route), so a gateway is not expected to serve POST /api/sse/run_sse. If yours does, declare it: --gateway-serves cookie-proxy (config gateway.cookieProxy: true); a proxy of its own is certified with --proxy-cmd',
  'GW-ENH-001': 'the gateway does not declare /run_sse_enhanced: seed 000 (§2.2B) puts that endpoint in the ADK service\'s main.py, not in the gateway. If yours serves it, declare it: --gateway-serves run-sse-enhanced (config gateway.enhancedEndpoint: true)',
  'GW-LEGACY-001': legacyElsewhere,
  'GW-LEGACY-002': legacyElsewhere,
} as const;

/** The instances a probe runs on besides `main` (probes-*.ts, memory.ts: their withInstance calls). */
const instancesOfProbe: Readonly<Record<string, readonly InstanceKind[]>> = {
  flag: ['flag-off'], auth: ['alt'], timeout: ['alt', 'main'], 'csrf-host': ['local-dev'], errors: ['refused'], memory: ['memory'],
};

export const gatewayDefaults = { timingTimeoutMs: 4000, silenceMs: defaultSilenceMs, mainTimeoutMs: 300_000, readyMs: 20_000, scenarioConcurrency: 4 } as const;

/**
 * The streaming scenarios a gateway passes through. Those tagged `slow` (framing_idle_silence's
 * 65 s silence) are left out of a full run; see `slowSelected` for when one runs.
 */
export function gatewayApplies(scenario: Scenario): boolean {
  const endpoint = endpointOf(scenario);
  if (endpoint !== '/run_sse' && endpoint !== '/run_sse_enhanced') return false;
  if (scenario.upstream.kind === 'anthropic-turn') return false;
  return !scenario.tags.includes('slow');
}

const selectors = (s: Scenario) => new Set([s.id, s.family, ...s.tags].map((w) => w.toLowerCase()));

/**
 * Whether a slow scenario was selected on purpose: the run's scenario-level --grep names its id,
 * its family or one of its tags. A full run (no --grep) leaves it out.
 */
export function slowSelected(scenario: Scenario, grep: readonly string[]): boolean {
  const mine = selectors(scenario);
  return grep.some((g) => mine.has(g.toLowerCase()));
}

export const urlModeUnreachable: Record<string, string> = {
  'GW-FLAG-001': 'needs a second gateway started without ENABLE_ADK_CANONICAL_STREAM; certify with --gateway-cmd so the harness starts it',
  'GW-TIMEOUT-001': 'needs a gateway started with a short GATEWAY_TIMEOUT_MS; certify with --gateway-cmd',
  'GW-TIMEOUT-003': 'needs a gateway started with a known, short GATEWAY_TIMEOUT_MS; certify with --gateway-cmd',
  'GW-ABORT-002': 'needs a gateway started with a short GATEWAY_TIMEOUT_MS; certify with --gateway-cmd',
  'GW-CSRF-002': 'needs a gateway started with CSRF_SKIP_LOCALHOST=false (the harness connects from 127.0.0.1); certify with --gateway-cmd',
  'GW-HOST-001': 'needs a second gateway started with CSRF_SKIP_LOCALHOST=true; certify with --gateway-cmd so the harness starts it',
  'GW-MEM-002': 'needs the gateway\'s process to read its memory; certify with --gateway-cmd',
};

const keyUnreachable = 'the harness does not know the key the gateway verifies tokens with; pass --jwt-secret (or certify with --gateway-cmd)';

export function createGatewayRunner(target: { url: string } | { command: string }, opts: GatewayRunnerOptions): PartRunner {
  const commandMode = 'command' in target;
  const timingTimeoutMs = opts.timingTimeoutMs ?? gatewayDefaults.timingTimeoutMs;
  const readyMs = opts.readyMs ?? gatewayDefaults.readyMs;
  const hasKey = commandMode || opts.jwtSecret !== undefined;
  // The reference gateway serves every face; a team's declares what it serves beyond /run_sse.
  const cookieProxy = opts.cookieProxy ?? opts.reference;
  const enhancedEndpoint = opts.enhancedEndpoint ?? opts.reference;
  const legacyRoutes = opts.reference || (opts.legacyRoutes ?? true);
  const notApplicable: Record<string, string> = {
    ...(cookieProxy ? {} : { 'GW-PROXY-002': undeclaredReasons['GW-PROXY-002'] }),
    ...(enhancedEndpoint ? {} : { 'GW-ENH-001': undeclaredReasons['GW-ENH-001'] }),
    ...(legacyRoutes ? {} : { 'GW-LEGACY-001': undeclaredReasons['GW-LEGACY-001'], 'GW-LEGACY-002': undeclaredReasons['GW-LEGACY-002'] }),
  };
  const nonce = randomBytes(3).toString('hex');
  let counter = 0;
  let kit: GatewayKit | undefined;
  const launched = new Map<InstanceKind, Promise<LaunchResult>>();
  let corpus: Map<string, Scenario> | undefined;
  let fixedUpstream: FixedUpstream | undefined;
  const startups: StartupRecord[] = [];

  const kitRef = (): GatewayKit => {
    if (!kit) throw new Error('the gateway runner was not started: the engine calls start() before any scenario');
    return kit;
  };

  const memory = commandMode ? createMemoryLoad(kitRef, opts.memory ?? {}) : undefined;
  const silenceMs = opts.silenceMs ?? gatewayDefaults.silenceMs;
  const timing = commandMode ? createTimingLoad(kitRef, timingTimeoutMs, { ms: silenceMs, mainTotalMs: opts.mainTimeoutMs ?? gatewayDefaults.mainTimeoutMs }) : undefined;
  const scheduler = createScenarioScheduler(kitRef, opts.scenarioConcurrency ?? gatewayDefaults.scenarioConcurrency);
  // The memory runs and the timing probes' long runs start with the first scenario or probe and
  // overlap everything else (which mostly waits on scripted pauses).
  /** The probes the engine will run and the scenario-level --grep words, known from start(). */
  let selectedProbes: ReadonlySet<string> | undefined;
  /** The scenario bound, known from start(): the memory collector's bound adds the memory runs' own. */
  let scenarioTimeoutMs: number | undefined;
  let grepWords: readonly string[] = [];
  // A long background load is started only for a probe that will collect it.
  const kickLoads = (env: RunEnv) => {
    if (!selectedProbes || selectedProbes.has('timeout')) timing?.kick(env);
    if (!selectedProbes || selectedProbes.has('memory')) memory?.kick(env);
  };
  const withLoad = (p: Probe): Probe => (commandMode ? { ...p, run: (env) => { kickLoads(env); return p.run(env); } } : p);
  const probes: Probe[] = [
    forwardingProbe(kitRef), flushingProbe(kitRef), requestValidationProbe(kitRef), errorsProbe(kitRef, commandMode),
    abortProbe(kitRef), ...(legacyRoutes ? [legacyProbe(kitRef)] : []),
    ...(hasKey ? [authProbe(kitRef, commandMode), ...(cookieProxy ? [proxyProbe(kitRef)] : [])] : []),
    ...(commandMode ? [flagProbe(kitRef), csrfProbe(kitRef), csrfHostProbe(kitRef)] : []),
  ].map(withLoad);
  // Last: they collect the long runs the others started.
  if (timing) probes.push(timing.probe);
  if (memory) probes.push(memory.probe);
  const unreachable: Record<string, string> = {
    ...(commandMode ? {} : urlModeUnreachable),
    ...(hasKey ? {} : { 'GW-AUTH-001': keyUnreachable, 'GW-AUTH-002': keyUnreachable, 'GW-AUTH-003': keyUnreachable, 'GW-AUTH-004': keyUnreachable, ...(cookieProxy ? { 'GW-PROXY-002': keyUnreachable } : {}) }),
  };

  async function start(env: StartEnv): Promise<void> {
    selectedProbes = env.probes ? new Set(env.probes) : undefined;
    scenarioTimeoutMs = env.scenarioTimeoutMs;
    grepWords = (env.grep ?? []).map((g) => g.toLowerCase());
    const launch = opts.launch ?? ('command' in target ? spawnLauncher(target.command) : undefined);
    const mainTimeoutMs = opts.mainTimeoutMs ?? gatewayDefaults.mainTimeoutMs;
    const jwtSecret = opts.jwtSecret ?? randomBytes(32).toString('base64url');
    // `main` is spawned before anything else is made: its environment needs only the mock's URL and
    // the HS256 secret, and GW-TIMEOUT-002's silence, the run's longest wait, starts once it listens.
    // The RSA key, the memory instance's upstream and the refused port (each awaited on an event loop
    // every part shares) took 0.45 s before its spawn (a trace of `start`, 2026-12-02).
    const mainSettings: ContractSettings = { mockUrl: env.mockUrl, refusedUrl: '', jwtSecret, publicKeyPem: '', mainTimeoutMs, timingTimeoutMs, memoryUpstreamUrl: env.mockUrl, memoryNodeOptions: '' };
    const credsMade: Promise<Credentials> = createCredentials(jwtSecret);
    const memoryInspectorPort = freePort();
    const settingsMade = (async (): Promise<ContractSettings> => {
      if (launch) fixedUpstream = await startFixedUpstream(loadScenarios().scenarios.find((s) => s.id === 'plain_text') as Scenario);
      return {
        ...mainSettings,
        refusedUrl: `http://127.0.0.1:${await refusedPort()}`,
        publicKeyPem: (await credsMade).publicKeyPem,
        memoryUpstreamUrl: fixedUpstream?.url ?? env.mockUrl,
        memoryNodeOptions: `${process.env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:${await memoryInspectorPort}`.trim(),
      };
    })();
    // Once an instance listens, the harness asks it for a CSRF token (docs/harness-gateway.md "CSRF").
    const withCsrf = async (kind: InstanceKind, r: LaunchResult): Promise<LaunchResult> => {
      if (!r.ok) return r;
      const creds = await credsMade;
      const bearer = !hasKey ? undefined : kind === 'alt' ? creds.validRs : creds.valid;
      r.instance.csrf = await discoverCsrf(r.instance.url, bearer, creds.csrf);
      return r;
    };
    // Start-up is timed apart and reported: it is never behaviour, and only the readiness bound judges it.
    const timed = async (start: GatewayLauncher, kind: InstanceKind, port: number): Promise<LaunchResult> => {
      const settings = kind === 'main' ? mainSettings : await settingsMade;
      const t0 = performance.now();
      const r = await start(contractEnv(kind, port, settings), { readyMs, label: kind });
      const took = Math.round(performance.now() - t0);
      startups.push({ part: 'gateway', instance: kind, boundMs: readyMs, ...(r.ok ? { readyMs: took, outcome: 'ready' as const } : { outcome: r.reason.startsWith('timed out') ? 'timed-out' as const : 'failed' as const }) });
      return r;
    };
    const instance = (kind: InstanceKind): Promise<LaunchResult> => {
      let p = launched.get(kind);
      if (!p) {
        if (!launch) {
          p = withCsrf(kind, kind === 'main' && 'url' in target
            ? { ok: true as const, instance: { url: target.url, port: Number(new URL(target.url).port), rss: () => ({ error: 'the gateway was given by URL' }), gone: () => undefined, stop: async () => {} } }
            : { ok: false as const, reason: `the ${kind} instance needs --gateway-cmd` });
        } else {
          // A free port another process took before the gateway listened is the harness's race: once more on another port.
          const onFreePort = async (): Promise<LaunchResult> => {
            const r = await timed(launch, kind, await freePort());
            return !r.ok && r.portTaken ? timed(launch, kind, await freePort()) : r;
          };
          // The same command: when the main instance cannot start, the others are not tried.
          p = kind === 'main' ? onFreePort().then((r) => withCsrf(kind, r)) : instance('main').then(async (main) => (main.ok ? withCsrf(kind, await onFreePort()) : main));
        }
        launched.set(kind, p);
      }
      return p;
    };
    const mainStarted = instance('main');
    const settled = await Promise.allSettled([credsMade, settingsMade, memoryInspectorPort]);
    // Nothing else starts when these failed, and what did is stopped: the engine stops only a started part.
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await mainStarted.catch(() => undefined);
      await stop();
      throw failed.reason;
    }
    kit = {
      mockUrl: env.mockUrl,
      creds: await credsMade,
      hasKey,
      instance,
      scenario(id) {
        corpus ??= new Map(loadScenarios().scenarios.map((s) => [s.id, s]));
        const s = corpus.get(id);
        if (!s) throw new Error(`the gateway probes need corpus scenario '${id}', which did not load`);
        return s;
      },
      session: (base) => `${base}-${nonce}-${++counter}`,
      ...(launch ? { memoryInspectorPort: await memoryInspectorPort } : {}),
      ...(opts.appName !== undefined ? { appName: opts.appName } : {}),
    };
    // The instances besides `main` serve probes only: a run whose --grep names no probe that needs
    // one (a scenario's replay line) does not start it.
    const needed = (kind: InstanceKind) => kind === 'main' || !selectedProbes || [...selectedProbes].some((p) => instancesOfProbe[p]?.includes(kind));
    const kinds: InstanceKind[] = opts.prestart ?? (commandMode ? (['main', 'alt', 'memory', 'flag-off', 'refused', 'local-dev'] as const).filter(needed) : ['main']);
    // `main` starts alone (nothing competes with it for the CPU); the others start together once it
    // listens. The run waits for all of them: a slow start-up (a FastAPI gateway took 6 to 27 s on
    // a loaded machine) must not eat into the time bound of a scenario or a probe.
    const main = await mainStarted;
    // The long runs start now, each once its own instance listens, not with the first scenario
    // nor once every instance listens: the part's wall time is theirs (GW-MEM-002's 7,000 runs).
    if (main.ok && commandMode) kickLoads({ mockUrl: env.mockUrl, seed: env.seed, scenarioTimeoutMs: env.scenarioTimeoutMs, signal: new AbortController().signal });
    if (main.ok) await Promise.all(kinds.map((k) => instance(k)));
  }

  async function stop(): Promise<void> {
    scheduler.stop();
    memory?.stop();
    timing?.stop();
    const all = [...launched.values()];
    launched.clear();
    await Promise.all(all.map(async (p) => { const r = await p; if (r.ok) await r.instance.stop(); }));
    await fixedUpstream?.close();
    fixedUpstream = undefined;
  }

  /** Whether `applies` can say yes, known before start(): it plans nothing. */
  const couldApply = (scenario: Scenario): boolean => (enhancedEndpoint || endpointOf(scenario) !== '/run_sse_enhanced')
    && gatewayApplies({ ...scenario, tags: scenario.tags.filter((t) => t !== 'slow') });
  const description = commandMode ? `gateway command \`${(target as { command: string }).command}\`` : `gateway at ${(target as { url: string }).url}`;
  return {
    part: 'gateway',
    description: opts.reference ? `the reference gateway (${description})` : description,
    applies: (scenario) => {
      const yes = couldApply(scenario) && (gatewayApplies(scenario) || slowSelected(scenario, grepWords));
      if (yes) scheduler.plan(scenario);
      return yes;
    },
    // A slow scenario applies once start() knows the --grep names it.
    couldApply,
    scenarioRequirements: streamRequirementIds,
    runScenario: (scenario, env) => {
      if (commandMode) kickLoads(env);
      return scheduler.run(scenario, env);
    },
    probes,
    // Its own scheduler already runs up to four scenarios ahead of the engine (scenarios.ts).
    maxJobs: 1,
    // The collectors start with the part's first jobs: each is bound by the scenario bound plus its load's longest run.
    extraBoundMs: (jobId) => (jobId === 'probe:memory' ? memoryBoundMs(scenarioTimeoutMs ?? 0, opts.memory?.maxMs) : jobId === 'probe:timeout' ? timingLoadBoundMs(timingTimeoutMs, silenceMs) : 0),
    unreachable,
    notApplicable,
    start,
    startups: () => [...startups],
    stop,
  };
}
