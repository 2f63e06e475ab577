/**
 * docs/requirements.md is generated from the registry (npm run gen:requirements);
 * harness/requirements/requirements.test.ts fails when the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../core/spec-docs.ts';
import type { Requirement } from '../model.ts';
import { requirements } from './index.ts';

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
};

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderRequirementsDoc(all: Iterable<Requirement> = requirements.values()): string {
  const list = [...all];
  const lines = [
    '# Requirements',
    '',
    'Generated from `harness/requirements/` by `npm run gen:requirements`; do not edit by hand.',
    'Every requirement quotes the sentence of its source it comes from. An id is never reused: a',
    'changed requirement gets a new id.',
    '',
    `${list.length} requirements: ${(['MUST', 'SHOULD', 'MAY'] as const).map((l) => `${list.filter((r) => r.level === l).length} ${l}`).join(', ')}.`,
  ];
  for (const part of Object.keys(partTitles) as Requirement['part'][]) {
    const rows = list.filter((r) => r.part === part);
    if (rows.length === 0) continue;
    lines.push('', `## ${partTitles[part]}`, '', '| id | level | requirement | source | quote |', '| --- | --- | --- | --- | --- |');
    for (const r of rows) lines.push(`| ${r.id} | ${r.level} | ${cell(r.title)} | ${r.source.doc} § ${cell(r.source.section)} | ${cell(r.quote)} |`);
  }
  return lines.join('\n') + '\n';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(requirementsDocPath, renderRequirementsDoc());
  process.stdout.write(`wrote ${requirementsDocPath}\n`);
}
