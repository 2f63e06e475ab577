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
