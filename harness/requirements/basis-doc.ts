/** docs/requirements.md's account of each requirement's basis: its sources, the level they support, what they allow. */
import type { Requirement } from '../model.ts';
import { levelRank, type Basis, type Evidence } from './basis.ts';

const inline = (s: string) => s.replace(/\n/g, ' ');

export function renderEvidence(e: Evidence): string {
  switch (e.kind) {
    case 'seed': return `seed: ${e.doc} § ${inline(e.section)}: “${inline(e.quote)}”${e.binding ? ` (bound by “${inline(e.binding)}”)` : ''}`;
    case 'real-server': return `real server: ${e.repo} \`${e.path}\` @${e.commit.slice(0, 8)}: ${inline(e.behaviour)}${e.recorded ? ` (research/${e.recorded.doc}.md)` : ''}`;
    case 'field-report': return `field report: ${e.report}: ${inline(e.reported)} (research/${e.recorded.doc}.md)`;
    case 'whatwg': return `WHATWG SSE § ${e.rule}: “${inline(e.quote)}”`;
  }
}

/** One requirement's basis as a short Markdown block. */
export function renderBasis(r: Requirement, b: Basis | undefined): string[] {
  if (!b) return [`**${r.id}** · ${r.level} · no basis recorded`, ''];
  const short = levelRank[b.supports] < levelRank[r.level];
  const head = `**${r.id}** · ${r.level} · ${short ? `its sources support only ${b.supports}: to be retired and reissued as ${b.supports}` : `its sources support ${b.supports}`}`;
  const lines = [head, ...b.evidence.map((e) => `- ${renderEvidence(e)}`)];
  if (b.why) lines.push(`- why not MUST: ${inline(b.why)}`);
  lines.push(`- allows: ${b.allows.map(inline).join('; ')}`);
  if (b.note) lines.push(`- where the seed's rule is wrong: ${inline(b.note.seedRule)}. Judged instead: ${inline(b.note.judges)}. Scenario: \`${b.note.scenario}\`${b.note.mutant ? `; mutant: \`${b.note.mutant}\`` : ''}`);
  return [...lines, ''];
}
