/**
 * bin/kit-form.js: a checkout runs its dist/ only while no source of it is newer than its last emit;
 * the installed package always runs dist/. Each case is a small tree of its own.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { distIsFresh, distStamp, kitForm } from './kit-form.js';

const trees: string[] = [];
afterAll(() => { for (const t of trees) rmSync(t, { recursive: true, force: true }); });

const at = (seconds: number) => new Date(1_800_000_000_000 + seconds * 1000);
function put(root: string, path: string, seconds: number, text = '') {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, at(seconds), at(seconds));
}

/** A checkout whose sources last changed at second 10, dist/ emitted at `emitted` (no stamp: undefined). */
function checkout(emitted: number | undefined): string {
  const root = mkdtempSync(join(tmpdir(), 'adk-kit-form-'));
  trees.push(root);
  put(root, 'tsconfig.json', 1, '{}');
  put(root, 'tsconfig.build.json', 1, JSON.stringify({ include: ['core', 'cli'] }));
  put(root, 'core/a.ts', 5);
  put(root, 'core/deep/b.json', 10, '{}');
  put(root, 'cli/main.ts', 3);
  put(root, 'dist/cli/main.js', 20);
  if (emitted !== undefined) put(root, distStamp(root).slice(root.length + 1), emitted);
  return root;
}

describe('kitForm: which form a command runs', () => {
  it('a checkout emitted after its last source change runs dist/', () => {
    const root = checkout(15);
    expect(distIsFresh(root)).toBe(true);
    expect(kitForm(root, {})).toBe('dist');
  });

  it('a source changed after the emit, however deep, or a script that emits dist/, sends a checkout back to its sources', () => {
    const root = checkout(15);
    put(root, 'core/deep/b.json', 16, '{"changed":true}');
    expect(kitForm(root, {})).toBe('sources');
    const other = checkout(15);
    put(other, 'tsconfig.build.json', 16, JSON.stringify({ include: ['core', 'cli'] }));
    expect(kitForm(other, {})).toBe('sources');
    // The scripts that emit dist/ are what it is made from too.
    const rebundled = checkout(15);
    put(rebundled, 'scripts/bundle-dist.ts', 16);
    expect(kitForm(rebundled, {})).toBe('sources');
  });

  it('a file that is not a source (a doc) changed after the emit leaves dist/ fresh', () => {
    const root = checkout(15);
    put(root, 'core/notes.md', 30);
    expect(kitForm(root, {})).toBe('dist');
  });

  it('no stamp, or no dist/cli/main.js (postpack removed it), is stale', () => {
    expect(kitForm(checkout(undefined), {})).toBe('sources');
    const root = checkout(15);
    rmSync(join(root, 'dist'), { recursive: true });
    expect(distIsFresh(root)).toBe(false);
    expect(kitForm(root, {})).toBe('sources');
  });

  it('ADK_CONFORMANCE_FROM_DIST=1 takes dist/ as it is, 0 the sources', () => {
    expect(kitForm(checkout(undefined), { ADK_CONFORMANCE_FROM_DIST: '1' })).toBe('dist');
    expect(kitForm(checkout(15), { ADK_CONFORMANCE_FROM_DIST: '0' })).toBe('sources');
  });

  it('the installed package (no tsconfig.json) runs dist/ whatever its times', () => {
    const root = checkout(undefined);
    rmSync(join(root, 'tsconfig.json'));
    expect(kitForm(root, {})).toBe('dist');
    expect(kitForm(root, { ADK_CONFORMANCE_FROM_DIST: '0' })).toBe('dist');
  });

  it('two checkouts sharing one node_modules keep stamps of their own', () => {
    expect(distStamp('/a/kit')).not.toBe(distStamp('/b/kit'));
  });

  it('this checkout, after vitest\'s globalSetup emitted it (scripts/checkout-dist.ts), runs dist/', () => {
    expect(kitForm(join(import.meta.dirname, '..'), {})).toBe('dist');
  });
});
