/**
 * Spec references of scenarios (`{doc, section}`) resolved against the documents they name: the
 * seeds (`<shared>/seeds/NNN_*.txt`, found by prefix), the research notes
 * (`<shared>/research/<doc>.md`), and a fixed list of WHATWG SSE rule names.
 *
 * The section matching rule (docs/scenarios.md, "Spec references") is `resolveSection` below.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The WHATWG rules a `whatwg-sse` reference may name (HTML §9.2 "Server-sent events"). A section
 * resolves when, normalised, it equals one of these names or section numbers.
 */
export const whatwgSseRules: readonly string[] = [
  '9.2', 'server-sent events',
  '9.2.5', 'parsing an event stream',
  '9.2.6', 'interpreting an event stream',
  'line endings', 'bom', 'utf-8 decode', 'comments', 'data field', 'multi-line data', 'event field', 'id field', 'retry field',
  'dispatch', 'incomplete event at eof', 'chunk boundaries', 'mime type', 'http status',
];

export type SpecDocs = { sharedDir: string; missing?: string; sections: (doc: string) => DocSections | string };

/** A document's headings, and for each its body (for letter subsections like §5d). */
export type DocSections = { headings: Array<{ text: string; level: number; body: string[] }> };

export function createSpecDocs(sharedDir: string): SpecDocs {
  const seedsDir = join(sharedDir, 'seeds');
  const researchDir = join(sharedDir, 'research');
  const missing = !existsSync(sharedDir) ? `the shared folder ${sharedDir} does not exist`
    : !existsSync(seedsDir) ? `the seeds folder ${seedsDir} does not exist`
      : !existsSync(researchDir) ? `the research folder ${researchDir} does not exist` : undefined;
  const cache = new Map<string, DocSections | string>();
  const locate = (doc: string): string => {
    const seed = /^seed-(\d{3})$/.exec(doc);
    if (seed) {
      const name = readdirSync(seedsDir).find((f) => f.startsWith(`${seed[1]}_`) && f.endsWith('.txt'));
      if (!name) throw new Error(`no file ${seed[1]}_*.txt in ${seedsDir}`);
      return join(seedsDir, name);
    }
    const path = join(researchDir, `${doc}.md`);
    if (!existsSync(path)) throw new Error(`${path} does not exist`);
    return path;
  };
  return {
    sharedDir,
    ...(missing ? { missing } : {}),
    sections(doc) {
      const hit = cache.get(doc);
      if (hit !== undefined) return hit;
      let value: DocSections | string;
      try {
        value = parseSections(readFileSync(locate(doc), 'utf8'));
      } catch (error) {
        value = (error as Error).message;
      }
      cache.set(doc, value);
      return value;
    },
  };
}

/** Markdown ATX headings outside fenced code blocks, each with the lines up to the next heading of the same or a higher level. */
export function parseSections(text: string): DocSections {
  const lines = text.split(/\r\n|\r|\n/);
  const headings: DocSections['headings'] = [];
  let fenced = false;
  const open: number[] = [];
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = fenced ? null : /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (match) {
      const level = (match[1] ?? '#').length;
      while (open.length > 0 && (headings[open[open.length - 1] ?? 0]?.level ?? 0) >= level) open.pop();
      // A sub-heading is part of its ancestors' bodies (§2.2B finds "#### B." under "### 2.2").
      for (const index of open) headings[index]?.body.push(line);
      headings.push({ text: match[2] ?? '', level, body: [] });
      open.push(headings.length - 1);
      continue;
    }
    for (const index of open) headings[index]?.body.push(line);
  }
  return { headings };
}

const normalise = (s: string) => s.normalize('NFC').replace(/^§\s*/, '').replace(/\s+/g, ' ').trim().toLowerCase();
const plain = (s: string) => normalise(s.replace(/[*_`]/g, ''));
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `section` names a section of the document. The matching rule (docs/scenarios.md):
 * 1. it equals a heading's text (case, whitespace, a leading `§` and Markdown emphasis ignored); or
 * 2. it is a section number (`2.1`, `§9`, `3.2.`): a heading starts with that number; or
 * 3. it is a number and a letter (`§5d`, `2.2B`): under heading (2), a sub-heading starts with
 *    `d.`/`B.` or a line starts with `**d.` (the wire-format notes letter their sub-sections in bold).
 */
export function resolveSection(doc: DocSections, section: string): boolean {
  const wanted = normalise(section);
  if (doc.headings.some((h) => normalise(h.text) === wanted || plain(h.text) === plain(section))) return true;
  const numbered = /^(\d+(?:\.\d+)*)\.?\s*([a-z])?$/i.exec(wanted);
  if (!numbered) return false;
  const [, number = '', letter] = numbered;
  const startsWithNumber = new RegExp(`^${escapeRegex(number)}\\.?(?=\\s|:|$)`);
  const parents = doc.headings.filter((h) => startsWithNumber.test(plain(h.text)));
  if (!letter) return parents.length > 0;
  const lettered = new RegExp(`^(\\*\\*)?${escapeRegex(letter)}[.)]\\s`, 'i');
  return parents.some((h) => h.body.some((line) => lettered.test(line.trim()) || (/^#{1,6}\s/.test(line) && lettered.test(line.replace(/^#{1,6}\s+/, '')))));
}

/** The problems with a scenario's spec references: `[pointer, message]` pairs (none when all resolve). */
export function specRefProblems(specRefs: ReadonlyArray<{ doc: string; section: string }>, docs: SpecDocs): Array<[string, string]> {
  const problems: Array<[string, string]> = [];
  const add = (path: string, message: string) => problems.push([path, message]);
  specRefs.forEach((ref, i) => {
    const path = `/specRefs/${i}`;
    if (ref.doc === 'whatwg-sse') {
      if (!whatwgSseRules.includes(normalise(ref.section))) add(`${path}/section`, `'${ref.section}' is not a known WHATWG SSE rule; use one of: ${whatwgSseRules.join(', ')}`);
      return;
    }
    const sections = docs.sections(ref.doc);
    if (typeof sections === 'string') { add(`${path}/doc`, `${ref.doc} cannot be read: ${sections}`); return; }
    if (!resolveSection(sections, ref.section)) add(`${path}/section`, `${ref.doc} has no section '${ref.section}'; name a heading exactly or a section number such as '2.1' or '§5d'`);
  });
  return problems;
}
