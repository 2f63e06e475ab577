import { expect, test } from 'vitest';
import { renderBasis } from './basis-doc.ts';
import { requirementBasis } from './basis-index.ts';
import { requirements } from './index.ts';

const req = (id: string) => requirements.get(id)!;

test('a requirement above what its sources support says so, with the level to reissue it at and why', () => {
  // A SHOULD given MUST, as CLI-EOL-002 was before it was retired for CLI-EOL-004.
  const lines = renderBasis({ ...req('CLI-EOL-004'), level: 'MUST' }, requirementBasis['CLI-EOL-004']);
  expect(lines[0]).toBe('**CLI-EOL-004** · MUST · its sources support only SHOULD: to be retired and reissued as SHOULD');
  expect(lines.some((l) => l.startsWith('- why not MUST: WHATWG completeness'))).toBe(true);
  expect(lines.some((l) => l.startsWith('- WHATWG SSE § line endings: “Lines must be separated by'))).toBe(true);
});

test('a seed correction names the seed rule, what is judged instead, the scenario and the mutant', () => {
  const note = renderBasis(req('BLK-IDX-004'), requirementBasis['BLK-IDX-004']).find((l) => l.startsWith("- where the seed's rule is wrong:"));
  expect(note).toContain('Scenario: `index_reuse_unknown_index_delta`; mutant: `normalizer-guesses-unknown-index`');
});

test('real-server evidence shows repo, path and commit; a requirement without a basis says so', () => {
  expect(renderBasis(req('CLI-EVENT-001'), requirementBasis['CLI-EVENT-001'])[1]).toMatch(/^- real server: google\/adk-go `server\/adkrest\/controllers\/runtime.go` @0a51e153: flashErrorEvent writes/);
  expect(renderBasis(req('CLI-EVENT-001'), undefined)[0]).toBe('**CLI-EVENT-001** · MUST · no basis recorded');
});
