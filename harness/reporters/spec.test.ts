/**
 * Every report names the AgentBriefingEvent spec version a transformer was judged against and how
 * it was chosen (issue 31 §2), and the JSON report with it stays valid against report.schema.json.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../../schemas/registry.ts';
import type { RunResult } from '../model.ts';
import { describeSpec } from '../spec-version.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { realisticRun } from './test-fixture.ts';

const spec: NonNullable<RunResult['spec']> = { version: '1.1', how: 'detected', detail: 'its events declare schema_version "1.1.0"' };
const run: RunResult = { ...realisticRun(), spec };
const said = 'spec 1.1, detected: its events declare schema_version "1.1.0"';

describe('the spec version in every report', () => {
  it('is one phrase: the version, how it was chosen and why', () => {
    expect(describeSpec(spec)).toBe(said);
    expect(describeSpec({ version: '1.0', how: 'given', detail: '--spec 1.0' })).toBe('spec 1.0, given: --spec 1.0');
  });

  it('json carries it as data, valid against report.schema.json', () => {
    const json = JSON.parse(renderJson(run)) as RunResult;
    expect(json.spec).toEqual(spec);
    expect(validate('report', json).errors).toEqual([]);
  });

  it('junit names it in a property of every suite', () => {
    const xml = renderJunit(run);
    const suites = xml.match(/<testsuite /g)?.length ?? 0;
    expect(suites).toBeGreaterThan(0);
    expect(xml.match(/<property name="spec" value="spec 1\.1, detected: its events declare schema_version &quot;1\.1\.0&quot;"\/>/g)?.length).toBe(suites);
  });

  it('markdown and html say it under the verdict', () => {
    expect(renderMarkdown(run)).toContain(`> Judged against ${said} (docs/versioning.md "Spec versions").`);
    expect(renderHtml(run)).toContain('<p class="gate" id="spec">Judged against spec 1.1, detected: its events declare schema_version &quot;1.1.0&quot;.</p>');
  });

  it('a run without a transformer names none', () => {
    const plain = realisticRun();
    expect(renderMarkdown(plain)).not.toContain('Judged against');
    expect(renderJunit(plain)).not.toContain('name="spec"');
  });
});

describe('the spec version of merged shards', () => {
  it('is kept, and shards judged against different versions are warned about', async () => {
    const { mergeRunResults } = await import('../merge.ts');
    const { shardOf } = await import('./test-fixture.ts');
    const full = { ...realisticRun(), spec };
    const a = shardOf(full, 1, 2, ['cedar_creek_briefing', 'client_disconnect']);
    const b = shardOf(full, 2, 2, ['confidence_tiers', 'index_reuse', 'audit_bound']);
    const same = mergeRunResults([{ file: 'a.json', result: a }, { file: 'b.json', result: b }]);
    expect(same.result.spec).toEqual(spec);
    expect(same.warnings.filter((w) => w.includes('spec'))).toEqual([]);
    const other = mergeRunResults([{ file: 'a.json', result: a }, { file: 'b.json', result: { ...b, spec: { version: '1.0', how: 'given', detail: '--spec 1.0' } } }]);
    expect(other.warnings).toContain('the shards judged the transformer against different spec versions (1.1, 1.0): give every shard the same --spec');
  });
});
