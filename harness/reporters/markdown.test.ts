import { describe, expect, it } from 'vitest';
import { mdFence, mdText, renderMarkdown } from './markdown.ts';
import { hostile, hostileRun, passingRun, realisticRun } from './test-fixture.ts';

const section = (md: string, heading: string) => {
  const start = md.indexOf(`## ${heading}`);
  const next = md.indexOf('\n## ', start + 3);
  return md.slice(start, next < 0 ? undefined : next);
};

/** The document with fenced blocks removed: inside a fence everything is literal already. */
const outsideFences = (md: string) => {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of md.split('\n')) {
    const m = /^(`{3,})/.exec(line);
    if (fence === undefined && m) fence = m[1];
    else if (fence !== undefined && line === fence) fence = undefined;
    else if (fence === undefined) kept.push(line);
  }
  return kept.join('\n');
};

describe('Markdown reporter', () => {
  const md = renderMarkdown(realisticRun());

  it('opens with the verdict, then the gate policy', () => {
    const lines = md.split('\n').filter((l) => l.trim() !== '');
    expect(lines[1]).toBe('## Verdict: non-compliant: MUST 1 of 5 passed (3 failed, 1 untested); SHOULD 2 of 3 passed (1 untested); MAY 1 of 2 passed (1 failed). The gate (must) is not met.');
    expect(lines[2]).toMatch(/^> Gate: the run passes \(exit 0\) when the verdict is MUST-compliant or better/);
  });

  it('gives the counts per level, of scenarios, mutants and unproven requirements', () => {
    expect(md).toContain('| MUST | 1 | 3 | 0 | 1 | 0 |');
    expect(md).toContain('| MAY | 1 | 1 | 0 | 0 | 1 |');
    expect(md).toMatch(/Runs: 5 \(1 passed, 3 failed, 1 errored\): \d+ runs of \d+ scenarios in \d+ parts, and 0 probe runs\. Mutants: 6 of 8 killed\. Unproven requirements: 4\./);
  });

  it('claims no mutant kills for a tap\'s live report, which ran none', () => {
    const live = renderMarkdown({ ...realisticRun(), live: { taps: 1, runs: 5, failedRuns: 3 } });
    expect(live).toContain('Mutants: none run on live traffic; the 8 tap mutants are each caught by the kit\'s own test suite.');
    expect(live).not.toContain('Mutants: 6 of 8 killed');
  });

  it('lists every requirement with id, level, title, source section, status and proof', () => {
    const table = section(md, 'Requirements');
    expect(table).toContain('| id | level | title | source | status | proven by |');
    expect(table).toContain('| TR-CONF-002 | MUST | TR-CONF-002 holds | seed-002 § 2.1 Confidence Tiers (Degraded Mode) | **FAILED** | confidence-overflow |');
    expect(table).toContain('| GW-HDR-004 | MUST | GW-HDR-004 holds | seed-004 § Streaming Pattern | **FAILED** | **unproven** |');
    expect(table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| id') && !l.startsWith('| ---'))).toHaveLength(11);
  });

  it('expands each failure with its findings, expected and actual values and replay command', () => {
    const failures = section(md, 'Failures');
    expect(failures).toContain('### GW-PASS-001 (MUST): GW-PASS-001 holds');
    expect(failures).toContain('- **frame-mutated** at frame\\[3\\] in scenario cedar_creek_briefing: frame 3 differs');
    expect(failures).toContain('```json\n"data: {\\"partial\\":true,\\"author\\":\\"coordinator\\"}\\n\\n"\n```');
    expect(failures).toContain('```sh\nadk-conformance run --scenario cedar_creek_briefing --seed 42 --requirement GW-PASS-001\n```');
  });

  it('lists untested, unproven and not-applicable requirements with their reasons', () => {
    expect(section(md, 'Untested')).toContain('- GW-ABORT-001 (MUST, gateway): GW-ABORT-001 holds: the target crashed before the client disconnected');
    expect(section(md, 'Unproven requirements')).toContain('- TR-STATE-003 (SHOULD, transformer): TR-STATE-003 holds');
    expect(section(md, 'Not applicable')).toContain('GW-LEGACY-002 (MAY, gateway): GW-LEGACY-002 holds: the target declares no legacy endpoints');
  });

  it('a passing run says so in each list', () => {
    const ok = renderMarkdown(passingRun());
    expect(ok).toMatch(/## Verdict: fully compliant: MUST \d+ of \d+ passed.*The gate \(must\) is met./);
    expect(ok).toContain('No requirement failed.');
    expect(ok).toContain('Every applicable requirement was tested.');
  });

  it('hostile text cannot open HTML, break the table or close a fence', () => {
    const out = renderMarkdown(hostileRun());
    expect(outsideFences(out)).not.toMatch(/(^|[^\\])<script>/m);
    expect(outsideFences(out)).not.toMatch(/(^|[^\\])<img/m);
    expect(out).toContain('\\<script\\>');
    const row = out.split('\n').find((l) => l.startsWith('| GW-PASS-001 |')) ?? '';
    // Seven unescaped pipes: six columns.
    expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(8);
    expect(out).toContain('bell\\u0007 nul\\u0000');
    expect(out).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(out).toContain(`\`\`\`\`sh\nadk-conformance run --scenario 'a|b' # ${hostile.markup}\n\`\`\`\``);
  });

  it('mdText keeps intraword underscores readable and escapes the rest', () => {
    expect(mdText('cedar_creek_briefing')).toBe('cedar_creek_briefing');
    expect(mdText('_em_ *b* [l](x) a|b\nc')).toBe('\\_em\\_ \\*b\\* \\[l\\](x) a\\|b c');
  });

  it('mdFence picks a fence longer than any backtick run inside', () => {
    expect(mdFence('a ````` b')).toBe('``````\na ````` b\n``````');
  });
});
