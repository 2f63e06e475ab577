/**
 * The fidelity run: every scenario whose adk-js rendering the real runtime can express is run on
 * the REAL adk-js server (one in-process AdkApiServer, a fresh session per run) and on the mock
 * (adk-js dialect), non-streaming and streaming, and what a client sees of both is compared after
 * normalising only volatile values (compare.ts). Platform-free apart from the two servers it starts;
 * the CLI prints its report.
 */
import type { Scenario } from '../schemas/types.ts';
import { startMock } from '../mock-adk/server/start.ts';
import { compareObservations, normaliseObservation, withoutKnownLimitations, type Difference } from './compare.ts';
import type { AdkModules } from './load.ts';
import { exchange, observeRun, sessionPath, type Observation } from './observe.ts';
import type { RealScript } from './plays.ts';
import { expressScenario } from './script.ts';
import { startRealAdk } from './server.ts';

export const MODES = [
  { name: 'non-streaming', streaming: false },
  { name: 'streaming', streaming: true },
] as const;

export type ModeName = (typeof MODES)[number]['name'];

/** `differences`: the first ones (at most 20), in the order a client meets them; the CLI prints the first. */
export type ModeResult = { mode: ModeName; identical: boolean; differences?: Difference[]; error?: string };

/** A mode the script cannot be played in on the real runtime (the scenario's other mode was compared). */
export type ModeNotExpressible = { mode: ModeName; notExpressible: string };

export type ScenarioResult =
  | { id: string; outcome: 'identical'; modes: ModeResult[]; notIn?: ModeNotExpressible[] }
  | { id: string; outcome: 'different'; modes: ModeResult[]; notIn?: ModeNotExpressible[] }
  | { id: string; outcome: 'not-expressible'; reason: string };

export type FidelityReport = {
  results: ScenarioResult[];
  summary: { identical: number; different: number; notExpressible: number; total: number };
};

export type FidelityOptions = {
  scenarios: readonly Scenario[];
  modules: AdkModules;
  /** Which modes to run (default both). */
  modes?: readonly ModeName[];
  /** Multiplies scripted waits on both servers; timing is not compared, so the default plays none. */
  timeScale?: number;
  /** Compare the user's own event in GET session too (a documented mock limitation left out by default). */
  strict?: boolean;
  /** Called as each scenario finishes (progress output). */
  onResult?: (result: ScenarioResult) => void;
};

let runs = 0;

const PROGRESSIVE_SSE = 'ADK_ENABLE_PROGRESSIVE_SSE_STREAMING';

async function createSession(baseUrl: string, script: RealScript, userId: string, sessionId: string): Promise<void> {
  const answer = await exchange(baseUrl, 'POST', sessionPath(script.appName, userId, sessionId), { state: script.sessionState });
  if (answer.status !== 200) throw new Error(`POST ${sessionPath(script.appName, userId, sessionId)} on ${baseUrl} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
}

export async function runFidelity(options: FidelityOptions): Promise<FidelityReport> {
  const timeScale = options.timeScale ?? 0;
  const modes = MODES.filter((m) => (options.modes ?? MODES.map((x) => x.name)).includes(m.name));
  const scripts = new Map<string, RealScript>();
  const results: ScenarioResult[] = [];
  const expressed = options.scenarios.map((scenario) => ({ scenario, expressed: expressScenario(scenario) }));
  for (const { scenario, expressed: e } of expressed) if (e.ok) scripts.set(scenario.id, e.script);

  // ADK logs every model request at INFO on stdout; the report is this run's output. Restored after.
  const adkLogger = options.modules.adk.getLogger();
  options.modules.adk.setLogger(null);
  // The adk-js dialect replays 2.0.0's default streaming (progressive SSE off, research §7); a
  // developer's environment must not switch the real side to the experimental aggregator.
  const progressive = process.env[PROGRESSIVE_SSE];
  delete process.env[PROGRESSIVE_SSE];
  let real: Awaited<ReturnType<typeof startRealAdk>> | undefined;
  let mock: Awaited<ReturnType<typeof startMock>> | undefined;
  try {
    if (scripts.size > 0) {
      real = await startRealAdk(options.modules, scripts);
      mock = await startMock({ host: '127.0.0.1', port: 0, scenarios: options.scenarios.slice(), dialect: 'adk-js', timeScale });
    }
    for (const { scenario, expressed: e } of expressed) {
      let result: ScenarioResult;
      if (!e.ok) {
        result = { id: scenario.id, outcome: 'not-expressible', reason: e.reason };
      } else {
        const modeResults: ModeResult[] = [];
        const notIn: ModeNotExpressible[] = [];
        for (const mode of modes) {
          const gap = mode.streaming ? e.notIn?.streaming : undefined;
          if (gap !== undefined) notIn.push({ mode: mode.name, notExpressible: gap });
          else modeResults.push(await runMode(scenario, e.script, mode, real!, mock!.url, timeScale, options.strict === true));
        }
        const outcome = modeResults.every((m) => m.identical) ? 'identical' : 'different';
        if (modeResults.length === 0) result = { id: scenario.id, outcome: 'not-expressible', reason: notIn.map((n) => `${n.mode}: ${n.notExpressible}`).join('; ') };
        else result = { id: scenario.id, outcome, modes: modeResults, ...(notIn.length > 0 ? { notIn } : {}) };
      }
      results.push(result);
      options.onResult?.(result);
    }
  } finally {
    await Promise.all([real?.close(), mock?.close()]);
    options.modules.adk.setLogger(adkLogger);
    if (progressive !== undefined) process.env[PROGRESSIVE_SSE] = progressive;
  }
  const count = (o: ScenarioResult['outcome']): number => results.filter((r) => r.outcome === o).length;
  return { results, summary: { identical: count('identical'), different: count('different'), notExpressible: count('not-expressible'), total: results.length } };
}

async function runMode(scenario: Scenario, script: RealScript, mode: (typeof MODES)[number], real: Awaited<ReturnType<typeof startRealAdk>>, mockUrl: string, timeScale: number, strict: boolean): Promise<ModeResult> {
  // The same fresh session id on both servers, so the session itself needs no normalising; a
  // missing session keeps the scenario's own id, which its scripted 404 names.
  const sessionId = script.createSession ? `${scenario.session.sessionId}-fidelity-${process.pid}-${++runs}` : scenario.session.sessionId;
  const userId = scenario.session.userId;
  try {
    if (script.createSession) {
      await createSession(real.url, script, userId, sessionId);
      await createSession(mockUrl, script, userId, sessionId);
    }
    const armed = await exchange(mockUrl, 'POST', '/_mock/arm', { sessionId, scenario: scenario.id, dialect: 'adk-js' });
    if (armed.status !== 200) throw new Error(`the mock did not arm ${scenario.id}: ${armed.status} ${armed.body.slice(0, 200)}`);
    real.arm(script, sessionId, timeScale);
    const request = { appName: script.appName, userId, sessionId, message: script.message, emptyParts: script.emptyParts, streaming: mode.streaming, ...(script.stateDelta ? { stateDelta: script.stateDelta } : {}) };
    const realSide: Observation = await observeRun(real.url, request);
    const mockSide: Observation = await observeRun(mockUrl, request);
    const prepare = (o: Observation) => normaliseObservation(strict ? o : withoutKnownLimitations(o), { usagePinned: script.usagePinned });
    const found = compareObservations(prepare(mockSide), prepare(realSide));
    return found.length > 0 ? { mode: mode.name, identical: false, differences: found } : { mode: mode.name, identical: true };
  } catch (error) {
    return { mode: mode.name, identical: false, error: (error as Error).message };
  }
}
