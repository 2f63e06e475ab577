import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { statedScores, textSources, tierOf } from './proof-sources.ts';

const seed = 424242;

describe('statedScores reads what a text states about its confidence, and nothing else', () => {
  it('finds the score of every labelled form seed 001 shows (generated, fast-check seed 424242)', () => {
    console.log(`fast-check seed ${seed}`);
    const forms = [(p: number) => `**Confidence:** ${p}%`, (p: number) => `**Overall Confidence:** ${p}%`, (p: number) => `... (Confidence: ${p}%)`, (p: number) => `**Confidence:** High (${p}%) - Direct CFR citations`];
    fc.assert(fc.property(fc.integer({ min: 0, max: 100 }), fc.constantFrom(...forms), fc.array(fc.constantFrom('### 1. Summary', '...', 'The fire is 100% contained.', '**Source:** MTBS'), { maxLength: 4 }), (p, form, noise) => {
      const scores = statedScores([...noise, form(p), ...noise].join('\n'));
      return scores.includes(Math.round(p * 100) / 10_000);
    }), { seed, numRuns: 200 });
  });

  it('keeps every score of a line with several: "(Confidence: 95% for timber, 90% for trails)"', () => {
    expect(statedScores('**NEPA Pathway:** ... (Confidence: 95% for timber, 90% for trails)')).toEqual([0.95, 0.9]);
  });

  it('ignores percentages that are not about confidence, and scores stated in words only', () => {
    expect(statedScores('The fire is 100% contained; 42% of its area burned at high severity.\n**Confidence:** High')).toEqual([]);
  });

  it('reads a fraction after the label', () => {
    expect(statedScores('**Confidence:** 0.92')).toEqual([0.92]);
  });
});

describe('textSources', () => {
  it('splits **Source:** and **Regulatory Basis:** values at commas and semicolons, dropping Markdown trailers', () => {
    expect(textSources('**Source:** MTBS, Imagery date: 2022-09-15\n**Regulatory Basis:** 36 CFR 220.7; FSM 1950.\n')).toEqual([
      { line: 'MTBS, Imagery date: 2022-09-15', pieces: ['MTBS', 'Imagery date: 2022-09-15'] },
      { line: '36 CFR 220.7; FSM 1950', pieces: ['36 CFR 220.7', 'FSM 1950'] },
    ]);
  });
});

describe('tierOf', () => {
  it('follows seed 002 §2.1: 1 from 0.90, 2 from 0.70, 3 above 0, 4 at 0', () => {
    expect([0.95, 0.9, 0.89, 0.7, 0.69, 0.1, 0.05, 0].map(tierOf)).toEqual([1, 1, 2, 2, 3, 3, 3, 4]);
  });
});
