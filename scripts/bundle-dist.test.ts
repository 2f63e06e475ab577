import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleEntries, keptExternal } from './bundle-dist.ts';

const root = join(import.meta.dirname, '..');
const empty = mkdtempSync(join(tmpdir(), 'adk-bundle-dist-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

function javascript(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? javascript(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []));
}

/** The npm packages the files of dist/ import by name. */
function importedPackages(): Set<string> {
  const names = new Set<string>();
  for (const file of javascript(join(root, 'dist'))) {
    // esbuild writes an import as `from "x"`, `import("x")` or, from bundled CommonJS, `__require("x")`.
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\(\s*|\b__require\(\s*)"((?:@[\w.-]+\/)?[\w.-]+)(?:\/[^"]*)?"/g)) {
      if (!builtinModules.includes(m[1] as string) && !(m[1] as string).startsWith('.')) names.add(m[1] as string);
    }
  }
  return names;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path.endsWith(join('harness', 'mutants')) ? [] : sources(path);
    return /\.ts$/.test(e.name) && !/\.(test|d)\.ts$|test-support\.ts$|test-fixture\.ts$|test-scenarios\.ts$/.test(e.name) ? [path] : [];
  });
}

describe('scripts/bundle-dist.ts', () => {
  // dist/ is the tests' own build (scripts/checkout-dist.ts), bundled before any test.
  it('bundles every file imported by path: the exports map, the CLI and each command, each kitModule', () => {
    const entries = bundleEntries(root, join(root, 'dist'));
    expect(entries).toEqual(expect.arrayContaining([
      'cli/main.js', 'cli/commands/run.js', 'cli/commands/gateway.js', 'mock-adk/index.js', 'mock-adk/msw.js', 'harness/certify.js',
      'harness/targets/memory-child.js', 'harness/targets/client/memory.js', 'harness/targets/transformer/memory.js',
      'harness/targets/transformer/reference.js', 'reference-impl/gateway/normalize-route.js',
    ]));
  });

  it('bundles the npm dependencies, but for the ones it shares with its user\'s code or rarely loads', () => {
    const imported = importedPackages();
    // Shared instances stay imports: the kit's msw handlers and matchers meet the user's msw and vitest.
    expect([...imported]).toEqual(expect.arrayContaining(['msw', 'vitest']));
    // Bundled: no kit process loads fastify's or fast-check's files from node_modules.
    for (const bundled of ['fastify', 'fast-check', 'jose', 'eventsource-parser', 'find-my-way', 'pino']) expect(imported.has(bundled), bundled).toBe(false);
    const external = (name: string) => keptExternal.some((k) => k === name || (k.endsWith('/*') && name.startsWith(k.slice(0, -1))) || k.startsWith(`${name}/`));
    expect([...imported].filter((name) => !external(name) && !/^(ajv|ajv-formats)$/.test(name)), 'imported by name, but not kept external').toEqual([]);
  });

  it('names the entries tsc did not emit, and how to fix it', () => {
    expect(() => bundleEntries(root, empty)).toThrow(/cli\/main\.js.*are entries \(imported by path\) but not in .*run tsc -p tsconfig\.build\.json first/);
  });

  it('no module of the build finds a sibling file by its own URL: bundled, that URL is a chunk\'s (use kitModule)', () => {
    const include = (JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as { include: string[] }).include;
    const offenders = include.flatMap((d) => sources(join(root, d)))
      .filter((f) => /new URL\(\s*[`'"]\.\.?\/[^;\n]*import\.meta\.url/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });
});
