/**
 * The tap in front of the REAL adk-js 2.0.0 API server (@google/adk's devtools AdkApiServer, the
 * fidelity rig of real-adk/: scripted Gemini, real agents, tools and sessions): the scenarios it
 * can play, plain and streaming, pass through a tap with role adk with no finding, detected as
 * adk-js, and the client gets exactly the bytes the real server wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRealAdk } from '../real-adk/load.ts';
import { sessionPath } from '../real-adk/observe.ts';
import { expressScenario } from '../real-adk/script.ts';
import type { RealScript } from '../real-adk/plays.ts';
import { startRealAdk, type RealAdkServer } from '../real-adk/server.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { rawRequest } from './gateway-fixtures.ts';
import { clientHeaders, findingsOf, startTestTap, type TestTap } from '../tap/test-support.ts';

const ids = ['plain_text', 'single_tool_call_streaming', 'transfer_to_specialist', 'model_error_event_safety', 'cedar_creek_briefing_adk_js', 'state_only_first'];
const { scenarios } = loadScenarios();
const scripts = new Map<string, RealScript>();
for (const id of ids) {
  const scenario = scenarios.find((s) => s.id === id);
  if (!scenario) throw new Error(`corpus scenario ${id} is missing`);
  const e = expressScenario({ ...scenario, faults: [] });
  if (!e.ok) throw new Error(`${id} is not expressible on the real runtime: ${e.reason}`);
  scripts.set(id, e.script);
}

let real: RealAdkServer;
let tap: TestTap;
beforeAll(async () => {
  const modules = await loadRealAdk();
  modules.adk.setLogger(null);
  real = await startRealAdk(modules, scripts);
  tap = await startTestTap(real.url, 'adk');
}, 60_000);
afterAll(async () => {
  await tap?.close();
  await real?.close();
});

describe('the tap in front of the real adk-js server', () => {
  it('judges every run it plays conformant, as adk-js, with the real server\'s bytes passed on unchanged', async () => {
    let n = 0;
    for (const id of ids) {
      const scenario = scenarios.find((s) => s.id === id)!;
      const script = scripts.get(id)!;
      for (const streaming of [false, true]) {
        const sessionId = `tap-real-${++n}`;
        const made = await rawRequest(`${tap.url}${sessionPath(script.appName, scenario.session.userId, sessionId)}`, { body: JSON.stringify({ state: script.sessionState ?? {} }) });
        expect(made.status).toBe(200);
        real.arm(script, sessionId, 0);
        const body = JSON.stringify({ appName: script.appName, userId: scenario.session.userId, sessionId, newMessage: { role: 'user', parts: [{ text: script.message }] }, streaming });
        const through = await rawRequest(`${tap.url}/run_sse`, { body, headers: clientHeaders });
        expect(through.status).toBe(200);
        expect(through.body.length).toBeGreaterThan(0);
      }
    }
    await tap.waitEnded(ids.length * 4);
    const runs = tap.ended.filter((e) => e.run.kind === 'run');
    expect(runs).toHaveLength(ids.length * 2);
    expect(runs.map((e) => [e.run.dialect, findingsOf(e.summary)])).toEqual(runs.map(() => ['adk-js', []]));
    expect(tap.collector.result()?.verdict).toBe('fully compliant');
  }, 60_000);
});
