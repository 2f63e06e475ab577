/**
 * vitest's globalSetup: the kit compiled into dist/ before any test, and every kit process a test
 * starts (`node bin/adk-conformance.js run ...`, the reference gateway and proxy the harness
 * launches) runs it, as an installed package does (vitest.config.ts sets ADK_CONFORMANCE_FROM_DIST=1;
 * bin/adk-conformance.js). The tests' own process still imports the TypeScript sources.
 *
 * Why: a kit process started from the sources registers tsx, whose hooks cost every import a round
 * trip to their thread: `run` to its first usage error took 1.8 s of CPU from the sources against
 * 0.7 s compiled (2026-11-29), and the suite starts several hundred kit processes. One emit of the
 * JavaScript (no type check: `npm run typecheck` and the package test do that) costs about 10 s of CPU;
 * then it is bundled as `npm run build` bundles the package (scripts/bundle-dist.ts, under a second) and
 * gets the package's precompiled schema validators (scripts/precompile-schemas.ts).
 *
 * Emitted only when a source is newer than the last emit (a stamp under node_modules/.cache), and again before each
 * rerun of watch mode, so a kit process never runs code older than the sources it was started for.
 * test/checkout-sources.test.ts keeps the checkout's own path (tsx, no build) under test.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bundleDist } from './bundle-dist.ts';
import { writeSchemaValidators } from './precompile-schemas.ts';

const root = join(import.meta.dirname, '..');
// Outside dist/, which `npm pack` ships; removed with node_modules, which forces an emit.
const stamp = join(root, 'node_modules', '.cache', 'adk-conformance-dist-for-tests');
/** Where the compiled kit's sources are: tsconfig.build.json's `include`, read from it. */
const sourceDirs = (JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as { include: string[] }).include;

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.(ts|json)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function stale(): boolean {
  if (!existsSync(stamp) || !existsSync(join(root, 'dist', 'cli', 'main.js'))) return true;
  const emitted = statSync(stamp).mtimeMs;
  return [...sourceDirs.map((d) => join(root, d)), join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json')]
    .some((p) => (statSync(p).isDirectory() ? newestSource(p) : statSync(p).mtimeMs) > emitted);
}

export function emitForTests(): void {
  if (!stale()) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const startedAt = Date.now();
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck', '--declaration', 'false'], { cwd: root, stdio: 'pipe', timeout: 300_000 });
  } catch (error) {
    const e = error as { stdout?: Buffer; stderr?: Buffer; message: string };
    throw new Error(`scripts/compiled-for-tests.ts: emitting dist/ for the tests failed (tsc -p tsconfig.build.json --noCheck): ${String(e.stdout ?? '')}${String(e.stderr ?? '')}${e.message}`);
  }
  // Bundled as the package is (`npm run build`): the tests' kit processes start as an installed kit's do.
  bundleDist(root);
  writeSchemaValidators(join(root, 'dist'));
  // Stamped with the time the emit started: a source saved during the emit is newer, so emitted again.
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${new Date(startedAt).toISOString()}\n`);
  utimesSync(stamp, new Date(startedAt), new Date(startedAt));
}

export default function setup(project?: { onTestsRerun?: (cb: () => void | Promise<void>) => void }): void {
  emitForTests();
  project?.onTestsRerun?.(() => emitForTests());
}

