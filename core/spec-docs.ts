/**
 * Where the specification lives and how a reference into it resolves. The seeds and research notes
 * are in `<repo>/../shared/` (a fresh clone gets it beside the repo, as CI does). Scenario specRefs
 * and requirement sources both resolve through here.
 */
import { packageRoot } from './package-root.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type SpecDoc = 'seed-000' | 'seed-001' | 'seed-002' | 'seed-003' | 'seed-004' | 'adk-wire-format' | 'adk-python-facts' | 'whatwg-sse';

export const repoRoot = packageRoot;
export const sharedDir = process.env.ADK_CONFORMANCE_SHARED_DIR ?? join(repoRoot, '..', 'shared');

/** The file a doc id names, or undefined when it is not a file (whatwg-sse) or shared/ is missing. */
export function specDocPath(doc: SpecDoc): string | undefined {
  if (doc.startsWith('seed-')) {
    const dir = join(sharedDir, 'seeds');
    if (!existsSync(dir)) return undefined;
    const prefix = doc.slice('seed-'.length) + '_';
    const file = readdirSync(dir).find((f) => f.startsWith(prefix));
    return file ? join(dir, file) : undefined;
  }
  if (doc === 'adk-wire-format' || doc === 'adk-python-facts') {
    const file = join(sharedDir, 'research', `${doc}.md`);
    return existsSync(file) ? file : undefined;
  }
  return undefined;
}

const cache = new Map<string, string>();
export function specDocText(doc: SpecDoc): string | undefined {
  const path = specDocPath(doc);
  if (!path) return undefined;
  let text = cache.get(path);
  if (text === undefined) { text = readFileSync(path, 'utf8'); cache.set(path, text); }
  return text;
}

/** The headings of a Markdown-ish document, without the leading #'s. */
export function specHeadings(doc: SpecDoc): string[] {
  const text = specDocText(doc);
  if (!text) return [];
  return text.split('\n').filter((l) => /^#{1,6}\s/.test(l)).map((l) => l.replace(/^#{1,6}\s+/, '').trim());
}
