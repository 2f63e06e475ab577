/**
 * report.html: one self-contained file a person opens from disk. Verdict first, then failures
 * (expanded), untested and unproven requirements, the requirements table with their spec
 * sections, and each scenario's timeline in ms. No network: inline CSS, inline data, one inline
 * script pinned by hash in the page's CSP; without JS every row is shown and failures are open.
 *
 * Everything that comes from a run is escaped by `esc`; the run itself is embedded as a JSON data
 * block with `<`, `>`, `&` escaped so it can never close its <script> element.
 */
import { faultCatalog } from '../../mock-adk/core/faults.ts';
import { runsSentence } from './counting.ts';
import { groupFindings, groupLocations, type FindingGroup } from './finding-groups.ts';
import type { Finding, RequirementResult, RunResult, ScenarioResult, TimelineEntry } from '../model.ts';
import { describeVerdict, levels, requirementStatuses } from '../verdict.ts';
import { describeSpec } from '../spec-version.ts';
import { partsTable, requirementSummary } from '../parts.ts';
import { contentSecurityPolicy, css, script } from './html-assets.ts';
import { baselineRows, baselineSentence, baselinedEntry, baselinedText, baselineTitle, splitBaselined } from './baseline-format.ts';
import { countLines, mutantsText, formatValue, gateSentence, groupRequirements, replayCommand, showControls, sortedRequirements, sourceLabel } from './format.ts';

export function esc(text: string): string {
  return showControls(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** JSON that is inert inside <script type="application/json">. */
export function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A fragment id from arbitrary text: only characters that need no escaping anywhere. */
const anchor = (prefix: string, id: string) => `${prefix}-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
/** A scenario runs once per part: `report.html#<part>/<scenario>` names one run, so ids never repeat. */
export const scenarioAnchor = (part: string, scenario: string) => `${part}/${scenario}`.replace(/[^A-Za-z0-9_/:-]/g, '_');

/**
 * Seed quotes are Markdown (`**Tier 1: Immediate (< 100ms)**`, `` `Content-Type` ``): shown as text,
 * their emphasis and code rendered, never the raw asterisks. Takes escaped text.
 */
export function inlineMarkdown(escaped: string): string {
  return escaped
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[\s(])\*([^*\s][^*]*)\*(?=[\s).,:;]|$)/g, '$1<em>$2</em>')
    .replace(/^#{1,6}\s+/, '')
    .replace(/^[-*]\s+/, '');
}

const statusText: Record<string, string> = { passed: 'passed', failed: 'FAILED', flaky: 'FLAKY', untested: 'untested', 'not-applicable': 'not applicable', errored: 'errored' };
const statusSpan = (status: string) => `<span class="status status-${esc(status)}">${esc(statusText[status] ?? status)}</span>`;
const unprovenFlag = '<span class="flag flag-unproven" title="no mutant has shown that this requirement\'s checks can fail">UNPROVEN</span>';

function header(run: RunResult): string {
  const shard = run.shard ? ` · shard ${run.shard.index} of ${run.shard.total}` : '';
  return `<header class="v-${esc(run.verdict.replace(/ /g, '-'))}" id="top"><div>
<p class="eyebrow">ADK conformance report</p>
<h1 id="verdict">${esc(run.verdict)}</h1>
<p id="verdict-observed">${esc(describeVerdict(run))}</p>
<p id="gate-result"><strong>The gate (${esc(run.gate.level)}) ${run.verdict === 'could not evaluate' ? 'could not be judged: nothing was observed (exit 3)' : run.passed ? 'is met' : 'is not met'}.</strong></p>
${baselineSentence(run) ? `<p id="baseline-gate"><strong>${esc(baselineSentence(run) ?? '')}</strong></p>
` : ''}<p class="gate" id="gate-policy">${esc(gateSentence(run))}</p>
<p class="meta">Target: ${esc(run.target.description)} (parts: ${esc(run.target.parts.join(', '))}) · seed ${run.seed} (${esc(run.seedSource ?? 'given')})${shard} · started ${esc(run.startedAt)} · ${run.durationMs} ms · ${esc(run.tool.name)} ${esc(run.tool.version)}</p>
${run.selection ? `<p class="gate" id="selection">Selection: ${esc(run.selection.description)}.</p>
` : ''}${run.spec ? `<p class="gate" id="spec">Judged against ${esc(describeSpec(run.spec))}.</p>
` : ''}</div></header>`;
}

/**
 * What a part's run observed, in words that cannot be read as a certification it did not earn: a
 * non-compliant part never says "certified" (issue 28 §2: "certified: 25 of 31 requirements passed").
 */
export function partSummary(mine: readonly Pick<RequirementResult, 'status' | 'level'>[]): string {
  const n = (status: RequirementResult['status']) => mine.filter((r) => r.status === status).length;
  const short = mine.filter((r) => r.level === 'MUST' && r.status !== 'passed').length;
  const observed = mine.filter((r) => r.status === 'passed' || r.status === 'failed' || r.status === 'flaky').length;
  const state = observed === 0 ? 'nothing observed' : short > 0 ? 'not compliant' : mine.every((r) => r.status === 'passed') ? 'every requirement passed' : 'every MUST passed';
  const rest = (['failed', 'flaky', 'untested'] as const).filter((s) => n(s) > 0).map((s) => `${n(s)} ${s}`);
  return `${state}: ${n('passed')} of ${mine.length} passed${rest.length ? `, ${rest.join(', ')}` : ''}`;
}

/** Every part of the pipeline (harness/parts.ts), whether this run certified it, and how a team would. */
function partsSection(run: RunResult): string {
  const rows = partsTable.map((p) => {
    const under = run.target.parts.includes(p.part);
    const mine = run.requirements.filter((r) => r.part === p.part && r.status !== 'not-applicable');
    return `<tr><th>${esc(p.label)}</th><td>${under ? esc(partSummary(mine)) : 'not under test in this run'}</td><td><code>${esc([p.flags.url, p.flags.command, p.flags.module].filter(Boolean).join(' | '))}</code></td><td>${esc(requirementSummary(p.part))}</td><td>${esc(p.contract)}</td></tr>`;
  });
  return `<section id="parts"><h2>Parts of the pipeline</h2>
<table><thead><tr><th>part</th><th>in this run</th><th>flags</th><th>requirements</th><th>contract</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
</section>`;
}

function counts(run: RunResult): string {
  const c = run.counts;
  const rows = countLines(run).map((l) => `<tr><th>${l.level}</th><td class="num">${l.passed}</td><td class="num">${l.failed}</td><td class="num">${l.flaky}</td><td class="num">${l.untested}</td><td class="num">${l.notApplicable}</td></tr>`);
  return `<section id="counts"><h2>Counts</h2>
<table><thead><tr><th>level</th><th class="num">passed</th><th class="num">failed</th><th class="num">flaky</th><th class="num">untested</th><th class="num">not applicable</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<p>${esc(runsSentence(run))} ${mutantsText(run)} Unproven requirements: ${c.unproven}.</p>
</section>`;
}

function finding(f: Finding, run: RunResult, part: string): string {
  const replay = replayCommand(f, run);
  return `<div class="finding">
<p class="finding-message">${linkTerms(esc(f.message))}</p>
<p class="muted"><code>${esc(f.code)}</code> at <code>${esc(f.path)}</code>${f.scenario === undefined ? '' : ` in scenario <a href="#${esc(scenarioAnchor(part, f.scenario))}">${esc(f.scenario)}</a>`}</p>
<dl><dt>expected</dt><dd><pre>${esc(formatValue(f.expected))}</pre></dd><dt>actual</dt><dd><pre>${esc(formatValue(f.actual))}</pre></dd>${replay === undefined ? '' : `<dt>replay</dt><dd><pre class="replay">${esc(replay)}</pre></dd>`}</dl>
</div>`;
}

/** Identical findings (harness/reporters/finding-groups.ts): the first whole, a count, and every place it was seen, collapsed. */
function findingGroup(g: FindingGroup, run: RunResult, part: string): string {
  const places = groupLocations(g);
  const shown = places.slice(0, maxListed);
  const scenarios = new Set(g.findings.map((f) => f.scenario ?? '')).size;
  return finding(g.first, run, part).replace('<div class="finding">', `<div class="finding finding-group"><p class="count">×${g.count} identical findings (same requirement, code and message but for its numbers and quoted values) in ${scenarios} scenario${scenarios === 1 ? '' : 's'}; the first is shown</p>`).replace(/<\/div>$/, `<details class="places"><summary>where: ${g.count} places</summary><ul class="plain">${shown.map((p) => `<li><code>${esc(p)}</code></li>`).join('')}${places.length > shown.length ? `<li>and ${places.length - shown.length} more (report.json lists every one)</li>` : ''}</ul></details>\n</div>`);
}

/** A group's places listed in the page; report.json keeps every finding. */
const maxListed = 500;

function failures(run: RunResult, failed: RequirementResult[], section = { id: 'failures', title: 'Failures', intro: '' }): string {
  const items = failed.map((r) => `<details class="failure" open id="${anchor('failure', r.id)}"><summary>${esc(r.id)} (${r.level}): ${esc(r.title)}</summary><div class="body">
${((known) => (known ? `<p class="baselined"><strong>${esc(baselinedText({ reason: known.reason }))}</strong>${known.issue ? ` (${issueLink(known.issue)})` : ''}</p>
` : ''))(baselinedEntry(run, r.id))}<p>Source: ${esc(sourceLabel(r.source))}</p><blockquote>${inlineMarkdown(esc(r.quote))}</blockquote>
${r.findings.length === 0 ? '<p>No finding was recorded for this failure.</p>' : groupFindings(r.findings).map((g) => (g.count === 1 ? finding(g.first, run, r.part) : findingGroup(g, run, r.part))).join('\n')}
</div></details>`);
  return `<section id="${section.id}"><h2>${esc(section.title)} (${failed.length})</h2>${section.intro ? `<p>${esc(section.intro)}</p>` : ''}
${items.length === 0 ? '<p>No requirement failed.</p>' : items.join('\n')}
</section>`;
}

/** An issue link from a baseline: a link only when it is http(s) (the schema's rule), else text: a report.json may come from anywhere. */
const issueLink = (url: string) => (/^https?:\/\//i.test(url) ? `<a href="${esc(url)}">${esc(url)}</a>` : esc(url));

/** The baseline's entries and what this run made of each (confirmed, stale: remove it, not exercised). */
function baselineEntries(run: RunResult): string {
  if (!run.baseline) return '';
  const rows = baselineRows(run).map((e) => `<tr class="${e.status.startsWith('STALE') ? 'row-failed' : ''}"><td class="num">${e.index}</td><td><a href="#${anchor('req', e.requirement)}"><code>${esc(e.requirement)}</code></a></td><td>${e.status.startsWith('STALE') ? `<strong>${esc(e.status)}</strong>` : esc(e.status)}</td><td>${esc(e.detail)}</td><td>${esc(e.reason)}</td><td>${e.issue ? issueLink(e.issue) : ''}</td></tr>`);
  const fresh = run.baseline.newFailures.map((f) => `<li><a href="#${anchor('req', f.requirement)}"><code>${esc(f.requirement)}</code></a>: ${esc(f.detail)}</li>`);
  return `<section id="baseline"><h2>Baseline entries (${esc(run.baseline.file)})</h2>
<p>${esc(run.baseline.summary)}. Known failures still count against the verdict; the baseline changes only the exit code.</p>
${fresh.length > 0 ? `<p><strong>New failures, in no entry:</strong></p><ul class="plain">${fresh.join('\n')}</ul>` : ''}
<table><thead><tr><th class="num">#</th><th>requirement</th><th>in this run</th><th>detail</th><th>reason</th><th>issue</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
</section>`;
}

function list(id: string, title: string, intro: string, items: RequirementResult[], empty: string, extra: (r: RequirementResult) => string): string {
  const lis = items.map((r) => `<li><a href="#${anchor('req', r.id)}">${esc(r.id)}</a> (${r.level}, ${esc(r.part)}): ${esc(r.title)}${extra(r)}</li>`);
  return `<section id="${id}"><h2>${esc(title)} (${items.length})</h2>${intro ? `<p>${esc(intro)}</p>` : ''}
${lis.length === 0 ? `<p>${esc(empty)}</p>` : `<ul class="plain">${lis.join('\n')}</ul>`}
</section>`;
}

function requirementsTable(run: RunResult): string {
  const boxes = (name: string, values: readonly string[]) => values.map((v) => `<label><input type="checkbox" name="${name}" value="${esc(v)}" checked> ${esc(statusText[v] ?? v)}</label>`).join(' ');
  const rows = sortedRequirements(run.requirements).map((r) => {
    const proven = r.provenBy.length > 0 ? esc(r.provenBy.join(', ')) : r.status === 'not-applicable' ? '' : unprovenFlag;
    const link = r.status === 'failed' ? ` <a href="#${anchor('failure', r.id)}">findings</a>` : '';
    return `<tr id="${anchor('req', r.id)}" class="row-${esc(r.status)}" data-status="${esc(r.status)}" data-level="${r.level}"><td><code>${esc(r.id)}</code></td><td>${r.level}</td><td>${esc(r.part)}</td><td>${esc(r.title)}</td><td>${esc(sourceLabel(r.source))}</td><td>${statusSpan(r.status)}${link}${r.reason ? `<br><span class="muted">${esc(r.reason)}</span>` : ''}</td><td>${proven}</td></tr>`;
  });
  return `<section id="requirements"><h2>Requirements (${run.requirements.length})</h2>
<div class="filters" id="filters" hidden><fieldset><legend>status</legend>${boxes('status', requirementStatuses)}</fieldset><fieldset><legend>level</legend>${boxes('level', levels)}</fieldset><button type="button" data-details="open">expand all</button><button type="button" data-details="close">collapse all</button></div>
<table id="requirements-table"><thead><tr><th>id</th><th>level</th><th>part</th><th>title</th><th>source (seed section)</th><th>status</th><th>proven by</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
</section>`;
}

function timeline(s: ScenarioResult): string {
  const span = Math.max(1, s.durationMs, ...s.timeline.map((e) => e.t));
  const marks = s.timeline.map((e: TimelineEntry) => `<span class="k-${esc(e.kind)}" style="left: ${((Math.max(0, e.t) / span) * 100).toFixed(2)}%" title="${esc(`${e.t} ms ${e.kind}`)}"></span>`);
  const ms = (t: number) => (Number.isInteger(t) ? String(t) : t.toFixed(1));
  const items = s.timeline.map((e) => `<li><span class="t">${esc(ms(e.t))} ms</span><span class="kind">${esc(e.kind)}</span><span class="summary">${esc(e.summary)}</span></li>`);
  return `<div class="track" aria-hidden="true">${marks.join('')}</div>
<ol class="timeline">${items.length === 0 ? '<li><span class="t"></span><span class="kind"></span><span class="summary">no event was recorded</span></li>' : items.join('\n')}</ol>`;
}

/** The whole input of a scenario that did not pass: every line in full, and the same as an NDJSON download. */
function inputBlock(s: ScenarioResult): string {
  const input = s.input;
  if (!input) return '';
  const ndjson = input.lines.map((l) => `${l}\n`).join('');
  const file = `${s.part}-${s.scenario}.input.ndjson`.replace(/[^A-Za-z0-9_.-]/g, '_');
  const rows = input.lines.map((l, i) => `<li><span class="t">${i}</span><pre>${esc(l)}</pre></li>`);
  return `<details class="input"><summary>Input: ${input.lines.length} data line${input.lines.length === 1 ? '' : 's'}, in full${input.truncated ? ' (cut: see below)' : ''}</summary>
<p><a download="${esc(file)}" href="data:application/x-ndjson;charset=utf-8,${esc(encodeURIComponent(ndjson))}">Download the input as NDJSON</a> (pipe it into your implementation to reproduce this run without the harness).</p>
<ol class="frames">${rows.join('\n')}</ol>${input.truncated ? `\n<p class="muted">${esc(input.truncated)}</p>` : ''}
</details>`;
}

/** A probe reports one requirement several times (one outcome per case): listed once, the worst status first. */
export function outcomesOnce(outcomes: ScenarioResult['outcomes']): Array<{ requirement: string; status: ScenarioResult['outcomes'][number]['status']; reasons: string[] }> {
  const rank = { failed: 0, flaky: 1, untested: 2, passed: 3 } as const;
  const by = new Map<string, { requirement: string; status: ScenarioResult['outcomes'][number]['status']; reasons: string[] }>();
  for (const o of outcomes) {
    const seen = by.get(o.requirement);
    if (!seen) { by.set(o.requirement, { requirement: o.requirement, status: o.status, reasons: o.reason ? [o.reason] : [] }); continue; }
    if ((rank[o.status as keyof typeof rank] ?? 4) < (rank[seen.status as keyof typeof rank] ?? 4)) seen.status = o.status;
    if (o.reason && !seen.reasons.includes(o.reason)) seen.reasons.push(o.reason);
  }
  return [...by.values()];
}

function scenarios(run: RunResult): string {
  const items = run.scenarios.map((s) => {
    const outcomes = outcomesOnce(s.outcomes).map((o) => `<li><a href="#${anchor('req', o.requirement)}">${esc(o.requirement)}</a>: ${statusSpan(o.status)}${o.reasons.length ? ` <span class="muted">${esc(o.reasons.join('; '))}</span>` : ''}</li>`);
    return `<details class="scenario"${s.status === 'passed' ? '' : ' open'} id="${esc(scenarioAnchor(s.part, s.scenario))}"><summary>${esc(s.scenario)} · ${esc(s.part)} · ${statusSpan(s.status)} · ${s.durationMs} ms</summary><div class="body">
${s.error === undefined ? '' : `<p class="status-failed">Harness error (not the implementation's fault): ${esc(s.error)}</p>`}
<p>Replay: <code>${esc(s.replay)}</code></p>
<p>Timeline (t in ms from the request):</p>
${timeline(s)}
<p>Checks:</p><ul class="plain">${outcomes.join('\n')}</ul>
${s.input ? inputBlock(s) : ''}
</div></details>`;
  });
  return `<section id="scenarios"><h2>Scenarios (${run.scenarios.length})</h2>
${items.join('\n')}
</section>`;
}

/**
 * A shrunk generated run names its framing faults ("framing chunk-size, crlf"): each becomes a
 * link to its definition in the report's Terms section, drawn from the mock's fault catalog.
 */
export function linkTerms(escapedMessage: string): string {
  return escapedMessage.replace(/framing ([a-z0-9-]+(?:, [a-z0-9-]+)*)/g, (whole, list: string) => `framing ${list.split(', ').map((name) => (faultCatalog[name] ? `<a href="#term-${name}">${name}</a>` : name)).join(', ')}`);
}

function terms(run: RunResult): string {
  const used = new Set<string>();
  for (const r of run.requirements) for (const f of r.findings) for (const m of f.message.matchAll(/framing ([a-z0-9-]+(?:, [a-z0-9-]+)*)/g)) for (const n of (m[1] ?? '').split(', ')) if (faultCatalog[n]) used.add(n);
  if (used.size === 0) return '';
  const items = [...used].sort().map((n) => `<dt id="term-${n}"><code>${n}</code></dt><dd>${esc(faultCatalog[n]?.description ?? '')}</dd>`);
  return `<section id="terms"><h2>Terms</h2>
<p>The framing of a generated run: how its bytes are cut, spaced or spelled on the wire (the mock's fault catalog, docs/mock.md; docs/generated-runs.md).</p>
<dl>${items.join('\n')}</dl>
</section>`;
}

export function renderHtml(run: RunResult): string {
  const groups = groupRequirements(run);
  const failed = splitBaselined(run, groups.failed);
  const flaky = splitBaselined(run, groups.flaky);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ADK conformance: ${esc(run.verdict)}${esc(baselineTitle(run))}</title>
<style>${css}</style>
</head>
<body>
${header(run)}
<main>
${counts(run)}
${partsSection(run)}
${failures(run, failed.fresh, run.baseline ? { id: 'failures', title: 'New failures, not in the baseline', intro: '' } : undefined)}
${failed.known.length + flaky.known.length === 0 ? '' : failures(run, [...failed.known, ...flaky.known].map((k) => k.r), { id: 'baselined', title: 'Known failures, baselined', intro: 'Listed in the baseline, so they do not fail the baseline gate; they still count against the verdict.' })}
${baselineEntries(run)}
${flaky.fresh.length === 0 ? '' : failures(run, flaky.fresh, { id: 'flaky', title: 'Flaky, counted as failures', intro: 'Each failed a timing check once and passed when its run was repeated alone; the findings of the first run are the evidence.' })}
${list('untested', 'Untested, counted as failures', '', groups.untested, 'Every applicable requirement was tested.', (r) => `: <span class="muted">${esc(r.reason ?? 'no reason recorded')}</span>`)}
${list('unproven', 'Unproven requirements', 'No mutant has shown that the checks of these requirements can fail, so their passing proves less.', groups.unproven, 'None: every applicable requirement is proven by a mutant.', () => ` ${unprovenFlag}`)}
${requirementsTable(run)}
${scenarios(run)}
${list('not-applicable', 'Not applicable, excluded from the verdict', '', groups.notApplicable, 'None.', (r) => `: <span class="muted">${esc(r.reason ?? 'no reason recorded')}</span>`)}
${terms(run)}
</main>
<script type="application/json" id="run-data">${inlineJson(run)}</script>
<script>${script}</script>
</body>
</html>
`;
}
