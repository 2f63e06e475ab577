import { describe, expect, it } from 'vitest';
import { validate } from '../schemas/registry.ts';
import { describeGenerated, generatedBatch, generatedIndex, generatedReplay, shrinkGenerated } from './generated.ts';

const seed = 20_260_601;

describe(`generated certification runs (fast-check seed ${seed})`, () => {
  it('a batch is the same for the same seed, ids generated_<k>, every run tagged generated and valid against the scenario schema', () => {
    const a = generatedBatch(12, seed);
    const b = generatedBatch(12, seed);
    expect(a.scenarios).toEqual(b.scenarios);
    expect(a.scenarios.map((s) => s.id)).toEqual(Array.from({ length: 12 }, (_, k) => `generated_${k}`));
    for (const s of a.scenarios) {
      expect(s.tags).toContain('generated');
      expect(validate('scenario', s).errors).toEqual([]);
    }
    expect(generatedBatch(12, seed + 1).scenarios).not.toEqual(a.scenarios);
  });

  it('the k-th run does not depend on the count, so a replay with more runs finds it again', () => {
    const small = generatedBatch(3, seed).scenarios;
    const large = generatedBatch(15, seed).scenarios.slice(0, 3);
    expect(large).toEqual(small);
  });

  it('certification runs leave out the shapes the kit reads two ways (enhanced runs, a name that both fails and answers)', () => {
    for (const s of generatedBatch(150, seed).scenarios) {
      expect(s.request.endpoint).toBeUndefined();
      const outcomes = new Map<string, Set<boolean>>();
      for (const step of s.upstream.kind === 'run' ? s.upstream.steps : []) {
        for (const r of (step as { tools?: { responses: Array<{ name: string; response: Record<string, unknown> }> } }).tools?.responses ?? []) {
          outcomes.set(r.name, (outcomes.get(r.name) ?? new Set()).add(typeof r.response.error === 'string'));
        }
      }
      expect([...outcomes.values()].every((seen) => seen.size === 1)).toBe(true);
    }
  });

  it('shrinking replays the k-th run and ends on the smallest run that still fails', async () => {
    const batch = generatedBatch(20, seed);
    const withTools = (s: { upstream: { kind: string; steps?: unknown[] } }) => (s.upstream.steps ?? []).some((step) => 'tools' in (step as object));
    const k = batch.scenarios.findIndex(withTools);
    expect(k).toBeGreaterThanOrEqual(0);
    const first: string[] = [];
    const result = await shrinkGenerated(batch, k, async (s) => {
      first.push(JSON.stringify(s.upstream));
      return withTools(s as never) ? 'has a tool round' : undefined;
    }, 10_000);
    expect(first[0]).toBe(JSON.stringify({ ...batch.scenarios[k]?.upstream }));
    expect(result.reproduced).toBe(true);
    if (!result.reproduced) return;
    expect(result.failure).toBe('has a tool round');
    expect(result.path.startsWith(`${k}:`) || result.path === String(k)).toBe(true);
    // The smallest run with a tool round: one call, its result, and nothing it can drop.
    const steps = result.counterexample.upstream.kind === 'run' ? result.counterexample.upstream.steps : [];
    expect(steps.filter((s) => 'tools' in s)).toHaveLength(1);
    expect(steps.length).toBeLessThanOrEqual(3);
    expect(describeGenerated(result.counterexample)).toMatch(/tools/);
  });

  it('a run that passes on replay is reported as not reproduced, with the runs tried', async () => {
    const result = await shrinkGenerated(generatedBatch(5, seed), 2, async () => undefined, 5000);
    expect(result).toEqual({ reproduced: false, runs: 1 });
  });

  it('the replay line names the count, the seed and the generated tag', () => {
    expect(generatedReplay('npx adk-conformance run --transformer-cmd x', 20, 7)).toBe('npx adk-conformance run --transformer-cmd x --generated 20 --seed 7 --grep generated');
    expect(generatedIndex('generated_14')).toBe(14);
    expect(generatedIndex('plain_text')).toBeUndefined();
  });

  it('bad arguments are refused with what to give', async () => {
    expect(() => generatedBatch(-1, seed)).toThrow(/count must be a non-negative integer/);
    await expect(shrinkGenerated(generatedBatch(2, seed), 5, async () => undefined, 100)).rejects.toThrow(/index 5 is not a run of a batch of 2/);
  });
});
