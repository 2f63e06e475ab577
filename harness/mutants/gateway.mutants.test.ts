/**
 * Proves the gateway checks can fail: the harness, run exactly as certify.ts runs it (the engine,
 * the real mock, the real scenarios, the gateway runner), reports for each gateway mutant exactly
 * the requirements the mutant names as failed, and for the reference gateway none failed and none
 * untested.
 *
 * Speed (wall time is budgeted at about 90 s on two cores): the reference is certified once on the
 * whole corpus through its real command; the mutants run in process (inProcessLauncher: the same
 * break on the same reference gateway with the same contract environment, without four process
 * starts each) on a smoke set of scenarios plus every probe but memory, four at a time, each lane
 * on its own mock so the mock's stream counters are not shared; the memory mutant runs through its
 * real command, since only a process of its own has a memory to measure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../scenarios/loader.ts';
import type { Scenario } from '../../schemas/types.ts';
import { startMock, type RunningMock } from '../../mock-adk/server/start.ts';
import { runConformance } from '../engine.ts';
import type { RunResult } from '../model.ts';
import { requirements } from '../requirements/index.ts';
import { createGatewayRunner, referenceGatewayCommand, type GatewayRunnerOptions } from '../targets/gateway/runner.ts';
import { gatewayMutants, gatewayVariants } from './gateway/index.ts';
import { inProcessLauncher } from './gateway/in-process.ts';
import { defaultSilenceMs } from '../targets/gateway/probes-timing.ts';

const seed = 20261122;
console.log(`gateway mutants: seed ${seed}`);

const { scenarios } = loadScenarios();
const gatewayIds = [...requirements.values()].filter((r) => r.part === 'gateway').map((r) => r.id);
/** One scenario per kind of upstream ending, the enhanced endpoint and a framing variant. */
const smoke = ['plain_text', 'plain_text_streaming', 'audit_data_sources', 'missing_done_hold_open', 'stream_cut_while_partial', 'session_not_found', 'framing_crlf'];
/** Mutants whose requirement only a slower scenario exercises. */
const extraScenarios: Record<string, string[]> = { 'gateway-read-timeout': ['framing_agent_tool_silence'], 'gateway-glues-stream-error': ['stream_cut_mid_line'] };
/** The memory mutants: only a process of their own has a memory to measure. */
const commandOnly = new Set(['gateway-leaks-16k-per-run', 'gateway-leaks-1k-per-run']);
/** The timing probes in the smoke runs: alt's GATEWAY_TIMEOUT_MS and main's silence short, so each run stays quick. */
const smokeTiming = { timingTimeoutMs: 2500, silenceMs: 1750 };
/** Mutants judged at the certification's silence (a 5 s read timeout needs a longer one). */
const fullTiming: Record<string, { timingTimeoutMs: number; silenceMs: number }> = { 'gateway-read-timeout-5s': { ...smokeTiming, silenceMs: defaultSilenceMs } };

/** Certifications at once: each mostly waits (on timeouts and scripted pauses), so four share two cores. */
const laneCount = 4;
const lanes: RunningMock[] = [];
const free: RunningMock[] = [];
const waiting: Array<(mock: RunningMock) => void> = [];

async function inLane<T>(work: (mock: RunningMock) => Promise<T>): Promise<T> {
  const mock = free.pop() ?? await new Promise<RunningMock>((resolve) => waiting.push(resolve));
  try {
    return await work(mock);
  } finally {
    const next = waiting.shift();
    if (next) next(mock); else free.push(mock);
  }
}

beforeAll(async () => {
  for (let i = 0; i < laneCount; i++) lanes.push(await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }));
  free.push(...lanes);
});

afterAll(async () => {
  await Promise.all(lanes.map((m) => m.close()));
});

function certify(mock: RunningMock, command: string, options: GatewayRunnerOptions, selection: { scenarios: Scenario[]; grep: string[] }, scenarioTimeoutMs = 20_000): Promise<RunResult> {
  return runConformance({
    // The reference gateway and every mutant of it serve the cookie proxy and /run_sse_enhanced too.
    runners: [createGatewayRunner({ command }, { cookieProxy: true, enhancedEndpoint: true, ...options })],
    scenarios: selection.scenarios,
    requirements: [...requirements.values()],
    mutantKills: {},
    mockUrl: mock.url,
    gate: { level: 'may', untestedFails: true },
    seed,
    scenarioTimeoutMs,
    grep: selection.grep,
    replayBase: `npx adk-conformance run --gateway-cmd '${command}'`,
    targetDescription: command,
    version: 'test',
  });
}

const statusOf = (result: RunResult, status: string) => result.requirements.filter((r) => r.part === 'gateway' && r.status === status).map((r) => r.id).sort();
const explain = (result: RunResult) => result.requirements
  .filter((r) => r.part === 'gateway' && (r.status === 'failed' || r.status === 'untested'))
  .map((r) => `${r.id} ${r.status}: ${r.reason ?? r.findings.slice(0, 2).map((f) => `${f.scenario} ${f.code} ${f.path} ${f.message} (replay: ${f.replay})`).join(' | ')}`)
  .join('\n');

/** The smoke set plus the mutant's extra scenarios (all of them for the in-process reference). */
const smokeSelection = (id: string) => ({
  scenarios: scenarios.filter((s) => smoke.includes(s.id) || (id === 'none' ? Object.values(extraScenarios).flat() : extraScenarios[id] ?? []).includes(s.id)),
  grep: gatewayIds.filter((r) => r !== 'GW-MEM-002'),
});

describe('gateway mutants', () => {
  it('every gateway requirement is killed by at least one mutant', () => {
    const killed = new Set(gatewayMutants.flatMap((m) => m.kills));
    expect(gatewayIds.filter((id) => !killed.has(id))).toEqual([]);
    expect(smoke.filter((id) => !scenarios.some((s) => s.id === id))).toEqual([]);
  });

  it.concurrent('the reference gateway command passes every gateway requirement on the whole corpus', async () => {
    const result = await inLane((mock) => certify(mock, referenceGatewayCommand, { reference: true }, { scenarios, grep: [] }, 60_000));
    expect(explain(result)).toBe('');
    expect(statusOf(result, 'passed')).toEqual([...gatewayIds].sort());
  }, 120_000);

  it.concurrent('the reference gateway in process passes the smoke run the mutants get', async () => {
    const result = await inLane((mock) => certify(mock, referenceGatewayCommand, { reference: true, launch: inProcessLauncher('none'), ...smokeTiming }, smokeSelection('none')));
    expect(explain(result)).toBe('');
    expect(statusOf(result, 'passed')).toEqual(gatewayIds.filter((id) => id !== 'GW-MEM-002').sort());
  }, 120_000);

  it.concurrent.each(gatewayVariants.map((v) => [v.name, v] as const))('the %s variant passes the smoke run too (another design the seed allows)', async (name, v) => {
    const result = await inLane((mock) => certify(mock, v.command, { reference: false, launch: inProcessLauncher(name), ...smokeTiming }, smokeSelection('none')));
    expect(explain(result)).toBe('');
    expect(statusOf(result, 'passed')).toEqual(gatewayIds.filter((id) => id !== 'GW-MEM-002').sort());
  }, 120_000);

  it.concurrent.each(gatewayMutants.filter((m) => !commandOnly.has(m.id)).map((m) => [m.id, m] as const))('the harness fails exactly the kills of %s', async (id, m) => {
    const command = (m.target.gateway as { command: string }).command;
    const result = await inLane((mock) => certify(mock, command, { reference: false, launch: inProcessLauncher(id.replace(/^gateway-/, '')), ...(fullTiming[id] ?? smokeTiming) }, smokeSelection(id)));
    expect(statusOf(result, 'failed'), explain(result)).toEqual([...m.kills].sort());
  }, 120_000);

  it.concurrent.each([...commandOnly].map((id) => [id] as const))('the harness fails exactly GW-MEM-002 for the leaking gateway command %s', async (id) => {
    const m = gatewayMutants.find((x) => x.id === id);
    if (!m) throw new Error(`${id} is not registered`);
    const command = (m.target.gateway as { command: string }).command;
    // The memory probe is the only job: its tens of thousands of runs get the bound a full run gives them.
    const result = await inLane((mock) => certify(mock, command, { reference: false, prestart: ['main', 'memory'] }, { scenarios: [], grep: ['GW-MEM-002'] }, 120_000));
    expect(statusOf(result, 'failed'), explain(result)).toEqual(m.kills);
    expect(result.requirements.find((r) => r.id === 'GW-MEM-002')?.findings[0]?.code).toBe('retained-per-run');
  }, 180_000);
});
