/**
 * What the gateway runner's scenario runs and probes share: the instances, the credentials, the
 * mock, unique sessions, and "prepare a run, send it, collect the journal" as one step.
 */
import type { CheckOutcome, TimelineEntry } from '../../model.ts';
import type { RunEnv, ScenarioCheck } from '../types.ts';
import type { Scenario } from '../../../schemas/types.ts';
import type { Exchange, StreamRun, UpstreamScript } from '../../checks/gateway/types.ts';
import { clientHeaders, doubleSubmit, endpointOf, runBody, scriptedMs, upstreamScript, type Credentials, type InstanceKind, type RunTarget } from './contract.ts';
import { createMockClient, exchange, pause, type ExchangeOptions, type MockClient } from './http.ts';
import { processOf, type GatewayInstance, type LaunchResult } from './instances.ts';

export type GatewayKit = {
  mockUrl: string;
  creds: Credentials;
  /** Whether the harness knows the key the gateway verifies with (false: URL mode without --jwt-secret). */
  hasKey: boolean;
  instance: (kind: InstanceKind) => Promise<LaunchResult>;
  /** A corpus scenario by id (probes use a few well-known ones). */
  scenario: (id: string) => Scenario;
  /** A session id no other run of this mock uses. */
  session: (base: string) => string;
  /** The loopback port the `memory` instance's V8 inspector listens on, when it was started with one. */
  memoryInspectorPort?: number;
  /** The one app a fixed-app gateway serves (--app-name): every run names it instead of its scenario's id. */
  appName?: string;
};

/**
 * The app name a run of `scenario` uses: the scenario's id (the mock serves each scenario as an
 * app of that name), or the gateway's one app (seed 004: `appName` "e.g., vana"), which the mock
 * then serves every scenario under (it is armed by session id, not by app name).
 */
export function appNameOf(kit: Pick<GatewayKit, 'appName'>, scenario: Scenario): string {
  return kit.appName ?? scenario.id;
}

export type PreparedRun = { scenario: Scenario; target: RunTarget; body: Record<string, unknown>; script: UpstreamScript; endpoint: StreamRun['endpoint'] };

/** Create the session the scenario needs on the mock and arm it, so the mock renders it in its own dialect. */
export async function prepareRun(kit: GatewayKit, mock: MockClient, scenario: Scenario, faults: Array<Record<string, unknown>> = [], bodyExtra: Record<string, unknown> = {}): Promise<PreparedRun> {
  const target: RunTarget = { appName: appNameOf(kit, scenario), userId: scenario.session.userId, sessionId: kit.session(scenario.session.sessionId) };
  if (scenario.session.create !== false) await mock.createSession(target.appName, target.userId, target.sessionId, (scenario.session.state ?? {}) as Record<string, unknown>);
  await mock.arm(target.sessionId, scenario.id, scenario.dialect, faults);
  const body = { ...runBody(scenario, target), ...bodyExtra };
  const streaming = body.streaming === true;
  return { scenario, target, body, script: upstreamScript(scenario, target, streaming, faults), endpoint: endpointOf(scenario) as StreamRun['endpoint'] };
}

/** How long to wait for a run whose upstream scripts `script`, within the engine's bound. */
export function readBound(script: UpstreamScript, env: RunEnv, slackMs = 5000): number {
  return Math.max(500, Math.min(scriptedMs(script) + slackMs, env.scenarioTimeoutMs - 1000));
}

/**
 * Headers of a well-formed request to this instance: a bearer token (`auth.token`, by default the
 * HS256 one when the harness has the key; `{token: undefined}` for none) and the instance's valid CSRF token with its cookies.
 */
export function headersFor(kit: GatewayKit, instance: GatewayInstance, auth: { token: string | undefined } = { token: kit.hasKey ? kit.creds.valid : undefined }, extraCookies: string[] = []): Record<string, string> {
  return clientHeaders(auth.token, instance.csrf ?? doubleSubmit(kit.creds.csrf), extraCookies);
}

/** Send a prepared run to the gateway and read the answer the way a client would, bounded. */
export async function sendRun(kit: GatewayKit, instance: GatewayInstance, run: PreparedRun, env: RunEnv, options: { path?: string; headers?: Record<string, string>; slackMs?: number } & Partial<ExchangeOptions> = {}): Promise<Exchange> {
  const holdOpen = run.script.end === 'hold-open';
  const { path, headers, slackMs, ...rest } = options;
  return exchange(`${instance.url}${path ?? run.endpoint}`, {
    body: JSON.stringify(run.body),
    headers: headers ?? headersFor(kit, instance),
    deadlineMs: readBound(run.script, env, slackMs ?? (holdOpen ? 3000 : 5000)),
    root: processOf(instance),
    totalMs: Math.max(500, env.scenarioTimeoutMs - 1000),
    signal: env.signal,
    ...(holdOpen ? { stopAfterBytes: run.script.bytes.length, graceMs: 150 } : {}),
    ...rest,
  });
}

/**
 * A prepared run and what was observed of it, as the scenario checks read it; `sentHeaders` (the
 * client's headers, without the Host Node adds) and the mock's URL let the upstream-header checks run.
 */
export function streamRun(run: PreparedRun, exchangeResult: Exchange, journal: StreamRun['journal'], sent?: { headers: Record<string, string>; instance: GatewayInstance; mockUrl: string }): StreamRun {
  return {
    scenario: run.scenario.id, endpoint: run.endpoint, sent: run.body, upstream: run.script, exchange: exchangeResult, journal,
    ...(sent ? { clientHeaders: { ...sent.headers, host: new URL(sent.instance.url).host }, upstreamHost: new URL(sent.mockUrl).host } : {}),
  };
}

/** Every requirement untested for one reason (the gateway is not there to test). */
export function allUntested(requirements: readonly string[], scenario: string, reason: string): ScenarioCheck {
  return { outcomes: requirements.map((requirement): CheckOutcome => ({ requirement, scenario, status: 'untested', findings: [], reason })), timeline: [{ t: 0, kind: 'note', summary: reason }] };
}

/** Run `work` on an instance, or report its requirements untested when the instance is not there. */
export async function withInstance(kit: GatewayKit, kind: InstanceKind, requirements: readonly string[], probe: string, work: (instance: GatewayInstance, mock: MockClient) => Promise<ScenarioCheck>, env: RunEnv): Promise<ScenarioCheck> {
  const launched = await kit.instance(kind);
  if (!launched.ok) return allUntested(requirements, probe, launched.reason);
  const before = launched.instance.gone();
  if (before !== undefined) return allUntested(requirements, probe, before);
  const result = await work(launched.instance, createMockClient(kit.mockUrl));
  const broken = result.outcomes.some((o) => o.findings.some((f) => f.code === 'no-response'));
  const after = broken ? await goneSoon(launched.instance) : launched.instance.gone();
  if (after !== undefined) return allUntested(requirements, probe, `${after} during this probe`);
  return result;
}

/**
 * Why the instance is gone, waiting a moment for its exit to be reported: a request that a crash
 * broke fails before the process's exit reaches the harness, and a crash is not the check's to judge.
 */
export async function goneSoon(instance: GatewayInstance, ms = 300): Promise<string | undefined> {
  for (let waited = 0; waited < ms; waited += 20) {
    const gone = instance.gone();
    if (gone !== undefined) return gone;
    await pause(20);
  }
  return instance.gone();
}

/** A short timeline of one exchange for the report. */
export function timelineOf(label: string, x: Exchange): TimelineEntry[] {
  const entries: TimelineEntry[] = [{ t: 0, kind: 'request', summary: label }];
  if (x.status !== undefined) entries.push({ t: x.arrivals[0]?.t ?? 0, kind: 'status', summary: `HTTP ${x.status}` });
  for (const a of x.arrivals.slice(0, 20)) entries.push({ t: Math.round(a.t), kind: 'frame', summary: `bytes up to ${a.end}` });
  if (x.arrivals.length > 20) entries.push({ t: Math.round(x.arrivals.at(-1)?.t ?? 0), kind: 'note', summary: `${x.arrivals.length - 20} more writes` });
  entries.push({ t: x.durationMs, kind: 'end', summary: `${x.ending}${x.error ? ` (${x.error})` : ''} after ${x.body.length} bytes` });
  return entries;
}
