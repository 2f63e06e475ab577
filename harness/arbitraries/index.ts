/**
 * Whole generated ADK runs as scenarios (schemas/scenario.schema.json, `upstream.kind: "run"`),
 * each with the `expect` of the independent model, so it can be checked like a scripted one.
 * docs/generated-runs.md describes the arbitraries and the laws that use them.
 */
import fc from 'fast-check';
import { buildScenario, withId } from './build-scenario.ts';
import { runShapeArb, type RunShapeOptions } from './run-shape.ts';
import type { GenScenario } from './types.ts';

export { asScenario, type GenScenario, type GenStep, type GenExpect, type BriefingOutline } from './types.ts';
export { buildScenario, withId } from './build-scenario.ts';
export { runShapeArb, type RunShape, type RunShapeOptions } from './run-shape.ts';
export { framingFaultNames, framingFaultsWithoutGenerator } from './framing.ts';

export function generatedRunArb(options: RunShapeOptions = {}): fc.Arbitrary<GenScenario> {
  return runShapeArb(options).map(buildScenario);
}

/**
 * `count` runs drawn with a fixed seed, renamed `<prefix>_<n>` so one mock can serve them all
 * (a scenario id is its app name). For load tests: the same seed gives the same batch.
 */
export function sampleRuns(count: number, seed: number, options: RunShapeOptions = {}, prefix = 'gen'): GenScenario[] {
  return fc.sample(generatedRunArb(options), { seed, numRuns: count }).map((s, i) => withId(s, `${prefix}_${i}`));
}
