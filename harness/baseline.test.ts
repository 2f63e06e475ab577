import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.ts';
import { validate } from '../schemas/registry.ts';
import { baselineFromReport, checkBaseline, checkBaselineScenarios, type LoadedBaseline } from './baseline.ts';
import { applyBaseline, baselinedEntry, baselineSentence, uncoveredFailures } from './baseline-gate.ts';
import { readLock } from './requirements/ids-lock.ts';
import { renderHtml } from './reporters/html.ts';
import { renderJunit } from './reporters/junit.ts';
import { renderMarkdown } from './reporters/markdown.ts';
import { findAll, parseXml } from './reporters/xml-check.ts';
import { realisticRun, shardOf } from './reporters/test-fixture.ts';
import { exitCodeOf, tally } from './verdict.ts';
import type { RunResult } from './model.ts';

const entry = (requirement: string, extra: { scenarios?: string[]; issue?: string } = {}) => ({ requirement, reason: `known: ${requirement}`, ...extra });
const baseline = (...entries: ReturnType<typeof entry>[]): LoadedBaseline => ({ file: 'baseline.json', entries });
// realisticRun's gate is must: GW-PASS-001, GW-HDR-004 and TR-CONF-002 failed, GW-ABORT-001 untested; a SHOULD is untested and a MAY failed.
const mustFailures = ['GW-PASS-001', 'GW-HDR-004', 'TR-CONF-002', 'GW-ABORT-001'];

describe('checkBaseline: the file is checked against the schema, the registry and the id lock', () => {
  const expectUsage = (value: unknown, pattern: RegExp) => {
    expect(() => checkBaseline(value, 'ci/baseline.json')).toThrow(UsageError);
    expect(() => checkBaseline(value, 'ci/baseline.json')).toThrow(pattern);
  };

  it('accepts live ids with reasons, scenarios and issue links', () => {
    const loaded = checkBaseline({ knownFailures: [entry('ABE-SCHEMA-001', { issue: 'https://example.com/i/1' }), entry('ABE-CORR-001', { scenarios: ['transfer_to_specialist'] })] }, 'ci/baseline.json');
    expect(loaded.entries.map((e) => e.requirement)).toEqual(['ABE-SCHEMA-001', 'ABE-CORR-001']);
  });

  it('an unknown id names the file, the entry, the nearest id and the fix', () => {
    expectUsage({ knownFailures: [entry('ABE-SCHEMA-001'), entry('ABE-SCHEMA-009')] }, /--baseline ci\/baseline\.json: \/knownFailures\/1 \(ABE-SCHEMA-009\): no requirement has this id \(did you mean 'ABE-SCHEMA-00\d'\?\); fix the id or remove the entry/);
  });

  it('a retired id is a configuration error that says it can never be judged', () => {
    const lock = readLock();
    const retired = Object.entries(lock.ids).find(([, e]) => e.retired !== undefined)?.[0];
    expect(retired).toBeDefined();
    expectUsage({ knownFailures: [entry(retired as string)] }, new RegExp(`/knownFailures/0 \\(${retired}\\): ${retired} was retired in [0-9.]+ and is never judged.*remove it`));
  });

  it('one requirement listed twice, a missing reason, an unknown key and a non-link issue are refused', () => {
    expectUsage({ knownFailures: [entry('ABE-SCHEMA-001'), entry('ABE-SCHEMA-001', { scenarios: ['x'] })] }, /\/knownFailures\/1 \(ABE-SCHEMA-001\): \/knownFailures\/0 lists ABE-SCHEMA-001 too; keep one entry per requirement/);
    expectUsage({ knownFailures: [{ requirement: 'ABE-SCHEMA-001' }] }, /\/knownFailures\/0 must have required property 'reason'.*docs\/baseline\.md/);
    expectUsage({ knownFailures: [], failures: [] }, /must NOT have additional properties/);
    expectUsage({ knownFailures: [entry('ABE-SCHEMA-001', { issue: '#12' })] }, /\/knownFailures\/0\/issue/);
  });

  it('a scenario the run does not know is a configuration error with the nearest id', () => {
    const loaded = checkBaseline({ knownFailures: [entry('ABE-CORR-001', { scenarios: ['transfer_to_specialst'] })] }, 'b.json');
    expect(() => checkBaselineScenarios(loaded, new Set(['transfer_to_specialist', 'probe:transformer-memory']))).toThrow(/b\.json: \/knownFailures\/0 \(ABE-CORR-001\) names scenario 'transfer_to_specialst', which this run does not know \(did you mean 'transfer_to_specialist'\?\)/);
    expect(() => checkBaselineScenarios(loaded, new Set(['transfer_to_specialst']))).not.toThrow();
  });
});

describe('applyBaseline: the ratchet gate', () => {
  it('every failure listed: the gate passes (exit 0) while the verdict stays non-compliant and passed stays false', () => {
    const run = applyBaseline(realisticRun(), baseline(...mustFailures.map((id) => entry(id))));
    expect(run.verdict).toBe('non-compliant');
    expect(run.passed).toBe(false);
    expect(run.baseline?.passed).toBe(true);
    expect(exitCodeOf(run)).toBe(0);
    expect(run.baseline?.newFailures).toEqual([]);
    expect(run.baseline?.entries.map((e) => e.status)).toEqual(['confirmed', 'confirmed', 'confirmed', 'unexercised']);
    expect(run.baseline?.summary).toBe('3 known failures baselined, 0 new, 0 stale entries, 1 entry not exercised: the baseline gate passes');
    expect(baselineSentence(run)).toMatch(/A baseline changes only the exit code: the verdict stays non-compliant\.$/);
  });

  it('a failure no entry lists is new: exit 1; SHOULD and MAY failures outside the must gate are not new', () => {
    const run = applyBaseline(realisticRun(), baseline(entry('GW-PASS-001'), entry('GW-ABORT-001'), entry('TR-CONF-002')));
    expect(run.baseline?.newFailures).toEqual([{ requirement: 'GW-HDR-004', level: 'MUST', status: 'failed', scenarios: [], detail: 'GW-HDR-004 failed and no baseline entry lists it' }]);
    expect(exitCodeOf(run)).toBe(1);
    expect(uncoveredFailures(run)).toEqual(['GW-HDR-004']);
  });

  it('an untested requirement not listed is new; listed, its entry is neither confirmed nor stale and does not fail the run', () => {
    const without = applyBaseline(realisticRun(), baseline(entry('GW-PASS-001'), entry('GW-HDR-004'), entry('TR-CONF-002')));
    expect(without.baseline?.newFailures.map((f) => [f.requirement, f.status])).toEqual([['GW-ABORT-001', 'untested']]);
    const withIt = applyBaseline(realisticRun(), baseline(...mustFailures.map((id) => entry(id))));
    expect(withIt.baseline?.entries[3]).toMatchObject({ requirement: 'GW-ABORT-001', status: 'unexercised', detail: expect.stringMatching(/untested in this run \(the target crashed before the client disconnected\): neither confirmed nor stale/) });
  });

  it('a listed requirement that now passes is stale: exit 1, naming the entry and the fix', () => {
    const run = applyBaseline(realisticRun(), baseline(...mustFailures.map((id) => entry(id)), entry('GW-HDR-001')));
    expect(run.baseline?.entries[4]).toMatchObject({ requirement: 'GW-HDR-001', status: 'stale', detail: 'GW-HDR-001 now passes: remove its entry from baseline.json so the fix is kept' });
    expect(run.baseline?.passed).toBe(false);
    expect(exitCodeOf(run)).toBe(1);
  });

  it('an entry for a requirement that is not applicable, or not in the run, is not exercised and does not fail the run', () => {
    const run = applyBaseline(realisticRun(), baseline(...mustFailures.map((id) => entry(id)), entry('GW-LEGACY-002'), entry('ABE-SCHEMA-001')));
    expect(run.baseline?.entries.slice(4).map((e) => e.status)).toEqual(['unexercised', 'unexercised']);
    expect(exitCodeOf(run)).toBe(0);
  });

  it('a narrowed entry covers only its scenarios: a failure elsewhere is new, a listed scenario that passes is stale', () => {
    const elsewhere = applyBaseline(realisticRun(), baseline(entry('GW-PASS-001', { scenarios: ['client_disconnect'] }), entry('GW-HDR-004'), entry('TR-CONF-002'), entry('GW-ABORT-001')));
    expect(elsewhere.baseline?.newFailures).toEqual([expect.objectContaining({ requirement: 'GW-PASS-001', scenarios: ['cedar_creek_briefing'] })]);
    expect(elsewhere.baseline?.entries[0]?.status).toBe('unexercised');
    expect(exitCodeOf(elsewhere)).toBe(1);
    const stale = applyBaseline(realisticRun(), baseline(...mustFailures.map((id) => entry(id)), entry('GW-HDR-001', { scenarios: ['cedar_creek_briefing'] })));
    expect(stale.baseline?.entries[4]).toMatchObject({ status: 'stale', staleScenarios: ['cedar_creek_briefing'], detail: expect.stringMatching(/now passes in cedar_creek_briefing: remove the entry from baseline\.json/) });
    const covered = applyBaseline(realisticRun(), baseline(entry('GW-PASS-001', { scenarios: ['cedar_creek_briefing'] }), entry('GW-HDR-004'), entry('TR-CONF-002'), entry('GW-ABORT-001')));
    expect(covered.baseline?.entries[0]).toMatchObject({ status: 'confirmed', detail: 'GW-PASS-001 still fails in cedar_creek_briefing' });
    expect(exitCodeOf(covered)).toBe(0);
  });

  it('a run that observed nothing stays exit 3 whatever the baseline says', () => {
    const base = realisticRun();
    const requirements = base.requirements.map((r) => (r.status === 'not-applicable' ? r : { ...r, status: 'untested' as const, findings: [], scenarios: [] }));
    const nothing: RunResult = { ...base, requirements, ...tally({ gate: base.gate, requirements, scenarios: base.scenarios, mutants: base.counts.mutants }) };
    const run = applyBaseline(nothing, baseline(...requirements.filter((r) => r.status === 'untested').map((r) => entry(r.id))));
    expect(run.verdict).toBe('could not evaluate');
    expect(run.baseline?.passed).toBe(false);
    expect(exitCodeOf(run)).toBe(3);
  });
});

describe('baselineFromReport', () => {
  it('lists every failed, flaky or untested requirement at the gate levels, with a dated reason quoting the first finding', () => {
    const b = baselineFromReport(realisticRun(), { date: '2026-11-27' });
    expect(validate('baseline', b).errors).toEqual([]);
    expect(b.knownFailures.map((e) => e.requirement)).toEqual(['GW-ABORT-001', 'GW-HDR-004', 'GW-PASS-001', 'TR-CONF-002']);
    expect(b.knownFailures[2]?.reason).toBe('baselined on 2026-11-27: frame 3 differs from the upstream bytes: the gateway re-serialised the JSON');
    expect(b.knownFailures[0]?.reason).toBe('baselined on 2026-11-27: untested: the target crashed before the client disconnected');
    // The baseline it writes makes the same run pass the gate, and nothing in it is stale.
    const run = applyBaseline(realisticRun(), { file: 'b.json', entries: b.knownFailures });
    expect(exitCodeOf(run)).toBe(0);
  });

  it('--by-scenario narrows each failure to the scenarios it failed in', () => {
    const b = baselineFromReport(realisticRun(), { date: '2026-11-27', byScenario: true });
    expect(b.knownFailures.find((e) => e.requirement === 'GW-PASS-001')?.scenarios).toEqual(['cedar_creek_briefing']);
    expect(b.knownFailures.find((e) => e.requirement === 'GW-ABORT-001')?.scenarios).toBeUndefined();
  });

  it('refuses a shard alone and a run that observed nothing', () => {
    const run = realisticRun();
    expect(() => baselineFromReport(shardOf(run, 1, 2, ['cedar_creek_briefing']), { date: '2026-11-27' })).toThrow(/shard 1\/2 alone: merge the shards first/);
    expect(() => baselineFromReport({ ...run, verdict: 'could not evaluate' }, { date: '2026-11-27' })).toThrow(/observed nothing/);
  });
});

describe('reports of a baselined run', () => {
  const run = applyBaseline(realisticRun(), baseline(entry('GW-PASS-001', { issue: 'https://example.com/issues/7' }), entry('GW-ABORT-001'), entry('TR-CONF-002'), entry('GW-HDR-001')));

  it('report.json carries the baseline and is valid against the report schema', () => {
    expect(validate('report', JSON.parse(JSON.stringify(run))).errors).toEqual([]);
  });

  it('Markdown: the verdict is unchanged, the baseline gate is under it, known failures are apart from new ones', () => {
    const md = renderMarkdown(run);
    expect(md).toContain('## Verdict: non-compliant');
    expect(md).toContain('> **Baseline baseline.json: 2 known failures baselined, 1 new, 1 stale entry, 1 entry not exercised: the baseline gate fails (exit 1). A baseline changes only the exit code: the verdict stays non-compliant.**');
    const fresh = md.slice(md.indexOf('## New failures (not in the baseline)'), md.indexOf('## Known failures, baselined'));
    expect(fresh).toContain('### GW-HDR-004');
    expect(fresh).not.toContain('### GW-PASS-001');
    const known = md.slice(md.indexOf('## Known failures, baselined (2)'), md.indexOf('## Baseline entries'));
    expect(known).toContain('known failure, baselined: known: GW-PASS-001 (https://example.com/issues/7)');
    expect(md).toMatch(/\| 3 \| GW-HDR-001 \| \*\*STALE: now passes, remove it\*\* \|/);
    expect(baselinedEntry(run, 'GW-HDR-004')).toBeUndefined();
  });

  it('JUnit: a baselined failure stays a failure typed baselined; the baseline suite fails on the stale entry', () => {
    const root = parseXml(renderJunit(run));
    const failures = findAll(root, 'failure');
    expect(failures.filter((f) => f.attributes.type === 'baselined').length).toBeGreaterThan(0);
    expect(failures.find((f) => f.attributes.type === 'baselined')?.attributes.message).toMatch(/^known failure, baselined: /);
    const suite = findAll(root, 'testsuite').find((s) => s.attributes.name === 'baseline');
    expect(suite?.attributes.failures).toBe('1');
    expect(findAll(suite as NonNullable<typeof suite>, 'failure')[0]?.attributes.message).toBe('stale baseline entry: GW-HDR-001 now passes: remove its entry from baseline.json so the fix is kept');
  });

  it('HTML: the title and header keep the verdict and say the failures are baselined', () => {
    const html = renderHtml(run);
    expect(html).toContain('<title>ADK conformance: non-compliant (2 known failures baselined)</title>');
    expect(html).toContain('<h1 id="verdict">non-compliant</h1>');
    expect(html).toMatch(/<p id="baseline-gate"><strong>Baseline baseline\.json: .*the verdict stays non-compliant\.<\/strong><\/p>/);
    expect(html).toContain('<section id="baselined"><h2>Known failures, baselined (2)</h2>');
    expect(html).toContain('<p class="baselined"><strong>known failure, baselined: known: GW-PASS-001</strong> (<a href="https://example.com/issues/7">https://example.com/issues/7</a>)</p>');
    // A report.json from elsewhere may carry any string: only an http(s) issue becomes a link.
    const odd = { ...run, baseline: { ...run.baseline!, entries: run.baseline!.entries.map((e) => (e.requirement === 'GW-PASS-001' ? { ...e, issue: 'javascript:alert(1)' } : e)) } };
    expect(renderHtml(odd)).not.toContain('href="javascript:');
  });
});
