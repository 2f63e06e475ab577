/**
 * `--upstream`: what serves a certification's scenarios. `mock` (the default) renders them;
 * `real-adk-js` plays each one the real adk-js runtime can express on the REAL adk-js 2.0.0 API
 * server first and serves the bytes it wrote (real-adk/capture-scenarios.ts), so a pass on the
 * mock can be checked against a pass on the real server. The real runtime is an optional
 * dependency: without it this is a usage error naming the one command that installs it.
 */
import { UsageError } from '../core/errors.ts';
import type { Scenario } from '../schemas/types.ts';
import type { UpstreamReport } from './model.ts';

export const upstreamNames = ['mock', 'real-adk-js'] as const;
export type UpstreamName = (typeof upstreamNames)[number];

export type CapturedUpstream = { scenarios: Scenario[]; description: string; report: UpstreamReport };

export async function captureUpstream(scenarios: readonly Scenario[], log: (line: string) => void): Promise<CapturedUpstream> {
  // Loaded on demand: a run on the mock never pays for the real runtime, nor needs it installed.
  const { loadRealAdk, RealAdkMissingError } = await import('../real-adk/load.ts');
  const { captureOnRealAdk } = await import('../real-adk/capture-scenarios.ts');
  let modules;
  try {
    modules = await loadRealAdk();
  } catch (error) {
    if (error instanceof RealAdkMissingError) throw new UsageError(`--upstream real-adk-js needs ${error.message}`);
    throw error;
  }
  const started = performance.now();
  const captured = await captureOnRealAdk(modules, scenarios);
  const ms = Math.round(performance.now() - started);
  log(`upstream: the REAL adk-js runtime (${captured.runtime}, scripted model, in process on 127.0.0.1): ${captured.scenarios.length} of ${scenarios.length} scenarios played and captured in ${ms} ms; ${captured.leftOut.length} left out (the report lists why)`);
  if (captured.scenarios.length === 0) {
    throw new UsageError(`--upstream real-adk-js: none of the ${scenarios.length} selected scenarios can be played by the real adk-js runtime (${captured.leftOut.slice(0, 3).map((l) => `${l.id}: ${l.reason}`).join('; ')}); select run scenarios with an adk-js rendering, or run on the mock.`);
  }
  return {
    scenarios: captured.scenarios,
    description: `it serves the bytes the real adk-js runtime (${captured.runtime}) wrote for the ${captured.scenarios.length} scenarios it can play, and runs no probe (probes script upstream behaviour only the mock plays)`,
    report: { name: 'real-adk-js', runtime: captured.runtime, captured: captured.scenarios.map((s) => s.id), leftOut: captured.leftOut },
  };
}
