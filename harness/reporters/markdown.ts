/**
 * report.md: the report for a pull-request comment or a terminal pager. Verdict and gate first,
 * then counts, the requirements table, failures expanded with findings and replay commands, and
 * the lists a reader must not miss (untested, unproven, not applicable).
 *
 * Everything user-provided is backslash-escaped (CommonMark makes any escaped ASCII punctuation
 * literal, so `<script>` cannot become HTML) or put in a fence longer than any backtick run in it.
 */
import type { Finding, RequirementResult, RunResult } from '../model.ts';
import { countLines, mutantsText, formatValue, gateSentence, groupRequirements, replayCommand, showControls, sortedRequirements, sourceLabel, verdictSentence } from './format.ts';
import { describeStartup } from '../startup.ts';
import { runsSentence } from './counting.ts';
import { groupFindings, groupLocations, type FindingGroup } from './finding-groups.ts';
import { describeSpec } from '../spec-version.ts';
import { baselineRows, baselineSentence, baselinedEntry, baselinedText, splitBaselined } from './baseline-format.ts';

/** Inline text: markdown punctuation escaped, line breaks folded, controls made visible. */
export function mdText(text: string): string {
  // Only what can open markup mid-line; an intraword `_` never does in GFM, so ids stay readable.
  return showControls(text).replace(/\r\n|\r|\n/g, ' ').replace(/[\\`*[\]<>|~&]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, (c) => `\\${c}`);
}

/** A fenced block whose fence cannot be closed by its content. */
export function mdFence(text: string, info = ''): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${showControls(text)}\n${fence}`;
}

const statusLabel: Record<RequirementResult['status'], string> = { passed: 'passed', failed: '**FAILED**', flaky: '**flaky**', untested: '**untested**', 'not-applicable': 'not applicable' };

function requirementsTable(run: RunResult): string[] {
  const rows = sortedRequirements(run.requirements).map((r) => {
    const proven = r.provenBy.length > 0 ? r.provenBy.map(mdText).join(', ') : r.status === 'not-applicable' ? '' : '**unproven**';
    return `| ${mdText(r.id)} | ${r.level} | ${mdText(r.title)} | ${mdText(sourceLabel(r.source))} | ${statusLabel[r.status]}${(r.status === 'failed' || r.status === 'flaky') && baselinedEntry(run, r.id) ? ' (known, baselined)' : ''} | ${proven} |`;
  });
  return ['| id | level | title | source | status | proven by |', '| --- | --- | --- | --- | --- | --- |', ...rows];
}

function findingBlock(f: Finding, run: RunResult): string[] {
  const where = f.scenario === undefined ? '' : ` in scenario ${mdText(f.scenario)}`;
  const replay = replayCommand(f, run);
  return [
    `- **${mdText(f.code)}** at ${mdText(f.path)}${where}: ${mdText(f.message)}`,
    '',
    'expected:',
    '',
    mdFence(formatValue(f.expected), 'json'),
    '',
    'actual:',
    '',
    mdFence(formatValue(f.actual), 'json'),
    '',
    ...(replay === undefined ? [] : ['replay:', '', mdFence(replay, 'sh'), '']),
  ];
}

/** Identical findings once, with a count and where each was (collapsed: GitHub renders <details>; the text is escaped). */
function groupBlock(g: FindingGroup, run: RunResult): string[] {
  const places = groupLocations(g);
  const shown = places.slice(0, 200);
  return [
    `- ×${g.count} identical findings (same requirement, code and message but for its numbers and quoted values); the first:`,
    '',
    ...findingBlock(g.first, run),
    '<details><summary>where</summary>',
    '',
    ...shown.map((p) => `- ${mdText(p)}`),
    ...(places.length > shown.length ? [`- and ${places.length - shown.length} more (report.json lists every one)`] : []),
    '',
    '</details>',
    '',
  ];
}

function failureSection(r: RequirementResult, run: RunResult, known?: Parameters<typeof baselinedText>[0]): string[] {
  return [
    `### ${mdText(r.id)} (${r.level}): ${mdText(r.title)}`,
    '',
    ...(known ? [`**${mdText(baselinedText(known))}**`, ''] : []),
    `Source: ${mdText(sourceLabel(r.source))}: "${mdText(r.quote)}"`,
    '',
    ...(r.findings.length === 0 ? ['No finding was recorded for this failure.', ''] : groupFindings(r.findings).flatMap((g) => (g.count === 1 ? findingBlock(g.first, run) : groupBlock(g, run)))),
  ];
}

const bullet = (r: RequirementResult, extra?: string) => `- ${mdText(r.id)} (${r.level}, ${r.part}): ${mdText(r.title)}${extra ? `: ${mdText(extra)}` : ''}`;

/** A baselined run: the gate the exit code followed, then the known failures apart from new ones, then the entries with their fix. */
function baselineSection(run: RunResult, known: ReturnType<typeof splitBaselined>['known']): string[] {
  if (!run.baseline) return [];
  const rows = baselineRows(run).map((e) => `| ${e.index} | ${mdText(e.requirement)} | ${e.status.startsWith('STALE') ? `**${mdText(e.status)}**` : mdText(e.status)} | ${mdText(e.detail)} | ${mdText(e.reason)} | ${e.issue ? mdText(e.issue) : ''} |`);
  return [
    `## Known failures, baselined (${known.length})`,
    '',
    'These failures are listed in the baseline, so they do not fail the baseline gate; they still count against the verdict.',
    '',
    ...known.flatMap(({ r, entry }) => failureSection(r, run, entry)),
    `## Baseline entries (${mdText(run.baseline.file)})`,
    '',
    '| # | requirement | in this run | detail | reason | issue |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ];
}

export function renderMarkdown(run: RunResult): string {
  const groups = groupRequirements(run);
  const failed = splitBaselined(run, groups.failed);
  const flaky = splitBaselined(run, groups.flaky);
  const baseline = baselineSentence(run);
  const c = run.counts;
  const shard = run.shard ? ` · shard ${run.shard.index} of ${run.shard.total}` : '';
  const lines = [
    '# ADK conformance report',
    '',
    `## ${mdText(verdictSentence(run))}`,
    '',
    ...(baseline ? [`> **${mdText(baseline)}**`, ''] : []),
    `> ${mdText(gateSentence(run))}`,
    '',
    `Target: ${mdText(run.target.description)} (parts: ${run.target.parts.join(', ')}) · seed ${run.seed} (${run.seedSource ?? 'given'})${shard} · started ${mdText(run.startedAt)} · ${run.durationMs} ms · ${mdText(`${run.tool.name} ${run.tool.version}`)}`,
    '',
    ...(run.selection ? [`> Selection: ${mdText(run.selection.description)}.`, ''] : []),
    ...(run.spec ? [`> Judged against ${mdText(describeSpec(run.spec))} (docs/versioning.md "Spec versions").`, ''] : []),
    ...(run.startup && run.startup.length > 0 ? [`> ${mdText(describeStartup(run.startup))}.`, ''] : []),
    '## Counts',
    '',
    '| level | passed | failed | flaky | untested | not applicable |',
    '| --- | --- | --- | --- | --- | --- |',
    ...countLines(run).map((l) => `| ${l.level} | ${l.passed} | ${l.failed} | ${l.flaky} | ${l.untested} | ${l.notApplicable} |`),
    '',
    `${runsSentence(run)} ${mutantsText(run)} Unproven requirements: ${c.unproven}.`,
    '',
    '## Requirements',
    '',
    ...requirementsTable(run),
    '',
    run.baseline ? '## New failures (not in the baseline)' : '## Failures',
    '',
    ...(failed.fresh.length === 0 ? [run.baseline && failed.known.length > 0 ? 'No requirement failed outside the baseline.' : 'No requirement failed.', ''] : failed.fresh.flatMap((r) => failureSection(r, run))),
    ...baselineSection(run, [...failed.known, ...flaky.known]),
    ...(flaky.fresh.length === 0 ? [] : [
      '## Flaky (counted as failures)',
      '',
      'Each failed a timing check once and passed when its run was repeated alone: the findings of the first run are the evidence. Run again on a quiet machine, or look for a race.',
      '',
      ...flaky.fresh.flatMap((r) => failureSection(r, run)),
    ]),
    '## Untested (counted as failures)',
    '',
    ...(groups.untested.length === 0 ? ['Every applicable requirement was tested.'] : groups.untested.map((r) => bullet(r, r.reason ?? 'no reason recorded'))),
    '',
    '## Unproven requirements',
    '',
    'No mutant has shown that the checks of these requirements can fail, so their passing proves less.',
    '',
    ...(groups.unproven.length === 0 ? ['None: every applicable requirement is proven by a mutant.'] : groups.unproven.map((r) => bullet(r))),
    '',
    '## Not applicable (excluded from the verdict)',
    '',
    ...(groups.notApplicable.length === 0 ? ['None.'] : groups.notApplicable.map((r) => bullet(r, r.reason ?? 'no reason recorded'))),
    '',
    '## Scenarios',
    '',
    '| scenario | part | status | duration (ms) | harness error |',
    '| --- | --- | --- | --- | --- |',
    ...run.scenarios.map((s) => `| ${mdText(s.scenario)} | ${s.part} | ${s.status === 'passed' ? 'passed' : `**${s.status}**`} | ${s.durationMs} | ${s.error === undefined ? '' : mdText(s.error)} |`),
    '',
  ];
  return lines.join('\n');
}
