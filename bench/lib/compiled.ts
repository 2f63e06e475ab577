/**
 * A bench child compiled to plain JavaScript, as the published package runs the kit: `npm install
 * adk-conformance` runs dist/ (tsc's output, bundled: scripts/bundle-dist.ts), while a checkout runs the
 * TypeScript sources through tsx. tsx compiles with esbuild's keepNames, which wraps every named
 * closure in a call that redefines its `name`; a part that makes dozens of closures per run (the
 * tap's judges, the SSE parser) pays for it in CPU and in memory held per open run (measured on
 * 2026-11-26: the tap core in process 14.2 against 8.9 µs per event, 19 against 8.6 KB per open
 * run). A figure for a production deployment is taken on compiled code.
 *
 * The child is bundled with esbuild (the compiler tsx itself uses) without keepNames, its npm
 * dependencies left as imports, into reports/bench/compiled/ (inside the checkout, so those
 * imports resolve to its node_modules and core/package-root.ts finds the kit's files).
 */
import { mkdirSync, renameSync } from 'node:fs';
import { basename, join } from 'node:path';
import { buildSync } from 'esbuild';
import { repoRoot } from './children.ts';

/** Compile `entry` (a path from the repository root) and give the .mjs file to run with `node`. */
export function compileChild(entry: string): string {
  const dir = join(repoRoot, 'reports', 'bench', 'compiled');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `${basename(entry, '.ts')}.mjs`);
  // Built beside its final name and renamed: two benches compiling at once never run a half-written file.
  const partial = `${outfile}.${process.pid}.partial.mjs`;
  const result = buildSync({ entryPoints: [join(repoRoot, entry)], outfile: partial, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', keepNames: false, logLevel: 'silent' });
  if (result.errors.length > 0) throw new Error(`compileChild: esbuild could not compile ${entry}: ${result.errors.map((e) => e.text).join('; ')}`);
  renameSync(partial, outfile);
  return outfile;
}
