/**
 * The one way a team's module is loaded (issue 31 §3: "modules loaded whatever the consumer's package
 * type"). Node decides a `.ts` or `.js` file's format by the nearest package.json's "type"; in a
 * CommonJS package (what `npm init -y` writes) an ES-syntax `.ts` then fails inside Node's loader
 * with "Cannot require() ES Module ... in a cycle". `tsx file.ts` runs such a file by compiling it
 * to CommonJS, so the kit does the same when, and only when, Node's import failed that way: a file
 * Node imports is imported as it is.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isTypeScriptFile, loadTypeScriptFor } from '../../core/typescript-loader.ts';

type Namespace = Record<string, unknown>;

/**
 * `name` as the module exports it, or as its default export holds it (a CommonJS module, or
 * `export default { createX }`): the one place the parts look an export up.
 */
export function exportOf(loaded: Namespace, name: string): unknown {
  return loaded[name] ?? (loaded.default as Namespace | undefined)?.[name];
}

/** Node's error for an ES-syntax file it had decided to load as CommonJS. */
export function isEsmLoadedAsCommonJs(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ERR_REQUIRE_CYCLE_MODULE' || code === 'ERR_REQUIRE_ESM' || /Cannot require\(\) ES Module .* in a cycle/.test(error.message);
}

const instanceQuery = '?adk-conformance-instance=';

/**
 * Node 24 hands a `.ts` file of a CommonJS package to its CommonJS loader (it strips the types itself),
 * which reads a fresh instance's URL query as part of the file name: "Cannot find module '...ts?adk-...'".
 */
const isQueryTakenForPath = (error: unknown): boolean => error instanceof Error && (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && error.message.includes(instanceQuery);

let tsxRequire: ((id: string, from: string) => unknown) | null | undefined;
async function loadTsxRequire(): Promise<((id: string, from: string) => unknown) | null> {
  if (tsxRequire !== undefined) return tsxRequire;
  try {
    const api = (await import('tsx/cjs/api')) as { require: (id: string, from: string) => unknown };
    tsxRequire = api.require;
  } catch {
    tsxRequire = null;
  }
  return tsxRequire;
}

/**
 * Import `path`. `instance` asks for a fresh copy (its top-level state new): a query on the ES
 * module's URL, or the CommonJS cache entry dropped before requiring it again.
 */
export async function importModule(path: string, instance?: number): Promise<Namespace> {
  const url = `${pathToFileURL(path).href}${instance === undefined ? '' : `${instanceQuery}${instance}`}`;
  const absolute = resolve(path);
  // Under tsx's CommonJS hooks (`tsx cli/main.ts`) Node may load the file as CommonJS even through
  // import(), and CommonJS caches by path, not URL: a fresh instance needs its cache entry gone.
  if (instance !== undefined) dropFromCommonJsCache(absolute);
  await loadTypeScriptFor(absolute);
  try {
    return (await import(url)) as Namespace;
  } catch (error) {
    // Node took the file for CommonJS (the package's type) and could not run it: ES syntax, or a
    // TypeScript annotation its CommonJS parser stopped at (`const x: T = ...`), or a fresh instance's query.
    if (!isEsmLoadedAsCommonJs(error) && !(isTypeScriptFile(absolute) && error instanceof SyntaxError) && !isQueryTakenForPath(error)) throw error;
    const req = await loadTsxRequire();
    if (!req) throw error;
    if (instance !== undefined) dropFromCommonJsCache(absolute);
    try {
      const loaded = req(absolute, import.meta.url);
      return (loaded !== null && typeof loaded === 'object' ? loaded : { default: loaded }) as Namespace;
    } catch {
      // The CommonJS route failed too: Node's own error says more about the file as written.
      throw error;
    }
  }
}

function dropFromCommonJsCache(absolute: string): void {
  const cache = createRequire(import.meta.url).cache;
  for (const key of Object.keys(cache)) {
    if (key === absolute || key.startsWith(`${absolute}?`)) delete cache[key];
  }
}
