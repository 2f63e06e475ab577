import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escapeXmlAttr, escapeXmlText, renderJunit } from './junit.ts';
import { findAll, parseXml, type XmlElement } from './xml-check.ts';
import { hostile, hostileRun, passingRun, realisticRun } from './test-fixture.ts';

const suites = (root: XmlElement) => findAll(root, 'testsuite');
const property = (suite: XmlElement, name: string) => findAll(suite, 'property').find((p) => p.attributes.name === name)?.attributes.value;
const testcase = (root: XmlElement, classname: string) => findAll(root, 'testcase').filter((t) => t.attributes.classname === classname);

describe('JUnit reporter', () => {
  const root = parseXml(renderJunit(realisticRun()));

  it('writes one testsuite per part, in requirement order', () => {
    expect(root.name).toBe('testsuites');
    expect(suites(root).map((s) => s.attributes.name)).toEqual(['gateway', 'transformer', 'audit-bridge', 'normalizer']);
  });

  it('writes one testcase per requirement x scenario, classname the requirement id and name the scenario id and title', () => {
    const cases = testcase(root, 'GW-PASS-001');
    expect(cases).toHaveLength(1);
    expect(cases[0]?.attributes.name).toBe('cedar_creek_briefing: GW-PASS-001 holds');
    // 11 requirements, one not applicable: no testcase.
    expect(findAll(root, 'testcase')).toHaveLength(10);
  });

  it('a failure carries the message and a body with expected, actual and the replay command', () => {
    const failure = findAll(testcase(root, 'GW-PASS-001')[0] as XmlElement, 'failure')[0];
    expect(failure?.attributes.message).toBe('frame 3 differs from the upstream bytes: the gateway re-serialised the JSON');
    expect(failure?.attributes.type).toBe('frame-mutated');
    expect(failure?.text).toContain('expected: "data: {\\"author\\":\\"coordinator\\",\\"partial\\":true}\\n\\n"');
    expect(failure?.text).toContain('actual: "data: {\\"partial\\":true,\\"author\\":\\"coordinator\\"}\\n\\n"');
    expect(failure?.text).toContain('replay: adk-conformance run --scenario cedar_creek_briefing --seed 42 --requirement GW-PASS-001');
  });

  it('a finding without its own replay gets its scenario\'s', () => {
    const failure = findAll(testcase(root, 'TR-CONF-002')[0] as XmlElement, 'failure')[0];
    expect(failure?.text).toContain('replay: adk-conformance run --scenario confidence_tiers --seed 42');
  });

  it('untested is skipped with its reason and counted as a failure in the suite properties', () => {
    const skipped = findAll(testcase(root, 'GW-ABORT-001')[0] as XmlElement, 'skipped')[0];
    expect(skipped?.attributes.message).toBe('untested: the target crashed before the client disconnected');
    const gateway = suites(root)[0] as XmlElement;
    expect(property(gateway, 'untested-counted-as-failures')).toBe('2');
    expect(gateway.attributes.failures).toBe('2');
    expect(property(gateway, 'failures-with-untested')).toBe('4');
  });

  it('<skipped> means untested only: a not-applicable requirement is no testcase, listed in the suite properties (issue 31 §4)', () => {
    expect(testcase(root, 'GW-LEGACY-002')).toHaveLength(0);
    const gateway = suites(root)[0] as XmlElement;
    expect(property(gateway, 'not-applicable-ids')).toBe('GW-LEGACY-002');
    expect(property(gateway, 'not-applicable')).toBe('1');
    expect(property(gateway, 'skipped-means')).toMatch(/^untested: /);
    expect(findAll(root, 'skipped').every((s) => s.attributes.message?.startsWith('untested: '))).toBe(true);
    expect(renderJunit(realisticRun())).toContain('<!-- adk-conformance: <skipped> means untested');
  });

  it('a harness error is attached as system-err, apart from the implementation\'s failures', () => {
    const err = findAll(testcase(root, 'GW-ABORT-001')[0] as XmlElement, 'system-err')[0];
    expect(err?.text).toContain('target exited with code 1');
  });

  it('every suite states the verdict and the gate policy', () => {
    for (const suite of suites(root)) {
      expect(property(suite, 'verdict')).toBe('non-compliant');
      expect(property(suite, 'gate')).toBe('must');
      expect(property(suite, 'gate-met')).toBe('false');
      expect(property(suite, 'gate-policy')).toMatch(/Untested and flaky requirements count as failures/);
    }
  });

  it('suite and total counts add up', () => {
    const sum = (attr: string) => suites(root).reduce((n, s) => n + Number(s.attributes[attr]), 0);
    expect(Number(root.attributes.tests)).toBe(sum('tests'));
    expect(Number(root.attributes.failures)).toBe(sum('failures'));
    expect(Number(root.attributes.skipped)).toBe(sum('skipped'));
    expect(root.attributes.failures).toBe('4');
  });

  it('a passing run has no failure and no skipped untested case', () => {
    const passing = parseXml(renderJunit(passingRun()));
    expect(findAll(passing, 'failure')).toHaveLength(0);
    expect(findAll(passing, 'skipped')).toHaveLength(0);
  });

  it('hostile strings stay well-formed: markup escaped, control characters stripped', () => {
    const xml = renderJunit(hostileRun());
    const parsed = parseXml(xml);
    const failure = findAll(testcase(parsed, 'GW-PASS-001')[0] as XmlElement, 'failure')[0];
    expect(failure?.attributes.message).toContain(hostile.script);
    expect(failure?.attributes.message).toContain('bell nul esc vt end');
    expect(failure?.text).toContain(hostile.markup);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(xml).not.toContain('<script>');
  });

  it('escaping round-trips any string through the parser, minus control characters', () => {
    const seed = 7031;
    console.log(`fast-check seed ${seed}`);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
      const doc = parseXml(`<a v="${escapeXmlAttr(s)}">${escapeXmlText(s)}</a>`);
      const clean = s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');
      expect(doc.attributes.v).toBe(clean);
      expect(doc.text).toBe(clean);
    }), { seed, numRuns: 500 });
  });
});
