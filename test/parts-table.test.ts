/**
 * One table of parts (issue 13 §5): docs/harness.md's table is harness/parts.ts's, every part's
 * flags are in `run --help`, every part is one a profile may declare, and the HTML report shows
 * every part with whether its run certified it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { partsMarkdown, partsTable } from '../harness/parts.ts';
import { allParts } from '../harness/profile.ts';
import { requirements } from '../harness/requirements/index.ts';
import { runCli } from './cli-support.ts';

describe('the parts table', () => {
  it('is the table docs/harness.md carries (npm run gen:parts writes it)', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'harness.md'), 'utf8');
    expect(doc, 'docs/harness.md has an old parts table: run npm run gen:parts').toContain(partsMarkdown());
  });

  it('names every part the requirements and the profile know, once', () => {
    const fromRegistry = new Set([...requirements.values()].map((r) => r.part));
    expect(new Set(partsTable.map((p) => p.part))).toEqual(fromRegistry);
    expect([...allParts].sort()).toEqual(partsTable.map((p) => p.part).sort());
  });

  it('has every flag in run --help', async () => {
    const r = await runCli(['run', '--help']);
    for (const p of partsTable) for (const flag of [p.flags.url, p.flags.command, p.flags.module]) if (flag) expect(r.stdout).toContain(flag.split(' ')[0]);
  });

  it('is shown in the HTML report, with the parts the run certified', async () => {
    const out = mkdtempSync(join(tmpdir(), 'adk-parts-'));
    const r = await runCli(['run', '--transformer-module', 'harness/targets/transformer/reference.ts', '--generated', '0', '--reporter', 'html', '--out', out]);
    expect(r.code).toBe(0);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<section id="parts"><h2>Parts of the pipeline</h2>');
    // Named by what was observed, never "certified" (issue 28 §2).
    expect(html).toMatch(/<th>transformer<\/th><td>every requirement passed: (\d+) of \1 passed<\/td>/);
    expect(html).toMatch(/<th>gateway<\/th><td>not under test in this run<\/td>/);
  }, 60_000);
});
