/**
 * Where the kit's files are, whether this module runs from its TypeScript source (the repository,
 * through tsx) or compiled into dist/ (the installed package): the folder of the kit's own
 * package.json, and the file a sibling module has in the same form as this one.
 *
 * Assets (schemas, scenarios, the mapping, package.json) are read from the package root in both
 * forms, so dist/ holds only compiled code; a module the harness loads by path (a reference
 * implementation) is the `.ts` source next to the sources and the `.js` file next to compiled code.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'adk-conformance') return dir;
      } catch { /* not ours: keep looking */ }
    }
    if (dirname(dir) === dir) throw new Error(`adk-conformance: no package.json named adk-conformance above ${from}; the kit's files are missing (reinstall the package)`);
  }
}

export const packageRoot: string = findRoot(dirname(fileURLToPath(import.meta.url)));

/** Running compiled (dist/*.js) rather than from source (*.ts through tsx). */
export const compiled: boolean = import.meta.url.endsWith('.js');

/**
 * The path of a kit module given as its source path from the package root
 * (`reference-impl/audit-bridge.ts`): that file from source, `dist/…/audit-bridge.js` compiled.
 */
export function kitModule(sourcePath: string): string {
  return compiled ? join(packageRoot, 'dist', sourcePath.replace(/\.ts$/, '.js')) : join(packageRoot, sourcePath);
}
