/**
 * The requirement-id lock (docs/versioning.md): `ids.lock.json` lists every id ever issued with a
 * hash of its title and its level. An id is never reused, and a changed requirement gets a new
 * id, so the registry may add ids and retire ids, but never bring a retired id back or change what
 * an id means. `ids-policy.test.ts` compares the registry with the lock; this script updates the
 * lock for the changes the policy allows (`npm run gen:requirements`; `-- --reword ID` records a
 * wording fix that keeps the meaning).
 */
import { packageRoot } from '../../core/package-root.ts';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Requirement } from '../model.ts';
import { packageVersion } from '../version.ts';
import { requirements } from './index.ts';

export const idsLockPath = join(packageRoot, 'harness', 'requirements', 'ids.lock.json');

export type LockEntry = {
  /** sha256 of the title, first 16 hex digits. */
  titleHash: string;
  level: Requirement['level'];
  part: Requirement['part'];
  /** The kit version that issued the id. */
  issued: string;
  /** The kit version that retired it; a retired id is never issued again. */
  retired?: string;
  /** Earlier title hashes of wording fixes accepted with --reword (same meaning, same id). */
  reworded?: string[];
};

export type IdsLock = { policy: string; ids: Record<string, LockEntry> };

export const policy = 'An id is never reused; a changed requirement gets a new id (docs/versioning.md). Update with npm run gen:requirements; never edit by hand.';

export function titleHash(title: string): string {
  return createHash('sha256').update(title, 'utf8').digest('hex').slice(0, 16);
}

export function readLock(path = idsLockPath): IdsLock {
  return JSON.parse(readFileSync(path, 'utf8')) as IdsLock;
}

/** Everything in the registry the lock does not allow as it stands, one sentence each. */
export function lockProblems(lock: IdsLock, registry: Iterable<Requirement>): string[] {
  const problems: string[] = [];
  const live = new Map([...registry].map((r) => [r.id, r]));
  for (const [id, r] of live) {
    const entry = lock.ids[id];
    if (!entry) { problems.push(`${id} is not in ids.lock.json: run npm run gen:requirements to issue it`); continue; }
    if (entry.retired !== undefined) { problems.push(`${id} was retired in ${entry.retired} and is back: an id is never reused; give this requirement a new id`); continue; }
    if (entry.titleHash !== titleHash(r.title)) problems.push(`${id} changed its title: a changed requirement gets a new id (retire ${id}); for a wording fix that keeps the meaning run npm run gen:requirements -- --reword ${id}`);
    if (entry.level !== r.level) problems.push(`${id} changed its level from ${entry.level} to ${r.level}: that changes its meaning, so give it a new id and retire ${id}`);
  }
  for (const [id, entry] of Object.entries(lock.ids)) {
    if (entry.retired === undefined && !live.has(id)) problems.push(`${id} is no longer in the registry: run npm run gen:requirements to mark it retired (its id will never be issued again)`);
  }
  return problems;
}

/**
 * The lock after the changes the policy allows: new ids issued, missing ids retired, and titles
 * named in `reword` re-hashed. Anything else (a retired id back, a changed title or level) throws.
 */
export function updateLock(lock: IdsLock, registry: Iterable<Requirement>, options: { version: string; reword?: readonly string[] }): IdsLock {
  const reword = new Set(options.reword ?? []);
  const ids: Record<string, LockEntry> = structuredClone(lock.ids);
  const live = new Map([...registry].map((r) => [r.id, r]));
  const refused: string[] = [];
  for (const id of reword) if (!live.has(id) || !ids[id]) refused.push(`--reword ${id}: no issued requirement has that id`);
  for (const [id, r] of live) {
    const entry = ids[id];
    const hash = titleHash(r.title);
    if (!entry) { ids[id] = { titleHash: hash, level: r.level, part: r.part, issued: options.version }; continue; }
    if (entry.retired !== undefined) { refused.push(`${id} was retired in ${entry.retired}: give the requirement a new id`); continue; }
    if (entry.level !== r.level) refused.push(`${id} changed its level from ${entry.level} to ${r.level}: give it a new id`);
    if (entry.titleHash !== hash) {
      if (reword.has(id)) ids[id] = { ...entry, titleHash: hash, reworded: [...(entry.reworded ?? []), entry.titleHash] };
      else refused.push(`${id} changed its title: give it a new id, or pass --reword ${id} if the meaning is the same`);
    }
  }
  for (const [id, entry] of Object.entries(ids)) if (entry.retired === undefined && !live.has(id)) ids[id] = { ...entry, retired: options.version };
  if (refused.length > 0) throw new Error(`ids.lock.json was not updated:\n  ${refused.join('\n  ')}\n(docs/versioning.md)`);
  const sorted = Object.fromEntries(Object.keys(ids).sort().map((id) => [id, ids[id]!]));
  return { policy, ids: sorted };
}

export function renderLock(lock: IdsLock): string {
  return `${JSON.stringify(lock, null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const reword: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--reword' && args[i + 1]) { reword.push(args[i + 1]!); i++; continue; }
    process.stderr.write(`ids-lock: unknown argument '${args[i]}'; usage: ids-lock.ts [--reword ID]...\n`);
    process.exit(2);
  }
  let current: IdsLock;
  try { current = readLock(); } catch { current = { policy, ids: {} }; }
  try {
    const next = updateLock(current, requirements.values(), { version: packageVersion(), reword });
    writeFileSync(idsLockPath, renderLock(next));
    const added = Object.keys(next.ids).filter((id) => !current.ids[id]);
    const retired = Object.keys(next.ids).filter((id) => next.ids[id]?.retired !== undefined && current.ids[id]?.retired === undefined);
    process.stdout.write(`wrote ${idsLockPath}: ${Object.keys(next.ids).length} ids${added.length ? `; issued ${added.join(', ')}` : ''}${retired.length ? `; retired ${retired.join(', ')}` : ''}\n`);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
