/**
 * The checkout's compiled kit: dist/ emitted from the sources (no type check: `npm run typecheck`
 * and the package test do that), bundled as `npm run build` bundles the package
 * (scripts/bundle-dist.ts) and given the package's precompiled schema validators
 * (scripts/precompile-schemas.ts). Emitted only when a source is newer than the last emit (a stamp
 * under node_modules/.cache, bin/kit-form.js), so a kit process never runs code older than its sources.
 *
 * Who runs it:
 * - `npm ci`, as the `prepare` script: `npm start` then runs dist/ (bin/kit-form.js), 0.87x the wall
 *   time of the sources through tsx (docs/performance.md). A failed emit only warns: the bin then
 *   runs the sources. `npm pack` also runs `prepare`; it is skipped there, as prepack builds the package.
 * - vitest's globalSetup, before any test and again before each rerun of watch mode: every kit process
 *   a test starts (`node bin/adk-conformance.js run ...`, the reference gateway and proxy the harness
 *   launches) runs it, as an installed package does (vitest.config.ts sets ADK_CONFORMANCE_FROM_DIST=1).
 *   The tests' own process still imports the TypeScript sources.
 *
 * Why: a kit process started from the sources registers tsx, whose hooks cost every import a round
 * trip to their thread: `run` to its first usage error took 1.8 s of CPU from the sources against
 * 0.7 s compiled (2026-11-29), and the suite starts several hundred kit processes. The emit costs
 * about 10 s of CPU. test/checkout-sources.test.ts keeps the sources' path (tsx, no build) under test.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distIsFresh, distStamp } from '../bin/kit-form.js';

const root = join(import.meta.dirname, '..');

/**
 * Emit dist/ unless it is fresh; true when it emitted. TypeScript and esbuild are development
 * dependencies: loaded here, not on import, so a checkout installed without them (`npm ci
 * --omit=dev`) gets the warning below from `prepare`, not a failed install.
 */
export async function emitCheckoutDist(): Promise<boolean> {
  if (distIsFresh(root)) return false;
  const [{ bundleDist }, { writeSchemaValidators }] = await Promise.all([import('./bundle-dist.ts'), import('./precompile-schemas.ts')]);
  // Stale until the emit ends: a kit process started meanwhile runs the sources.
  rmSync(distStamp(root), { force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const startedAt = Date.now();
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck', '--declaration', 'false'], { cwd: root, stdio: 'pipe', timeout: 300_000 });
  } catch (error) {
    const e = error as { stdout?: Buffer; stderr?: Buffer; message: string };
    throw new Error(`scripts/checkout-dist.ts: emitting dist/ failed (tsc -p tsconfig.build.json --noCheck): ${String(e.stdout ?? '')}${String(e.stderr ?? '')}${e.message}`);
  }
  // Bundled as the package is (`npm run build`): the tests' kit processes start as an installed kit's do.
  bundleDist(root);
  writeSchemaValidators(join(root, 'dist'));
  // Stamped with the time the emit started: a source saved during the emit is newer, so emitted again.
  const stamp = distStamp(root);
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${new Date(startedAt).toISOString()}\n`);
  utimesSync(stamp, new Date(startedAt), new Date(startedAt));
  return true;
}

export default async function setup(project?: { onTestsRerun?: (cb: () => void | Promise<void>) => void }): Promise<void> {
  await emitCheckoutDist();
  project?.onTestsRerun?.(async () => { await emitCheckoutDist(); });
}

// `npm ci`'s prepare (package.json): `tsx scripts/checkout-dist.ts`.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.env.npm_command === 'pack' || process.env.npm_command === 'publish') {
    // prepack builds the package's dist/ (`npm run build`), declarations included.
  } else {
    try {
      const startedAt = performance.now();
      if (await emitCheckoutDist()) process.stdout.write(`adk-conformance: compiled the kit into dist/ in ${((performance.now() - startedAt) / 1000).toFixed(1)} s; \`npm start\` runs it while no source is newer\n`);
    } catch (error) {
      process.stderr.write(`adk-conformance: ${(error as Error).message}\nThe kit runs from its TypeScript sources instead (slower to start); \`npx tsx scripts/checkout-dist.ts\` tries again.\n`);
    }
  }
}

