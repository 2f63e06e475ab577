/** `adk-conformance frames`: a scenario's data lines, one per line, as a transformer reads them. */
import { describe, expect, it } from 'vitest';
import { loadScenarios } from '../../scenarios/loader.ts';
import { run } from './frames.ts';

const capture = async (argv: string[]) => {
  let text = '';
  const code = await run(argv, { out: (t) => { text += t; } });
  return { code, lines: text.split('\n').filter(Boolean) };
};

describe('frames', () => {
  it('prints the scenario\'s frames in its own dialect, one JSON value per line, as many as the scenario expects', async () => {
    const scenario = loadScenarios().scenarios.find((s) => s.id === 'cedar_creek_briefing')!;
    const { code, lines } = await capture(['cedar_creek_briefing']);
    expect(code).toBe(0);
    expect(lines.length).toBe(scenario.expect.frames);
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    // Seed 001 is a Python capture: float-second timestamps.
    expect(JSON.parse(lines[0]!).timestamp).toEqual(expect.any(Number));
  });

  it('renders in another dialect the scenario renders in, and refuses one it does not', async () => {
    const go = await capture(['plain_text', '--dialect', 'adk-go@2.0.0']);
    expect(go.lines.length).toBeGreaterThan(0);
    expect(go.lines[0]).not.toContain('"timestamp"');
    await expect(run(['cedar_creek_briefing', '--dialect', 'adk-go@2.0.0'], { out: () => {} })).rejects.toThrow(/does not render in adk-go@2.0.0/);
  });

  it('names the nearest scenario for a typo, and refuses an answer with no stream', async () => {
    await expect(run(['plain_txt'], { out: () => {} })).rejects.toThrow(/did you mean 'plain_text'/);
    await expect(run(['session_not_found'], { out: () => {} })).rejects.toThrow(/HTTP 404 before any stream/);
  });
});

describe('frames of a generated run (issue 31 §4)', () => {
  it('generated_K --seed N renders offline the K-th run of the batch a certification with that seed draws', async () => {
    const { generatedBatch } = await import('../../harness/generated.ts');
    const a = await capture(['generated_4', '--seed', '7']);
    const b = await capture(['generated_4', '--seed', '7']);
    expect(a.code).toBe(0);
    expect(a.lines.length).toBeGreaterThan(0);
    expect(a.lines).toEqual(b.lines);
    // The K-th run of a 20-run batch (the run's default) is the one printed.
    const batch = generatedBatch(20, 7).scenarios[4]!;
    expect(batch.id).toBe('generated_4');
    // frames draws K+1 runs: the K-th is the same run as in the run's batch of 20.
    expect(generatedBatch(5, 7).scenarios[4]).toEqual(batch);
    expect((await capture(['generated_4', '--seed', '8'])).lines).not.toEqual(a.lines);
  });

  it('--seed on a scenario file is a usage error', async () => {
    await expect(run(['plain_text', '--seed', '7'], { out: () => {} })).rejects.toThrow(/--seed goes with a generated run \(generated_K\)/);
  });
});
