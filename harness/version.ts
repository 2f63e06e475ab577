import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../core/spec-docs.ts';

let cached: string | undefined;
/** The kit's version, from package.json (reports carry it). */
export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
