/**
 * JUnit XML for CI dashboards: one <testsuite> per part, one <testcase> per requirement x
 * scenario (classname = requirement id, name = scenario id + requirement title).
 *
 * <skipped> means one thing: **untested** (nothing exercised the requirement there; the reason is
 * its message). JUnit has no "untested", and because the gate counts untested requirements as
 * failures (a2a-tck#214) every suite carries the property `untested-counted-as-failures` (its
 * untested testcases) and `failures-with-untested` (failures + untested), which is the number a CI
 * gate reading JUnit alone should compare with zero; the header comment and the property
 * `skipped-means` say so. A not-applicable requirement is no testcase at all (it is outside the
 * run, as a test a filter left out): the suite lists them in the properties `not-applicable`
 * (count) and `not-applicable-ids`, and report.json gives each reason. A flaky case (a timing failure that did not reproduce alone) is a <failure
 * type="flaky">: the gate counts it against the verdict, so a dashboard must not show it green.
 * The verdict and gate policy are properties of every suite.
 *
 * A baselined run (docs/baseline.md): a failure its baseline lists stays a <failure>, of type
 * `baselined` with the message "known failure, baselined: reason (issue); ..."; every suite carries
 * the baseline gate's properties, and the suite `baseline` has one case per entry (stale: a failure).
 */
import type { CheckOutcome, Finding, Part, RequirementResult, RunResult, ScenarioResult } from '../model.ts';
import { formatValue, gateSentence, replayCommand, sortedRequirements, stripControls } from './format.ts';
import { describeVerdict } from '../verdict.ts';
import { describeSpec } from '../spec-version.ts';
import { baselinedEntry, baselinedText, baselineSentence } from './baseline-format.ts';

/** Text content: `&`, `<`, `>` escaped, CR kept as a reference (a parser would otherwise fold it). */
export function escapeXmlText(text: string): string {
  return stripControls(text).replace(/[&<>\r]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' })[c] ?? c);
}

/** Attribute values: quotes too, and whitespace as references so attribute normalisation keeps it. */
export function escapeXmlAttr(text: string): string {
  return stripControls(text).replace(/[&<>"'\r\n\t]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;', '\n': '&#10;', '\t': '&#9;' })[c] ?? c);
}

type Case = {
  requirement: RequirementResult;
  scenario?: ScenarioResult;
  /** passed | failed | untested | not-applicable for this pair. */
  status: RequirementResult['status'];
  findings: Finding[];
  reason?: string;
};

/** One case per outcome of the requirement; a requirement no scenario reported on gets one case of its own. */
function casesOf(requirement: RequirementResult, run: RunResult): Case[] {
  if (requirement.status === 'not-applicable') return [];
  const cases: Case[] = [];
  for (const scenario of run.scenarios) {
    for (const outcome of scenario.outcomes.filter((o: CheckOutcome) => o.requirement === requirement.id)) {
      cases.push({ requirement, scenario, status: outcome.status, findings: outcome.findings, ...(outcome.reason === undefined ? {} : { reason: outcome.reason }) });
    }
  }
  if (cases.length === 0) {
    cases.push({ requirement, status: requirement.status, findings: requirement.findings, ...(requirement.reason === undefined ? {} : { reason: requirement.reason }) });
  } else if ((requirement.status === 'failed' || requirement.status === 'flaky') && !cases.some((c) => c.status === requirement.status)) {
    // A run-level check (memory, resources) failed the requirement outside any scenario.
    cases.push({ requirement, status: requirement.status, findings: requirement.findings });
  }
  return cases;
}

function failureBody(findings: Finding[], run: RunResult): string {
  return findings.map((f) => {
    const replay = replayCommand(f, run);
    return [
      `[${f.code}] ${f.path}: ${f.message}`,
      `expected: ${formatValue(f.expected)}`,
      `actual: ${formatValue(f.actual)}`,
      ...(replay === undefined ? [] : [`replay: ${replay}`]),
    ].join('\n');
  }).join('\n\n');
}

function renderCase(c: Case, run: RunResult): string {
  const name = `${c.scenario?.scenario ?? '(no scenario)'}: ${c.requirement.title}`;
  const time = c.scenario ? (c.scenario.durationMs / 1000).toFixed(3) : '0.000';
  const open = `    <testcase classname="${escapeXmlAttr(c.requirement.id)}" name="${escapeXmlAttr(name)}" time="${time}">`;
  const inner: string[] = [];
  // A baselined failure stays a <failure> (it is one), typed and labelled so a dashboard can tell it from a new one.
  const known = c.status === 'failed' || c.status === 'flaky' ? baselinedEntry(run, c.requirement.id) : undefined;
  const label = known ? `${baselinedText(known)}; ` : '';
  if (c.status === 'failed') {
    const first = c.findings[0];
    const message = label + (first ? (c.findings.length > 1 ? `${c.findings.length} findings; first: ${first.message}` : first.message) : 'failed without a recorded finding');
    inner.push(`      <failure message="${escapeXmlAttr(message)}" type="${escapeXmlAttr(known ? 'baselined' : first?.code ?? 'failed')}">${escapeXmlText(failureBody(c.findings, run))}</failure>`);
  } else if (c.status === 'flaky') {
    const first = c.findings[0];
    const message = `${label}flaky: failed once, passed when repeated alone${first ? `; first finding: ${first.message}` : ''}`;
    inner.push(`      <failure message="${escapeXmlAttr(message)}" type="${known ? 'baselined' : 'flaky'}">${escapeXmlText(failureBody(c.findings, run))}</failure>`);
  } else if (c.status === 'untested') {
    inner.push(`      <skipped message="${escapeXmlAttr(`untested: ${c.reason ?? 'no reason recorded'}`)}"/>`);
  }
  if (c.scenario?.error) inner.push(`      <system-err>${escapeXmlText(`harness error in ${c.scenario.scenario}: ${c.scenario.error}`)}</system-err>`);
  return inner.length === 0 ? `${open.slice(0, -1)}/>` : [open, ...inner, '    </testcase>'].join('\n');
}

type Totals = { tests: number; failures: number; skipped: number; untested: number; time: number };

function renderSuite(part: Part, cases: Case[], run: RunResult, notApplicable: readonly string[]): { xml: string; totals: Totals } {
  const scenarios = new Set(cases.flatMap((c) => (c.scenario ? [c.scenario] : [])));
  const totals: Totals = {
    tests: cases.length,
    failures: cases.filter((c) => c.status === 'failed' || c.status === 'flaky').length,
    skipped: cases.filter((c) => c.status === 'untested').length,
    untested: cases.filter((c) => c.status === 'untested').length,
    time: [...scenarios].reduce((sum, s) => sum + s.durationMs, 0) / 1000,
  };
  const properties: [string, string][] = [
    ['verdict', run.verdict],
    ['verdict-observed', describeVerdict(run)],
    ['gate', run.gate.level],
    ['gate-met', String(run.passed)],
    ['gate-policy', gateSentence(run)],
    ['skipped-means', 'untested: no scenario or probe exercised the requirement there; the gate counts it as a failure at its level'],
    ['untested-counted-as-failures', String(totals.untested)],
    ['failures-with-untested', String(totals.failures + totals.untested)],
    ['not-applicable', String(notApplicable.length)],
    ['not-applicable-ids', notApplicable.join(',')],
    ['seed', String(run.seed)],
    ['seed-source', run.seedSource ?? 'given'],
    ...(run.selection ? [['selection', run.selection.description] as [string, string]] : []),
    ...(run.spec ? [['spec', describeSpec(run.spec)] as [string, string]] : []),
    ...(run.shard ? [['shard', `${run.shard.index}/${run.shard.total}`] as [string, string]] : []),
    ...baselineProperties(run),
  ];
  const xml = [
    `  <testsuite name="${escapeXmlAttr(part)}" tests="${totals.tests}" failures="${totals.failures}" errors="0" skipped="${totals.skipped}" time="${totals.time.toFixed(3)}" timestamp="${escapeXmlAttr(run.startedAt)}">`,
    '    <properties>',
    ...properties.map(([name, value]) => `      <property name="${escapeXmlAttr(name)}" value="${escapeXmlAttr(value)}"/>`),
    '    </properties>',
    ...cases.map((c) => renderCase(c, run)),
    '  </testsuite>',
  ].join('\n');
  return { xml, totals };
}

function baselineProperties(run: RunResult): [string, string][] {
  const b = run.baseline;
  if (!b) return [];
  return [['baseline-file', b.file], ['baseline-gate-met', String(b.passed)], ['baseline', baselineSentence(run) ?? b.summary], ['baselined-failures', String(b.entries.filter((e) => e.status === 'confirmed').length)], ['new-failures', String(b.newFailures.length)], ['stale-baseline-entries', String(b.entries.filter((e) => e.status === 'stale').length)]];
}

/**
 * The suite `baseline`: one case per entry. A confirmed entry passes (it still fails as listed), a
 * stale one is a <failure type="stale-baseline"> (remove it), and one the run did not exercise is
 * <skipped message="untested: ..."> (neither confirmed nor stale; it does not fail the gate).
 */
function baselineSuite(run: RunResult): { xml: string; totals: Totals } | undefined {
  const b = run.baseline;
  if (!b) return undefined;
  const cases = b.entries.map((e, i) => {
    const open = `    <testcase classname="baseline" name="${escapeXmlAttr(`${b.file} /knownFailures/${i}: ${e.requirement}`)}" time="0.000">`;
    if (e.status === 'confirmed') return `${open.slice(0, -1)}/>`;
    const inner = e.status === 'stale'
      ? `      <failure message="${escapeXmlAttr(`stale baseline entry: ${e.detail}`)}" type="stale-baseline">${escapeXmlText(`${e.detail}\nreason in the baseline: ${e.reason}`)}</failure>`
      : `      <skipped message="${escapeXmlAttr(`untested: ${e.detail}`)}"/>`;
    return [open, inner, '    </testcase>'].join('\n');
  });
  const totals: Totals = { tests: b.entries.length, failures: b.entries.filter((e) => e.status === 'stale').length, skipped: b.entries.filter((e) => e.status === 'unexercised').length, untested: 0, time: 0 };
  const xml = [
    `  <testsuite name="baseline" tests="${totals.tests}" failures="${totals.failures}" errors="0" skipped="${totals.skipped}" time="0.000" timestamp="${escapeXmlAttr(run.startedAt)}">`,
    '    <properties>',
    ...baselineProperties(run).map(([name, value]) => `      <property name="${escapeXmlAttr(name)}" value="${escapeXmlAttr(value)}"/>`),
    '    </properties>',
    ...cases,
    '  </testsuite>',
  ].join('\n');
  return { xml, totals };
}

export function renderJunit(run: RunResult): string {
  const byPart = new Map<Part, Case[]>();
  const notApplicable = new Map<Part, string[]>();
  for (const requirement of sortedRequirements(run.requirements)) {
    const list = byPart.get(requirement.part) ?? [];
    list.push(...casesOf(requirement, run));
    byPart.set(requirement.part, list);
    if (requirement.status === 'not-applicable') notApplicable.set(requirement.part, [...(notApplicable.get(requirement.part) ?? []), requirement.id]);
  }
  const suites = [...byPart].map(([part, cases]) => renderSuite(part, cases, run, notApplicable.get(part) ?? []));
  const baseline = baselineSuite(run);
  if (baseline) suites.push(baseline);
  const sum = (key: keyof Totals) => suites.reduce((n, s) => n + s.totals[key], 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!-- adk-conformance: <skipped> means untested (nothing exercised the requirement there), and the gate counts it as a failure: see the properties skipped-means and untested-counted-as-failures of each suite. Not-applicable requirements are no testcase: each suite lists them in the property not-applicable-ids (reasons in report.json). -->',
    `<testsuites name="adk-conformance" tests="${sum('tests')}" failures="${sum('failures')}" errors="0" skipped="${sum('skipped')}" time="${(run.durationMs / 1000).toFixed(3)}">`,
    ...suites.map((s) => s.xml),
    '</testsuites>',
    '',
  ].join('\n');
}
