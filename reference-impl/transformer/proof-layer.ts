/**
 * The confidence tiers of seed 002 §2.1 and the degradation notice every degraded briefing carries.
 */
import type { Citation } from './types.ts';

export type Tier = 1 | 2 | 3 | 4;

/**
 * Seed 000 §2.2D `buildConfidenceLedger`: tier 1 at >= 0.9, tier 2 at >= 0.7, tier 3 below. Seed 002
 * §2.1 gives tier 4 to 0.00 exactly ("Unable to answer"), and its tier 3 starts at 0.10: a score in
 * (0, 0.10) is still a stated, non-failing score, so it stays tier 3.
 */
export function tierOf(confidence: number): Tier {
  if (confidence >= 0.9) return 1;
  if (confidence >= 0.7) return 2;
  if (confidence > 0) return 3;
  return 4;
}

const tierNames: Record<Tier, string> = { 1: 'Authoritative', 2: 'Derived', 3: 'Historical', 4: 'Failure' };

/** Seed 002 §2.1: a degradation_notice whenever the tier is 2, 3 or 4; and whenever no score exists. */
export function degradationNotice(confidence: number | undefined, whyNone: string): string | undefined {
  if (confidence === undefined) return `No confidence score: ${whyNone}. None is inferred (seed 000 §1.2).`;
  const tier = tierOf(confidence);
  if (tier === 1) return undefined;
  if (tier === 4) return `Tier 4 (${tierNames[4]}): confidence 0.00, the source was unable to answer.`;
  return `Tier ${tier} (${tierNames[tier]}): confidence ${confidence.toFixed(2)} is below the 0.90 authoritative threshold.`;
}

/** 92 -> 0.92 without binary noise (0.92, not 0.9200000000000001). */
export const fromPercent = (percent: number): number => Math.round(percent * 100) / 10_000;

/** Keep the first citation of each source (case-sensitive), in order. */
export function uniqueCitations(citations: Citation[]): Citation[] {
  const seen = new Set<string>();
  return citations.filter((c) => (seen.has(c.source) ? false : (seen.add(c.source), true)));
}
