#!/usr/bin/env node
// The installed package runs its compiled JavaScript (dist/, built by `npm pack`'s prepack). A
// repository checkout (it has tsconfig.json, which the package does not ship) runs the TypeScript
// sources through tsx, so no build step is needed after `npm ci` and a stale dist/ is never run.
// The sources need tsx from the start; the compiled kit registers it only when it loads a team's own
// TypeScript (--transformer-module my.ts, adk-conformance.config.ts: core/typescript-loader.ts), since
// its hooks cost every import of the kit's own a round trip (about half a second of each start).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const compiled = join(here, '..', 'dist', 'cli', 'main.js');
const checkout = existsSync(join(here, '..', 'tsconfig.json'));
const useDist = existsSync(compiled) && (!checkout || process.env.ADK_CONFORMANCE_FROM_DIST === '1');
let tsx = false;
if (!useDist) {
  try {
    const { register } = await import('tsx/esm/api');
    register();
    tsx = true;
  } catch {
    // Not installed: said below.
  }
}
if (!useDist && !tsx) {
  process.stderr.write('adk-conformance: this checkout has no dist/ and tsx is not installed: run `npm ci` (or `npm run build`)\n');
  process.exit(2);
}
const { main } = await import(pathToFileURL(useDist ? compiled : join(here, '..', 'cli', 'main.ts')).href);
process.exitCode = await main(process.argv.slice(2));
