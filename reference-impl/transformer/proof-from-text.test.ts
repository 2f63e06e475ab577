import { describe, expect, it } from 'vitest';
import { cedarTexts } from '../../test/transformer-fixtures.ts';
import { citationsOf, parseTextProof } from './proof-from-text.ts';

describe('confidence from text (seed 001 Option A)', () => {
  it.each([
    ['burn_analyst', 0.92],
    ['trail_assessor', 0.9],
    ['cruising_assistant', 0.91],
    ['nepa_advisor', 0.95],
  ] as const)('%s result states confidence %s', (name, expected) => {
    expect(parseTextProof(cedarTexts[name], { final: false }).confidence).toBe(expected);
  });

  it('the last labelled line wins in a specialist result: nepa_advisor High (90%) then High (95%) gives 0.95', () => {
    const proof = parseTextProof(cedarTexts.nepa_advisor, { final: false });
    expect(proof.stated).toEqual([0.9, 0.95]);
    expect(proof.confidence).toBe(0.95);
  });

  it('the Overall Confidence of the synthesis wins over its section scores', () => {
    const proof = parseTextProof(cedarTexts.final, { final: true });
    expect(proof.confidence).toBe(0.9);
    expect(proof.stated).toContain(0.92);
  });

  it('a synthesis with several section scores and no overall one states no confidence, and says why', () => {
    const proof = parseTextProof('A (Confidence: 92%)\n\nB (Confidence: 80%)', { final: true });
    expect(proof.confidence).toBeUndefined();
    expect(proof.whyNone).toMatch(/2 section scores and no overall/);
  });

  it.each([
    ['**Confidence:** 92%', 0.92],
    ['**Confidence**: 92%', 0.92],
    ['**Confidence:** High (90%) - Direct CFR citations', 0.9],
    ['Severity is high (Confidence: 92%).', 0.92],
    ['**Overall Confidence:** 90%', 0.9],
    ['**Confidence:** 0.85', 0.85],
    ['**Confidence:** 87.5%', 0.875],
  ])('%j gives %s', (text, expected) => {
    expect(parseTextProof(text, { final: false }).confidence).toBe(expected);
  });

  it('a text without a score gives no confidence (never the invented 90 of seed 001)', () => {
    const proof = parseTextProof('### Summary\nAll trails are open.', { final: false });
    expect(proof.confidence).toBeUndefined();
    expect(proof.whyNone).toBe('the text states no confidence');
  });

  it('a confidence stated only in words gives no number, and the reason quotes the words', () => {
    const proof = parseTextProof('**Confidence:** High', { final: false });
    expect(proof.confidence).toBeUndefined();
    expect(proof.whyNone).toContain("'High'");
  });

  it('a percentage above 100 is not a confidence', () => {
    expect(parseTextProof('**Confidence:** 140%', { final: false }).confidence).toBeUndefined();
  });
});

describe('citations from text', () => {
  it('a comma before a qualifier keeps one source: MTBS with the snippet Imagery date: 2022-09-15', () => {
    expect(citationsOf(cedarTexts.burn_analyst)).toEqual([{ source: 'MTBS', source_type: 'text-source', snippet: 'Imagery date: 2022-09-15' }]);
  });

  it('a comma between sources gives one citation each (cruising_assistant: 3)', () => {
    expect(citationsOf(cedarTexts.cruising_assistant).map((c) => c.source)).toEqual(['Cedar Creek timber plot data', 'PNW salvage deterioration models', 'Regional market analysis 2025']);
  });

  it('Regulatory Basis lines become regulatory citations, a semicolon separating them', () => {
    const citations = citationsOf(cedarTexts.nepa_advisor);
    expect(citations.map((c) => c.source)).toEqual(['36 CFR 220.6(e)(13)', '36 CFR 220.7', 'FSM 1950']);
    expect(citations.every((c) => c.source_type === 'regulatory-basis')).toBe(true);
  });

  it('the same source cited twice is listed once', () => {
    expect(citationsOf('**Source:** MTBS\n\n**Sources:** MTBS; Sentinel-2')).toEqual([
      { source: 'MTBS', source_type: 'text-source' },
      { source: 'Sentinel-2', source_type: 'text-source' },
    ]);
  });

  it('a text without source lines has no citations', () => {
    expect(citationsOf(cedarTexts.final)).toEqual([]);
  });
});
