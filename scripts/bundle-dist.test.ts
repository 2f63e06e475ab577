import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleEntries } from './bundle-dist.ts';

const root = join(import.meta.dirname, '..');
const empty = mkdtempSync(join(tmpdir(), 'adk-bundle-dist-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

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
