/**
 * Every client requirement carries two citations: its source (checked with the others by
 * requirements.test.ts) and a second one in `clientCitations`, the seed sentence a WHATWG rule
 * refines or the WHATWG rule behind a seed sentence. Seed quotes appear verbatim under a heading
 * of the seed; WHATWG sections name a rule of scenarios/spec-refs.ts.
 */
import { describe, expect, test } from 'vitest';
import { specDocText, specHeadings } from '../../core/spec-docs.ts';
import { whatwgSseRules } from '../../scenarios/spec-refs.ts';
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
