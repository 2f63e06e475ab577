/**
 * Every client requirement carries two citations: its source (checked with the others by
 * requirements.test.ts) and a second one in `clientCitations`, the seed sentence a WHATWG rule
 * refines or the WHATWG rule behind a seed sentence. Seed quotes appear verbatim under a heading
 * of the seed; WHATWG sections name a rule of scenarios/spec-refs.ts.
 */
import { describe, expect, test } from 'vitest';
import { specDocText, specHeadings } from '../../core/spec-docs.ts';
import { whatwgSseRules } from '../../scenarios/spec-refs.ts';
import { notApplicable } from '../profile.ts';
import { clientCitations, clientRequirements } from './client.ts';

describe.each(clientRequirements.map((r) => [r.id, r] as const))('%s', (id, r) => {
  const second = clientCitations[id];
  test('has a second citation, and one of the two is WHATWG SSE and the other a seed', () => {
    expect(second).toBeDefined();
    const docs = [r.source.doc, second?.doc ?? ''];
    expect(docs).toContain('whatwg-sse');
    expect(docs.some((d) => d.startsWith('seed-'))).toBe(true);
  });
  test('each WHATWG section names a known rule; each seed quote is verbatim under one of its headings', () => {
    for (const c of [{ ...r.source, quote: r.quote }, second!]) {
      if (c.doc === 'whatwg-sse') expect(whatwgSseRules).toContain(c.section.toLowerCase());
      else {
        expect(specHeadings(c.doc)).toContain(c.section);
        expect(specDocText(c.doc)).toContain(c.quote);
      }
    }
  });
});

describe('robustness (issue 28 §1)', () => {
  const robust = clientRequirements.filter((r) => r.tags.includes('robustness'));

  test('what no real server writes is a SHOULD tagged robustness; what the field shows stays MUST', () => {
    expect(robust.map((r) => r.id).sort()).toEqual(['CLI-BOM-002', 'CLI-DATA-003', 'CLI-DATA-004', 'CLI-EOL-004', 'CLI-EOL-005', 'CLI-ID-002', 'CLI-RETRY-001', 'CLI-UTF-002']);
    expect(robust.every((r) => r.level === 'SHOULD')).toBe(true);
    const must = new Map(clientRequirements.map((r) => [r.id, r.level]));
    // CRLF frames (field reports), keep-alive comments (gateways, proxies), adk-go's `event: error`.
    expect([must.get('CLI-EOL-001'), must.get('CLI-COMMENT-001'), must.get('CLI-EVENT-001')]).toEqual(['MUST', 'MUST', 'MUST']);
  });

  test('a profile declaring robustness false makes exactly them not applicable, with its reason', () => {
    const out = notApplicable({ parts: ['client'], capabilities: { robustness: false }, reasons: { robustness: 'our gateway normalises framing to LF' } }, clientRequirements);
    expect([...out.keys()].sort()).toEqual(robust.map((r) => r.id).sort());
    expect(out.get('CLI-EOL-004')).toBe('profile: capability robustness is declared false (our gateway normalises framing to LF)');
  });
});
