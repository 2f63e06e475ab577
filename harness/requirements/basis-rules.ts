/**
 * The rules a requirement's basis is held to (issue 28 §1), as a pure check that names every
 * violation with its id and its fix. basis.test.ts runs it over the registry.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, sharedDir, specDocText } from '../../core/spec-docs.ts';
import { whatwgSseRules } from '../../scenarios/spec-refs.ts';
import type { Level, Requirement } from '../model.ts';
import { levelRank, type Basis, type BasisTable, type Evidence, type ResearchDoc, type SeedEvidence } from './basis.ts';

/**
 * Words that make a seed sentence normative by themselves: RFC 2119's must, required and shall,
 * and the words that state a rule without exception in plain English: always, never, only, zero
 * ("Zero mutation"), mandatory, critical (the seed's "CRITICAL:" marks a line it insists on) and
 * "rely on" (what a consumer "can rely on" is a guarantee its producer gives). Descriptions,
 * benefits, options, examples ("e.g.") and "Recommended" are not normative: they support SHOULD.
 */
export const normativeWords = /\b(must|required|requires|shall|always|never|only|zero|mandatory|critical|rely on)\b/i;

/**
 * Words that make a heading, or a label inside the quote's own section, bind the statements under
 * it: an explicit contract or schema statement. Requirement(s)/required ("Field Requirements",
 * "Required Components:"), criteria ("Success Criteria": acceptance criteria say when the design
 * is done), specification ("Endpoint Specification": the endpoint's contract), schema and
 * interface (the declared shape of the data), format and rules ("Event Format:", "Format Rules:":
 * the exact form of what is sent). A design's code sketch, a diagram or a strategy is not bound.
 */
export const bindingWords = /\b(requirements?|required|criteria|specification|schema|interface|format|rules)\b/i;

type Heading = { text: string; level: number; start: number; end: number };

/** Markdown headings outside code fences (a `# comment` in a bash block is not a heading), each with its section's extent. */
export function headingsOf(text: string): Heading[] {
  const found: Array<Omit<Heading, 'end'>> = [];
  let offset = 0;
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^(#{1,6})\s+(.*)$/.exec(line);
    if (m) found.push({ text: m[2]!.trim(), level: m[1]!.length, start: offset });
    offset += line.length + 1;
  }
  return found.map((h, i) => {
    const next = found.slice(i + 1).find((n) => n.level <= h.level);
    return { ...h, end: next ? next.start : text.length };
  });
}

function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) at.push(i);
  return at;
}

/** The extent a binding governs: its own section when it is a heading, else the deepest section holding it. */
function bindingExtents(text: string, headings: Heading[], binding: string): Array<[number, number]> {
  return occurrences(text, binding).map((at) => {
    const own = headings.find((h) => h.text === binding && h.start <= at && at - h.start <= h.level + 2);
    if (own) return [own.start, own.end] as [number, number];
    const holding = headings.filter((h) => h.start <= at && at < h.end).sort((a, b) => b.level - a.level)[0];
    return holding ? [holding.start, holding.end] as [number, number] : [0, text.length] as [number, number];
  });
}

/** Whether a seed quote is normative by its own words or by a binding that governs it. */
export function seedBinds(e: SeedEvidence): boolean {
  if (normativeWords.test(e.quote)) return true;
  if (!e.binding || !(normativeWords.test(e.binding) || bindingWords.test(e.binding))) return false;
  const text = specDocText(e.doc);
  if (!text) return false;
  const extents = bindingExtents(text, headingsOf(text), e.binding);
  return occurrences(text, e.quote).some((q) => extents.some(([s, t]) => s <= q && q < t));
}

/** Whether one piece of evidence can carry a MUST: a binding seed sentence, or what a real server or the field shows. */
export function carriesMust(e: Evidence): boolean {
  return e.kind === 'real-server' || e.kind === 'field-report' || (e.kind === 'seed' && seedBinds(e));
}

const researchCache = new Map<ResearchDoc, string>();
function researchText(doc: ResearchDoc): string | undefined {
  if (!researchCache.has(doc)) {
    const path = join(sharedDir, 'research', `${doc}.md`);
    if (!existsSync(path)) return undefined;
    researchCache.set(doc, readFileSync(path, 'utf8'));
  }
  return researchCache.get(doc);
}

function evidenceProblems(e: Evidence): string[] {
  switch (e.kind) {
    case 'seed': {
      const text = specDocText(e.doc);
      if (!text) return [`${e.doc} is not readable under ${sharedDir}/seeds; fix: check out shared/ beside the repo`];
      const section = headingsOf(text).find((h) => h.text === e.section);
      if (!section) return [`"${e.section}" is not a heading of ${e.doc}; fix: copy the heading text exactly`];
      const out: string[] = [];
      if (!occurrences(text, e.quote).some((q) => section.start <= q && q < section.end)) out.push(`the quote "${e.quote}" is not verbatim under ${e.doc} § ${e.section}; fix: copy it from the seed, or name the heading it stands under`);
      if (e.binding !== undefined && !text.includes(e.binding)) out.push(`the binding "${e.binding}" is not verbatim in ${e.doc}; fix: copy it from the seed`);
      else if (e.binding !== undefined && !seedBinds(e) && !normativeWords.test(e.quote)) out.push(`the binding "${e.binding}" does not govern the quote "${e.quote}" (it must hold a word of bindingWords or normativeWords, and the quote must stand in its section); fix: name a binding of the quote's own section, or drop it and lower \`supports\``);
      return out;
    }
    case 'whatwg':
      return whatwgSseRules.includes(e.rule.toLowerCase()) && e.quote.length > 0 ? [] : [`WHATWG rule "${e.rule}" is not one of scenarios/spec-refs.ts whatwgSseRules, or its quote is empty; fix: name a listed rule and quote it`];
    case 'real-server': {
      const out = /^[0-9a-f]{7,40}$/.test(e.commit) && e.path.length > 0 && e.behaviour.length > 0 ? [] : [`${e.repo} evidence needs a path, a commit (hex) and the behaviour; fix: give all three`];
      return out.concat(e.recorded ? recordedProblems(e.recorded.doc, e.recorded.quote) : []);
    }
    case 'field-report':
      return (e.report && e.reported ? [] : ['a field report needs the thread and what it reported; fix: give both']).concat(recordedProblems(e.recorded.doc, e.recorded.quote));
  }
}

function recordedProblems(doc: ResearchDoc, quote: string): string[] {
  const text = researchText(doc);
  if (text === undefined) return [`research/${doc}.md is not readable under ${sharedDir}; fix: check out shared/ beside the repo`];
  return text.includes(quote) ? [] : [`the quote "${quote}" is not verbatim in research/${doc}.md; fix: copy it from the note`];
}

/** Every way the table fails the rules, one line per problem, each naming the id and the fix. */
export function basisViolations(requirements: Iterable<Requirement>, table: BasisTable, pending: Readonly<Record<string, Level>>): string[] {
  const out: string[] = [];
  const live = new Map([...requirements].map((r) => [r.id, r] as const));
  for (const id of Object.keys(table)) if (!live.has(id)) out.push(`${id}: has a basis but no live requirement; fix: remove its record (or move it to the id that replaced it)`);
  for (const r of live.values()) {
    const b: Basis | undefined = table[r.id];
    if (!b) { out.push(`${r.id}: has no basis; fix: add a record to harness/requirements/${r.part}-basis.ts`); continue; }
    for (const p of b.evidence.flatMap(evidenceProblems)) out.push(`${r.id}: ${p}`);
    if (b.supports === 'MUST' && !b.evidence.some(carriesMust)) out.push(`${r.id}: its basis says it supports MUST, but no evidence carries a MUST (a seed sentence in normative words, or a real server or field report); fix: add such evidence or lower \`supports\``);
    if (b.supports !== 'MUST' && !b.why) out.push(`${r.id}: its sources support ${b.supports} but its basis does not say why not MUST; fix: add \`why\` in plain words`);
    if (b.allows.length === 0 || b.allows.some((a) => a.trim() === '')) out.push(`${r.id}: names no behaviour its sources allow; fix: list at least one in plain words`);
    if (b.note && !existsSync(join(repoRoot, 'scenarios', `${b.note.scenario}.json`))) out.push(`${r.id}: its note names scenario "${b.note.scenario}", which is not in scenarios/; fix: name the scenario that shows the failure`);
    const short = levelRank[b.supports] < levelRank[r.level];
    const planned = pending[r.id];
    if (short && planned !== b.supports) out.push(`${r.id}: is ${r.level} but its source supports ${b.supports}; fix: retire it and issue a ${b.supports} replacement (docs/versioning.md), or list it in pendingReclassification as ${b.supports}`);
    if (!short && planned !== undefined) out.push(`${r.id}: is listed in pendingReclassification but its source supports its level ${r.level}; fix: remove the entry`);
    if (r.tags.includes('robustness') && r.level !== 'SHOULD') out.push(`${r.id}: is tagged robustness but is ${r.level}; fix: completeness beyond field evidence is a SHOULD, retire it and issue a SHOULD`);
  }
  for (const id of Object.keys(pending)) if (!live.has(id)) out.push(`${id}: is in pendingReclassification but is not a live requirement; fix: remove the entry`);
  return out;
}
