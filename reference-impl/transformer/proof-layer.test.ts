import { describe, expect, it } from 'vitest';
import { degradationNotice, fromPercent, tierOf } from './proof-layer.ts';

describe('confidence tiers (seed 002 §2.1, seed 000 §2.2D)', () => {
  it.each([
    [1, 1], [0.9, 1], [0.8999, 2], [0.7, 2], [0.6999, 3], [0.1, 3], [0.05, 3], [0, 4],
  ] as const)('confidence %s is tier %s', (confidence, tier) => {
    expect(tierOf(confidence)).toBe(tier);
  });

  it('tier 1 carries no degradation notice; tiers 2, 3 and 4 do', () => {
    expect(degradationNotice(0.92, '')).toBeUndefined();
    expect(degradationNotice(0.85, '')).toMatch(/^Tier 2 \(Derived\)/);
    expect(degradationNotice(0.5, '')).toMatch(/^Tier 3 \(Historical\)/);
    expect(degradationNotice(0, '')).toMatch(/^Tier 4 \(Failure\)/);
  });

  it('no confidence at all carries a notice that says why', () => {
    expect(degradationNotice(undefined, 'the text states no confidence')).toBe('No confidence score: the text states no confidence. None is inferred (seed 000 §1.2).');
  });

  it('percentages convert without binary noise', () => {
    expect([92, 91, 95, 87.5, 7].map(fromPercent)).toEqual([0.92, 0.91, 0.95, 0.875, 0.07]);
  });
});
