#!/usr/bin/env node
// The installed package runs its compiled JavaScript (dist/, built by `npm pack`'s prepack). A
// repository checkout (it has tsconfig.json, which the package does not ship) runs dist/ while it is
// newer than every source it is compiled from (`npm ci` emits it: the `prepare` script), else the
// TypeScript sources through tsx, so a stale dist/ is never run (bin/kit-form.js).
// The sources need tsx from the start; the compiled kit registers it only when it loads a team's own
// TypeScript (--transformer-module my.ts, adk-conformance.config.ts: core/typescript-loader.ts), since
// its hooks cost every import of the kit's own a round trip (about half a second of each start).
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { kitForm } from './kit-form.js';

// V8's code for the kit's modules, kept between runs (Node 22.1 and later; os.tmpdir()/node-compile-cache,
// checked against each file's content): every `run` starts the kit again in its gateway and proxy
// instances and memory hosts, and compiling it was most of each start.
module.enableCompileCache?.();

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const useDist = kitForm(root, process.env) === 'dist';
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
const { main } = await import(pathToFileURL(join(root, useDist ? 'dist/cli/main.js' : 'cli/main.ts')).href);
process.exitCode = await main(process.argv.slice(2));
