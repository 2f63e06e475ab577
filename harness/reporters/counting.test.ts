import { describe, expect, it } from 'vitest';
import { describeRuns, describeScenarioCount } from './counting.ts';
import type { RunResult } from '../model.ts';

const result = (names: string[], parts: string[], counts: RunResult['counts']['scenarios'], live?: RunResult['live']) =>
  ({ scenarios: names.map((scenario) => ({ scenario })), target: { parts }, counts: { scenarios: counts }, ...(live ? { live } : {}) }) as unknown as RunResult;

describe('counting', () => {
  it('a run is one scenario in one part, or one probe; a scenario is counted once', () => {
    const r = result(['a', 'b', 'a', 'probe:p'], ['gateway', 'transformer'], { total: 4, passed: 3, failed: 1, errored: 0 });
    expect(describeRuns(r)).toBe('4 runs: 3 passed, 1 failed, 0 errored (3 runs of 2 scenarios in 2 parts, and 1 probe run)');
  });

  it('a tap counts live runs, not scenarios', () => {
    const r = result([], ['adk-stream'], { total: 2, passed: 2, failed: 0, errored: 0 }, { taps: 1, runs: 2, failedRuns: 0 });
    expect(describeRuns(r)).toBe('2 runs: 2 passed, 0 failed, 0 errored (live requests judged by 1 tap; a tap has no scenarios)');
  });

  it('the header splits corpus and generated scenarios', () => {
    expect(describeScenarioCount(123, 20)).toBe('123 scenarios (103 from the corpus, and 20 of them fast-check generated runs)');
    expect(describeScenarioCount(103, 0)).toBe('103 scenarios');
  });
});
