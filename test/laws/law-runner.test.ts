/**
 * The law runner itself: seeds and counts come from the environment or the pinned defaults, a bad
 * value is refused with the fix, and a failing law reports its shrunk counterexample (the smallest
 * run that still fails), the seed and a replay line that reproduces exactly that case.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatedRunArb, type GenScenario } from '../../harness/arbitraries/index.ts';
import { checkLaw, lawParams, pinnedSeed, replayCommand } from './law-runner.ts';

const file = 'test/laws/law-runner.test.ts';

/** A deliberately false law: no generated run delegates to a specialist. */
const noDelegation = fc.property(generatedRunArb(), (s: GenScenario) => {
  const delegates = s.upstream.steps.some((step) => 'model' in step && (step.model.calls ?? []).some((c) => Object.keys(c.args).join() === 'request'));
  if (delegates) throw new Error(`run ${s.id} delegates`);
});

async function failure(params: { seed: number; numRuns: number; path?: string }): Promise<string> {
  try {
    await checkLaw(file, 'no generated run delegates', noDelegation, params);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the false law passed');
}

describe('the law runner', () => {
  it('uses the pinned seed and the CI count unless FC_SEED, FC_RUNS or FC_PATH say otherwise', () => {
    expect(lawParams(25, {})).toEqual({ seed: pinnedSeed, numRuns: 25 });
    expect(lawParams(25, { FC_SEED: '-7', FC_RUNS: '3', FC_PATH: '4:0:1' })).toEqual({ seed: -7, numRuns: 3, path: '4:0:1' });
  });

  it('refuses a seed or count that is not an integer, saying how to fix it', () => {
    expect(() => lawParams(25, { FC_SEED: 'abc' })).toThrow(/FC_SEED must be an integer.*got 'abc'.*unset it/);
    expect(() => lawParams(25, { FC_RUNS: '0' })).toThrow(/FC_RUNS must be an integer >= 1, got '0'/);
  });

  it('a replay line names the seed, the path, one run, the file and the escaped law name', () => {
    expect(replayCommand('test/laws/x.test.ts', "a (b) law's name", 42, '3:1')).toBe(`FC_SEED=42 FC_PATH=3:1 FC_RUNS=1 npx vitest run test/laws/x.test.ts -t 'a \\(b\\) law'\\''s name'`);
  });

  it('a failing law shrinks to the smallest run and prints the seed and a replay line that reproduces it', async () => {
    const message = await failure({ seed: pinnedSeed, numRuns: 200 });
    const replay = /FC_SEED=(-?\d+) FC_PATH=(\S+) FC_RUNS=1 npx vitest run test\/laws\/law-runner\.test\.ts -t 'no generated run delegates'/.exec(message);
    expect(replay).not.toBeNull();
    expect(message).toContain(`seed ${pinnedSeed}`);
    const shrunk = JSON.parse(/Counterexample: \[(.*)\]\n/.exec(message)?.[1] ?? 'null') as GenScenario;
    // The smallest delegating run: one round of one call and its result, then the plainest answer.
    expect(shrunk.upstream.steps.map((s) => Object.keys(s)[0])).toEqual(['model', 'tools', 'model']);
    expect(shrunk.faults).toBeUndefined();
    expect(shrunk.request.endpoint).toBeUndefined();
    // FC_PATH replays exactly that case.
    expect(await failure({ seed: Number(replay?.[1]), numRuns: 1, path: replay?.[2] ?? '' })).toContain(JSON.stringify(shrunk));
  });
});
