/**
 * Every live requirement has a basis (basis.ts) that holds to the rules of basis-rules.ts: seed
 * quotes verbatim under their heading, a MUST carried by a normative seed sentence or by what a
 * real server or the field shows, `supports` at least the requirement's level, robustness a
 * SHOULD. Each violation is printed with its id and its fix.
 */
import { describe, expect, test } from 'vitest';
import type { Level } from '../model.ts';
import { basisViolations, carriesMust, headingsOf, seedBinds } from './basis-rules.ts';
import { requirementBasis } from './basis-index.ts';
import { requirements } from './index.ts';
import { mutantKills } from '../mutants/index.ts';
import { seed } from './basis-sources.ts';

/**
 * Requirements whose level their source does not support, with the level it does. The lead and
 * the part owners retire each and issue a replacement at this level (a SHOULD tagged
 * `robustness` for completeness beyond field evidence); remove the entry when the id is retired.
 * The test fails for an id that is short of its level and not listed, and for a stale entry.
 */
const pendingReclassification: Readonly<Record<string, Level>> = {
  // Empty: every requirement's level is one its sources support (issue 28 §1).
};

test('every live requirement has a basis that holds to the rules (each line: id, problem, fix)', () => {
  expect(basisViolations(requirements.values(), requirementBasis, pendingReclassification)).toEqual([]);
});

test('each note names a shipped mutant that the requirement\'s check catches', () => {
  const wrong = Object.entries(requirementBasis).flatMap(([id, b]) => (b.note?.mutant && !(mutantKills[b.note.mutant] ?? []).includes(id) ? [`${id}: its note names mutant ${b.note.mutant}, which is not shipped or not caught by ${id}; fix: name a mutant of harness/mutants/ whose kills include ${id}`] : []));
  expect(wrong).toEqual([]);
});

describe('the rules themselves', () => {
  const live = [...requirements.values()];
  const one = live.find((r) => r.id === 'GW-HDR-001')!;
  test('a requirement without a basis is named with the file to add it to', () => {
    expect(basisViolations([one], {}, {})).toEqual([`${one.id}: has no basis; fix: add a record to harness/requirements/gateway-basis.ts`]);
  });
  test('a quote that is not verbatim under its heading is refused', () => {
    const out = basisViolations([one], { [one.id]: { evidence: [seed('seed-004', 'HTTP Headers', 'Content-Type: text/html')], supports: 'SHOULD', why: 'test', allows: ['x'] } }, { [one.id]: 'SHOULD' });
    expect(out.some((l) => l.includes('is not verbatim under seed-004 § HTTP Headers'))).toBe(true);
  });
  test('a MUST on a descriptive sentence alone is refused, and short of its level unless pending', () => {
    const descriptive = seed('seed-004', 'Legacy Pattern (Current Default)', '- `research_complete` - Final report ready');
    expect(carriesMust(descriptive)).toBe(false);
    const out = basisViolations([one], { [one.id]: { evidence: [descriptive], supports: 'MUST', allows: ['x'] } }, {});
    expect(out).toContain(`${one.id}: its basis says it supports MUST, but no evidence carries a MUST (a seed sentence in normative words, or a real server or field report); fix: add such evidence or lower \`supports\``);
    const short = basisViolations([one], { [one.id]: { evidence: [descriptive], supports: 'SHOULD', why: 'it describes', allows: ['x'] } }, {});
    expect(short).toEqual([`${one.id}: is MUST but its source supports SHOULD; fix: retire it and issue a SHOULD replacement (docs/versioning.md), or list it in pendingReclassification as SHOULD`]);
  });
  test('a basis below MUST that does not say why is refused', () => {
    const legacy = live.find((r) => r.id === 'GW-LEGACY-001')!;
    const { why: _why, ...rest } = requirementBasis[legacy.id]!;
    expect(basisViolations([legacy], { [legacy.id]: rest }, {})).toEqual([`${legacy.id}: its sources support SHOULD but its basis does not say why not MUST; fix: add \`why\` in plain words`]);
  });
  test('a stale pendingReclassification entry is refused', () => {
    expect(basisViolations([one], { [one.id]: requirementBasis[one.id]! }, { [one.id]: 'SHOULD' })).toEqual([`${one.id}: is listed in pendingReclassification but its source supports its level MUST; fix: remove the entry`]);
  });
  test('a robustness requirement that is a MUST is refused', () => {
    const tagged = { ...one, tags: [...one.tags, 'robustness'] };
    expect(basisViolations([tagged], { [one.id]: requirementBasis[one.id]! }, {})).toEqual([`${one.id}: is tagged robustness but is MUST; fix: completeness beyond field evidence is a SHOULD, retire it and issue a SHOULD`]);
  });
  test('a binding governs only quotes of its own section', () => {
    expect(seedBinds(seed('seed-004', 'HTTP Headers', 'Cache-Control: no-cache', 'Endpoint Specification'))).toBe(true);
    expect(seedBinds(seed('seed-004', 'Legacy Pattern (Current Default)', '- `research_complete` - Final report ready', 'Endpoint Specification'))).toBe(false);
  });
  test('a `# comment` inside a code fence is not a heading', () => {
    expect(headingsOf('## A\n```bash\n# not a heading\n```\ntext\n').map((h) => h.text)).toEqual(['A']);
  });
});
