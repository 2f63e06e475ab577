/**
 * docs/briefing-mapping.md from harness/mapping/briefing-mapping.json: `npm run gen:mapping`
 * writes it; test/mapping.test.ts fails when the page is stale. Worked examples show the frames
 * the mock renders for them (the same frames the implementations are tested on).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../core/spec-docs.ts';
import { loadScenarios } from '../../scenarios/loader.ts';
import { loadMapping, mappingExamples } from './index.ts';
import { renderExample } from './render-example.ts';
import type { BriefingMapping, MappingExample, MappingRule } from './types.ts';
import { inSpec, specVersions } from '../spec-version.ts';

export const mappingDocFile = join(repoRoot, 'docs', 'briefing-mapping.md');

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const maxFrame = 600;

function outlineLine(o: MappingExample['outline'][number]): string {
  const proof = o.confidence === undefined ? '' : o.confidence === null ? ' · no confidence' : ` · confidence ${o.confidence}`;
  const cites = o.citationSources ? ` · cites ${o.citationSources.join('; ')}` : '';
  return `${o.type}${o.state ? ` ${o.state}` : ''} from ${o.source_agent ?? '(any)'}${proof}${cites}`;
}

function exampleBlock(id: string, example: MappingExample, frames: string[], shownAt: Map<string, string>): string[] {
  const shown = frames.map((f) => (f.length > maxFrame ? `${f.slice(0, maxFrame)}… (${f.length} characters)` : f));
  const input = example.scenario ? `corpus scenario \`${example.scenario}\`` : `run script in ${example.dialect}${example.streaming ? ', streaming' : ''} (in the JSON)`;
  // A corpus scenario's frames are shown once; later examples of the same run point back.
  const earlier = example.scenario ? shownAt.get(example.scenario) : undefined;
  if (example.scenario && !earlier) shownAt.set(example.scenario, id);
  return [
    `<details><summary><strong>${id}</strong>: ${example.title}</summary>`,
    '',
    ...(earlier
      ? [`Input: ${input}; outcome \`${example.outcome ?? 'complete'}\`; its frames are shown under ${earlier}.`]
      : [`Input: ${input}; outcome \`${example.outcome ?? 'complete'}\`. The frames (\`data:\` payloads) the mock renders:`, '', '```', ...shown, '```']),
    '',
    'The briefings, in order:',
    '',
    ...example.outline.map((o, i) => `${i + 1}. ${outlineLine(o)}`),
    ...(example.ledger ? ['', `confidence_ledger: \`${JSON.stringify(example.ledger)}\``] : []),
    '',
    '</details>',
    '',
  ];
}

/** The spec versions a field belongs to: `1.0, 1.1`, or `1.1` for a field 1.1 brought in. */
function fieldVersions(f: BriefingMapping['fields'][number]): string {
  return specVersions.filter((v) => inSpec({ ...(f.introducedIn ? { introducedIn: f.introducedIn } : {}), ...(f.removedIn ? { removedIn: f.removedIn } : {}) }, v)).join(', ');
}

export function renderMappingDoc(): string {
  const mapping = loadMapping();
  const corpus = new Map(loadScenarios().scenarios.map((s) => [s.id, s]));
  const examples = new Map(mappingExamples(mapping).map((e) => [e.example, e.id]));
  const shownAt = new Map<string, string>();
  const lines: string[] = [`# ${mapping.title}`, '', mapping.intro, '', '## Fields of every event', '', '| field | spec | value | compared | how |', '| --- | --- | --- | --- | --- |'];
  for (const f of mapping.fields) {
    // A version's differences follow the common text, each on its own line of the cell.
    const per = (key: 'value' | 'compared' | 'how') => Object.entries(f.versions ?? {}).filter(([, v]) => v[key] !== undefined).map(([version, v]) => `<br>*${version}:* ${cell(String(v[key]))}`).join('');
    lines.push(`| \`${f.field}\` | ${fieldVersions(f)} | ${cell(f.value)}${per('value')} | ${f.compared}${per('compared')} | ${cell(f.how ?? '')}${per('how')} |`);
  }
  lines.push('', '"exact": equal to what the rules give; "checked": a requirement checks a property of it; "free": any schema-valid value.', '');
  for (const section of mapping.sections) {
    lines.push(`## ${section.heading}`, '');
    if (section.body) lines.push(section.body, '');
    lines.push('| rule | ADK stream | briefings | compared exactly / free | requirements |', '| --- | --- | --- | --- | --- |');
    for (const r of section.rules) lines.push(`| ${r.id} | ${cell(r.when)} | ${cell(r.then)}${r.notes ? ` (${cell(r.notes)})` : ''} | ${cell(r.compared)}${r.free ? ` / free: ${cell(r.free)}` : ''} | ${r.requirements.join(', ')} |`);
    lines.push('');
    for (const r of section.rules) lines.push(...ruleDetail(r, (e) => examples.get(e) ?? '?', corpus, shownAt));
  }
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function ruleDetail(r: MappingRule, idOf: (e: MappingExample) => string, corpus: Parameters<typeof renderExample>[2], shownAt: Map<string, string>): string[] {
  const out = [`### ${r.id}`, '', `Source: ${r.source.doc} §${r.source.section}: "${r.source.quote}"`, ''];
  if (r.choice) out.push(`**The seeds are silent or disagree; the kit's choice:** ${r.choice}`, '');
  for (const example of r.examples ?? []) out.push(...exampleBlock(idOf(example), example, renderExample(example, idOf(example), corpus).frames, shownAt));
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(mappingDocFile, renderMappingDoc());
  process.stdout.write(`wrote ${mappingDocFile}\n`);
}
