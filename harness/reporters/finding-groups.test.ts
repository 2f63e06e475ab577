/** Identical findings shown once with a count (issue 31 §4: 366 identical cards for a missing `summary`). */
import { describe, expect, it } from 'vitest';
import type { Finding, RunResult } from '../model.ts';
import { groupFindings, messageShape } from './finding-groups.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import { req, realisticRun } from './test-fixture.ts';

const missingSummary = (i: number): Finding => ({
  requirement: 'ABE-SCHEMA-001', code: 'schema-invalid', path: `event[${i}]`,
  message: `event ${i} must have required property 'summary'`, expected: 'summary', actual: { type: 'INSIGHT' }, scenario: `scenario_${i % 61}`,
});

function runWith(findings: Finding[]): RunResult {
  const run = realisticRun();
  return { ...run, requirements: [...run.requirements, req({ id: 'ABE-SCHEMA-001', level: 'MUST', status: 'failed', part: 'transformer', findings })] };
}

describe('finding groups', () => {
  it('one group per requirement, code and message shape: numbers and quoted values do not split it', () => {
    expect(messageShape("event 3 must have required property 'summary'")).toBe(messageShape("event 12 must have required property 'detail'"));
    const other: Finding = { ...missingSummary(1), code: 'output-not-an-event', message: 'line 1 is not JSON' };
    const groups = groupFindings([...Array.from({ length: 366 }, (_, i) => missingSummary(i)), other]);
    expect(groups.map((g) => [g.first.code, g.count])).toEqual([['schema-invalid', 366], ['output-not-an-event', 1]]);
  });

  it('HTML: 366 identical findings are one card with ×366 and the places collapsed', () => {
    const html = renderHtml(runWith(Array.from({ length: 366 }, (_, i) => missingSummary(i))));
    const section = html.slice(html.indexOf('id="failure-ABE-SCHEMA-001"'));
    const card = section.slice(0, section.indexOf('</div></details>'));
    expect(card.match(/<div class="finding/g)).toHaveLength(1);
    expect(card).toContain('<p class="count">×366 identical findings');
    expect(card).toContain('in 61 scenarios');
    expect(card).toContain('<details class="places"><summary>where: 366 places</summary>');
    expect(card).toContain('<li><code>scenario_5 event[5]</code></li>');
  });

  it('Markdown: the same, once with ×366 and the places in a collapsed list', () => {
    const all = renderMarkdown(runWith(Array.from({ length: 366 }, (_, i) => missingSummary(i))));
    const from = all.indexOf('### ABE-SCHEMA-001');
    const md = all.slice(from, all.indexOf('\n#', from + 4));
    expect(md.match(/schema-invalid\*\* at/g)).toHaveLength(1);
    expect(md).toContain('- ×366 identical findings');
    expect(md).toContain('<details><summary>where</summary>');
    expect(md).toContain('- and 166 more (report.json lists every one)');
  });
});
