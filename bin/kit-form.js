// Which form of the kit a command runs: the compiled JavaScript in dist/ or the TypeScript sources
// through tsx (bin/adk-conformance.js). Plain JavaScript, as the bin is: it decides before tsx exists.
// - The installed package (no tsconfig.json: the package does not ship it): dist/, built by prepack.
// - A checkout: dist/ when it was emitted after the last change to any source it is compiled from
//   (the stamp scripts/checkout-dist.ts writes: `npm ci` runs it as `prepare`, vitest as its
//   globalSetup), else the sources, so a stale dist/ is never run. ADK_CONFORMANCE_FROM_DIST=1 takes
//   dist/ as it is (the tests: their globalSetup has just emitted it), 0 the sources.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The stamp of the last emit of `root`'s dist/. Outside dist/, which `npm pack` ships, and named by
 * the checkout, since worktrees and the package test's copy share one node_modules by a link.
 */
export function distStamp(root) {
  return join(root, 'node_modules', '.cache', `adk-conformance-dist-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`);
}

/** What dist/ is made from: tsconfig.build.json's `include`, the two tsconfig files, and the scripts that emit it. */
const buildFiles = ['tsconfig.json', 'tsconfig.build.json', 'scripts/checkout-dist.ts', 'scripts/bundle-dist.ts', 'scripts/precompile-schemas.ts'];
function sourcePaths(root) {
  const include = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')).include;
  return [...include.map((d) => join(root, d)), ...buildFiles.map((f) => join(root, f))];
}

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory()) latest = Math.max(latest, newest(join(path, entry.name)));
    else if (/\.(ts|json)$/.test(entry.name)) latest = Math.max(latest, statSync(join(path, entry.name)).mtimeMs);
  }
  return latest;
}

/** dist/ holds the CLI and was emitted after every source of it last changed. */
export function distIsFresh(root) {
  const stamp = distStamp(root);
  if (!existsSync(stamp) || !existsSync(join(root, 'dist', 'cli', 'main.js'))) return false;
  const emitted = statSync(stamp).mtimeMs;
  return sourcePaths(root).every((p) => !existsSync(p) || newest(p) <= emitted);
}

/** 'dist' or 'sources' for the kit at `root`, under `env` (process.env). */
export function kitForm(root, env) {
  const hasDist = existsSync(join(root, 'dist', 'cli', 'main.js'));
  if (!existsSync(join(root, 'tsconfig.json'))) return hasDist ? 'dist' : 'sources';
  if (env.ADK_CONFORMANCE_FROM_DIST === '1') return hasDist ? 'dist' : 'sources';
  if (env.ADK_CONFORMANCE_FROM_DIST === '0') return 'sources';
  return distIsFresh(root) ? 'dist' : 'sources';
}
