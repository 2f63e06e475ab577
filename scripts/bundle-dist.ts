/**
 * dist/ as a few ESM bundles instead of one file per source module: the last step of `npm run build`
 * (the published package) and of scripts/checkout-dist.ts (the kit processes the tests start).
 *
 * Why: Node 20 resolves, reads, compiles and links every ES module file on its own, and `run` imports
 * about 300 of the kit's. Importing dist/cli/commands/run.js took 0.50 s of CPU file by file against
 * 0.33 s bundled (2026-11-29, docs/performance.md), and every `run`, reference gateway and memory
 * probe process pays it at start.
 *
 * - The entries are every file something imports by its path: the exports map, the CLI and its
 *   commands (cli/main.ts imports a command by name), and every `kitModule('...')` of the sources
 *   (the reference modules the harness loads by path, the memory probe's child and its entries).
 * - esbuild's code splitting puts a module that several entries import in one shared chunk, so a
 *   process holds one instance of each module however many entries it imports.
 * - npm dependencies are bundled too, but for `keptExternal` (below): Node 20 loads a CommonJS
 *   package file by file, so bundled, a kit process starts on less CPU.
 * - Declarations (.d.ts) are tsc's, untouched; only the JavaScript is replaced.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { buildSync } from 'esbuild';

/** Source files (from the package root, `.ts`) that some code imports by path: `kitModule('...')` literals. */
function kitModulePaths(root: string, dirs: string[]): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) {
        for (const m of readFileSync(path, 'utf8').matchAll(/kitModule\('([^']+\.ts)'\)/g)) found.add(m[1] as string);
      }
    }
  };
  for (const dir of dirs) walk(join(root, dir));
  return [...found].sort();
}

/** The compiled files of the exports map, from dist/ (`./dist/cli/x.js` is `cli/x.js`). */
function exportedFiles(root: string): string[] {
  const files = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') { if (v.startsWith('./dist/') && v.endsWith('.js')) files.add(v.slice('./dist/'.length)); } else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: unknown }).exports);
  return [...files];
}

function javascriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? javascriptFiles(path) : /\.js$/.test(e.name) ? [path] : [];
  });
}

/** Every entry, as a path inside `dist`; throws, naming it, when tsc did not emit one. */
export function bundleEntries(root: string, dist: string): string[] {
  const sourceDirs = (JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as { include: string[] }).include;
  const commandsDir = join(dist, 'cli', 'commands');
  const commands = existsSync(commandsDir) ? readdirSync(commandsDir).filter((f) => f.endsWith('.js')).map((f) => `cli/commands/${f}`) : [];
  const byPath = kitModulePaths(root, sourceDirs).map((p) => p.replace(/\.ts$/, '.js'));
  const entries = [...new Set([...exportedFiles(root), 'cli/main.js', ...commands, ...byPath])].sort();
  const missing = entries.filter((e) => !existsSync(join(dist, e)));
  if (missing.length > 0) throw new Error(`scripts/bundle-dist.ts: ${missing.join(', ')} ${missing.length === 1 ? 'is an entry' : 'are entries'} (imported by path) but not in ${dist}; run tsc -p tsconfig.build.json first, and check its include and exclude`);
  return entries;
}

/**
 * npm packages left as imports (everything else is bundled into the kit's files):
 * - those whose one instance the kit shares with its user's code: msw (a user's handlers and the
 *   kit's meet in one msw), vitest (the kit's matchers register in the user's runner), the adk-js
 *   runtime (a user's server module is handed a real Runner);
 * - tsx, which registers loader hooks in the process, and the build's own typescript and esbuild;
 * - those only a rare command loads (OpenTelemetry: the tap's OTLP sink; js-yaml: importing ADK's
 *   conformance cases): bundled, they would only make the package larger.
 * Bundled, the rest (fastify and its tree, ajv, fast-check, jose, eventsource-parser) load from the
 * kit's few files: a reference gateway required 280 CommonJS files from node_modules at start, `run`
 * 137; now 4 (docs/performance.md fix 55).
 */
export const keptExternal = [
  'msw', 'msw/*', 'vitest', 'vitest/*', '@google/adk', '@google/adk/*', '@google/adk-devtools', '@google/adk-devtools/*',
  'tsx', 'tsx/*', 'typescript', 'esbuild', '@opentelemetry/*', 'js-yaml',
] as const;

/** Replace dist/'s JavaScript with bundles of it; `dist` is tsc's output for the package at `root`. */
export function bundleDist(root: string, dist = join(root, 'dist')): { entries: number; outputs: number } {
  const entries = bundleEntries(root, dist);
  const staging = `${dist}.bundling-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    const result = buildSync({
      absWorkingDir: root, entryPoints: entries.map((e) => join(dist, e)), outdir: staging, outbase: dist,
      bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', external: [...keptExternal],
      // Bundled CommonJS dependencies call require() for Node's own modules; ESM has none.
      banner: { js: "import { createRequire as __kitCreateRequire } from 'node:module'; const require = __kitCreateRequire(import.meta.url);" },
      chunkNames: 'chunks/[name]-[hash]', metafile: true, logLevel: 'silent',
    });
    if (result.errors.length > 0) throw new Error(result.errors.map((e) => e.text).join('; '));
    for (const file of javascriptFiles(dist)) rmSync(file);
    for (const file of javascriptFiles(staging)) {
      const target = join(dist, relative(staging, file));
      mkdirSync(dirname(target), { recursive: true });
      renameSync(file, target);
    }
    return { entries: entries.length, outputs: Object.keys(result.metafile.outputs).length };
  } catch (error) {
    throw new Error(`scripts/bundle-dist.ts: bundling ${relative(root, dist)} failed: ${error instanceof Error ? error.message : String(error)}; run \`npm run build\` again after fixing it`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const { entries, outputs } = bundleDist(process.cwd());
  // stderr: `npm pack --json` (prepack runs the build) keeps stdout for its JSON.
  process.stderr.write(`bundle-dist: ${entries} entries into ${outputs} files\n`);
}
