import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { specDocText, specHeadings } from '../../core/spec-docs.ts';
import { buildRegistry, requirements } from './index.ts';
import { renderRequirementsDoc, requirementsDocPath } from './doc.ts';
import type { Requirement } from '../model.ts';

const all = [...requirements.values()];

test('docs/requirements.md is generated from the registry (run npm run gen:requirements when this fails)', () => {
  expect(readFileSync(requirementsDocPath, 'utf8')).toBe(renderRequirementsDoc());
});

test('a duplicate requirement id fails at load', () => {
  const r = all[0] as Requirement;
  expect(() => buildRegistry([[r], [r]])).toThrow(/defined twice/);
});

test('a malformed requirement id fails at load', () => {
  expect(() => buildRegistry([[{ ...(all[0] as Requirement), id: 'gw-1' }]])).toThrow(/AREA-TOPIC-NNN/);
});

describe.each(all.filter((r) => r.source.doc !== 'whatwg-sse').map((r) => [r.id, r] as const))('%s', (_id, r) => {
  test('its source section is a heading of the source document', () => {
    expect(specHeadings(r.source.doc)).toContain(r.source.section);
  });
  test('its quote appears verbatim in the source document', () => {
    expect(specDocText(r.source.doc)).toContain(r.quote);
  });
});

test('titles are statements, never "should"', () => {
  expect(all.filter((r) => /\bshould\b/i.test(r.title)).map((r) => r.id)).toEqual([]);
});
