/**
 * Law: the mock's adk-js dialect is the real adk-js 2.0.0 runtime for every generated run. Each
 * generated adk-js run script is played on the REAL AdkApiServer through real-adk/ (scripted
 * Gemini, real tools, agents and sessions) and on the mock, in the run's streaming mode, and what
 * a client sees of both (status, headers, framing, every event's keys, key order and values, the
 * session read back after the run) is identical once the volatile values are normalised
 * (docs/fidelity.md). The run script is what is compared: `/run_sse_enhanced` audit metadata and
 * framing faults are the mock's own layers over those events (an intermediary's, not a server's),
 * checked by the other laws, so the run is played on `/run_sse` without them.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { asScenario, generatedRunArb, type GenScenario } from '../../harness/arbitraries/index.ts';
import { runFidelity } from '../../real-adk/fidelity.ts';
import { loadRealAdk, type AdkModules } from '../../real-adk/load.ts';
import { checkLaw, describeParams, lawParams, lawTimeout } from './law-runner.ts';

const file = 'test/laws/real-adk-generated.test.ts';
const params = lawParams(15);
const timeout = lawTimeout(params, 400);

/** The run script alone: no enhanced endpoint, no framing faults. */
function runScriptOf(s: GenScenario): GenScenario {
  const { faults: _faults, ...rest } = s;
  const { endpoint: _endpoint, ...request } = s.request;
  return { ...rest, request };
}

let modules: AdkModules;
beforeAll(async () => { modules = await loadRealAdk(); }, 60_000);

describe(`generated adk-js runs render on the mock exactly as on the real adk-js 2.0.0 runtime (${describeParams(params)})`, () => {
  it('the real server and the mock answer every generated adk-js run identically', async () => {
    await checkLaw(file, 'the real server and the mock answer every generated adk-js run identically', fc.asyncProperty(generatedRunArb({ dialects: ['adk-js'] }), async (generated) => {
      const s = runScriptOf(generated);
      const mode = s.request.streaming ? 'streaming' : 'non-streaming';
      const report = await runFidelity({ scenarios: [asScenario(s)], modules, modes: [mode] });
      const result = report.results[0]!;
      // Every generated shape is one the real runtime can play (the generator leaves out the others).
      expect(result.outcome === 'not-expressible' ? result.reason : result.notIn ?? []).toEqual([]);
      if (result.outcome === 'not-expressible') return;
      expect(result.modes.map((m) => ({ mode: m.mode, error: m.error, differences: m.differences?.slice(0, 5) }))).toEqual([{ mode, error: undefined, differences: undefined }]);
      expect(result.outcome).toBe('identical');
    }), params);
  }, timeout);
});
