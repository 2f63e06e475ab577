/**
 * docs/requirements.md is generated from the registry (npm run gen:requirements);
 * harness/requirements/requirements.test.ts fails when the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../core/spec-docs.ts';
import type { Requirement } from '../model.ts';
import { requirements } from './index.ts';
import { levelRank, type BasisTable } from './basis.ts';
import { requirementBasis } from './basis-index.ts';
import { renderBasis } from './basis-doc.ts';

export const requirementsDocPath = join(repoRoot, 'docs', 'requirements.md');

const partTitles: Record<Requirement['part'], string> = {
  gateway: 'Gateway (`POST /run_sse` proxy, seed 004)',
  transformer: 'Transformer (ADK events to AgentBriefingEvents, seeds 000, 001, 002)',
  normalizer: 'Block-index normaliser (seed 003)',
  client: 'POST SSE client (seed 004 "POST SSE Client", WHATWG SSE)',
  'audit-bridge': 'Audit bridge (seed 000)',
  'proof-stream': 'Proof-layer stream (seed 000 §4)',
  proxy: 'Cookie-to-bearer SSE proxy (seed 004 "Frontend SSE Proxy Pattern")',
  'adk-stream': 'ADK server stream (the upstream\'s own `/run_sse` bytes, judged live by `adk-conformance tap`)',
  'adk-server': 'Server helper (code that serves an adk-js Runner as `POST /run_sse`, `--adk-server-module`)',
};

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderRequirementsDoc(all: Iterable<Requirement> = requirements.values(), basis: BasisTable = requirementBasis): string {
  const list = [...all];
  const lines = [
    '# Requirements',
    '',
    'Generated from `harness/requirements/` by `npm run gen:requirements`; do not edit by hand.',
    'Every requirement quotes the sentence of its source it comes from. An id is never reused: a',
    'changed requirement gets a new id.',
    '',
    'Below each part\'s table, each requirement\'s basis (harness/requirements/<part>-basis.ts,',
    'checked by basis.test.ts): its sources, the level they support and the behaviours they allow,',
    'which its check must never fail. A MUST rests on a seed sentence in normative words (must,',
    'required, shall, always, never, only, zero, mandatory, critical, "rely on"), on a seed statement',
    'bound by its section (a requirements, criteria, specification, schema, interface, format or',
    'rules heading or label), or on what a real ADK server emits or needs or the field reported.',
    'WHATWG completeness beyond that is a SHOULD. Where the kit believes a seed\'s own rule is wrong,',
    'the basis says so, what is judged instead, and the scenario that shows the failure.',
    '',
    `${list.length} requirements: ${(['MUST', 'SHOULD', 'MAY'] as const).map((l) => `${list.filter((r) => r.level === l).length} ${l}`).join(', ')}.`,
  ];
  const short = list.filter((r) => { const b = basis[r.id]; return b !== undefined && levelRank[b.supports] < levelRank[r.level]; });
  if (short.length > 0) lines.push(`${short.length} of them are above the level their sources support, to be retired and reissued: ${short.map((r) => r.id).join(', ')}.`);
  for (const part of Object.keys(partTitles) as Requirement['part'][]) {
    const rows = list.filter((r) => r.part === part);
    if (rows.length === 0) continue;
    lines.push('', `## ${partTitles[part]}`, '', '| id | level | requirement | source | quote |', '| --- | --- | --- | --- | --- |');
    for (const r of rows) lines.push(`| ${r.id} | ${r.level} | ${cell(r.title)}${specNote(r)} | ${r.source.doc} § ${cell(r.source.section)} | ${cell(r.quote)} |`);
    lines.push('', '### Basis', '');
    for (const r of rows) lines.push(...renderBasis(r, basis[r.id]));
    lines.pop();
  }
  return lines.join('\n') + '\n';
}

/** ` (spec 1.1 and later)`, ` (spec 1.0 only)`: a requirement of some AgentBriefingEvent versions (docs/versioning.md "Spec versions"). */
function specNote(r: Requirement): string {
  if (r.introducedIn && r.removedIn) return ` (spec ${r.introducedIn} until ${r.removedIn})`;
  if (r.introducedIn) return ` (spec ${r.introducedIn} and later)`;
  if (r.removedIn) return ` (spec versions before ${r.removedIn})`;
  return '';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(requirementsDocPath, renderRequirementsDoc());
  process.stdout.write(`wrote ${requirementsDocPath}\n`);
}
