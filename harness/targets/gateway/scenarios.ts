/**
 * Corpus scenarios through the gateway's streaming endpoint. Runs are independent (one session
 * each), and most of a run's time is the upstream's scripted waiting (a 1.5 s silence, a dribble),
 * so the scenarios the engine is about to ask for are run a few at a time ahead of its calls: the
 * engine still gets one result per call, each from its own run, checked the same way.
 */
import type { Scenario } from '../../../schemas/types.ts';
import { checkStreamRun } from '../../checks/gateway/index.ts';
import type { RunEnv, ScenarioCheck } from '../types.ts';
import { scriptedMs, upstreamScript } from './contract.ts';
import { createMockClient } from './http.ts';
import { allUntested, goneSoon, headersFor, prepareRun, sendRun, streamRun, timelineOf, type GatewayKit } from './kit.ts';

/**
 * What a scenario run can exercise (harness/checks/gateway/index.ts); the rest only probes do. A
 * run that could not happen leaves these untested, and only these: a gateway that never listens
 * is not "untested by 98 scenarios" on GW-MEM-002, which no scenario measures.
 */
export const streamRequirementIds = [
  'GW-HDR-001', 'GW-HDR-002', 'GW-HDR-003', 'GW-HDR-004', 'GW-PASS-001', 'GW-PASS-002', 'GW-PASS-004', 'GW-PASS-005', 'GW-ENH-001',
  'GW-FWD-003', 'GW-FWD-002', 'GW-TIMEOUT-002', 'GW-ERR-001', 'GW-ERR-002', 'GW-ERR-003', 'GW-ERR-004', 'GW-ERR-005', 'GW-ERR-006',
] as const;
const requirementIds: readonly string[] = streamRequirementIds;

/** One scenario through the `main` instance, checked. */
export async function runStreamScenario(kit: GatewayKit, scenario: Scenario, env: RunEnv): Promise<ScenarioCheck> {
  const main = await kit.instance('main');
  if (!main.ok) return allUntested(requirementIds, scenario.id, main.reason);
  const gone = main.instance.gone();
  if (gone !== undefined) return allUntested(requirementIds, scenario.id, gone);
  const mock = createMockClient(kit.mockUrl);
  // A slow scenario selected on purpose needs a scenario bound longer than its scripted waits.
  const waits = scriptedMs(upstreamScript(scenario, { appName: scenario.id, userId: scenario.session.userId, sessionId: scenario.session.sessionId }, scenario.request.streaming ?? false));
  if (waits > env.scenarioTimeoutMs - 2000) return allUntested(requirementIds, scenario.id, `scenario ${scenario.id} scripts ${Math.round(waits / 1000)} s of upstream waits, longer than the scenario bound allows; run it with --timeout-ms ${Math.ceil((waits + 7000) / 1000) * 1000}`);
  const run = await prepareRun(kit, mock, scenario);
  const headers = headersFor(kit, main.instance);
  const x = await sendRun(kit, main.instance, run, env, { headers });
  // A broken exchange may be a crash whose exit is still on its way.
  const after = x.ending === 'connect-failed' || x.ending === 'broken' ? await goneSoon(main.instance) : main.instance.gone();
  if (after !== undefined) return allUntested(requirementIds, scenario.id, `${after} while it served scenario ${scenario.id}`);
  const journal = await mock.journal(run.target.sessionId);
  return { outcomes: checkStreamRun(streamRun(run, x, journal, { headers, instance: main.instance, mockUrl: kit.mockUrl })), timeline: timelineOf(`POST ${run.endpoint} session ${run.target.sessionId}`, x) };
}

export type ScenarioScheduler = {
  /** The engine selected this scenario for the gateway (called from `applies`, in run order). */
  plan: (scenario: Scenario) => void;
  run: (scenario: Scenario, env: RunEnv) => Promise<ScenarioCheck>;
  /** Cancel runs still in flight (the runner stops). */
  stop: () => void;
};

export function createScenarioScheduler(kitRef: () => GatewayKit, concurrency: number): ScenarioScheduler {
  const planned: Scenario[] = [];
  const results = new Map<Scenario, Promise<ScenarioCheck>>();
  const cancel = new AbortController();
  let started = false;

  const runOne = (scenario: Scenario, env: RunEnv): Promise<ScenarioCheck> => {
    let p = results.get(scenario);
    if (!p) {
      p = runStreamScenario(kitRef(), scenario, env);
      results.set(scenario, p);
    }
    return p;
  };

  function prefetch(env: RunEnv): void {
    started = true;
    const queue = [...planned];
    // Runs ahead of the engine get the run's bounds, and a signal of their own (the engine's is per call).
    const ahead: RunEnv = { ...env, signal: cancel.signal };
    const lane = async () => {
      for (let s = queue.shift(); s && !cancel.signal.aborted; s = queue.shift()) {
        await runOne(s, ahead).catch(() => undefined);
      }
    };
    for (let i = 0; i < concurrency; i++) void lane();
  }

  return {
    plan(scenario) { if (!started && !planned.includes(scenario)) planned.push(scenario); },
    async run(scenario, env) {
      if (!started && planned.length > 1) prefetch(env);
      return runOne(scenario, env);
    },
    stop() { cancel.abort(); },
  };
}
