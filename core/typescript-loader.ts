/**
 * TypeScript on demand. A checkout runs the kit's own sources through tsx (bin/adk-conformance.js
 * registers it first); the compiled kit (an installed package) needs tsx only for a team's own
 * TypeScript: a `--transformer-module my.ts`, an `adk-conformance.config.ts`. Registering tsx's
 * module hooks costs every later import a round trip to the hooks' thread: about half a second of
 * CPU per start of the compiled kit (0.62 to 0.67 s against 1.0 to 1.2 s of `run`'s start, measured
 * 2026-11-28), so the compiled kit registers them when the first such file is loaded, and only then.
 */

/**
 * This file itself runs as TypeScript (a checkout: `tsx cli/main.ts`, bin/adk-conformance.js, vitest):
 * a loader is registered already, and a second set of hooks would only add cost.
 */
const runningFromSources = /\.ts$/.test(new URL(import.meta.url).pathname);
let registered = runningFromSources;

/** A file Node cannot import without a TypeScript loader. */
export const isTypeScriptFile = (path: string): boolean => /\.(c|m)?tsx?$/i.test(path.split('?')[0] ?? path);

/**
 * Register tsx's module hooks before `path` is imported, when it is TypeScript and nothing registered
 * them yet. tsx is a dependency of the kit; should it be missing, Node's own error for the file stands.
 */
export async function loadTypeScriptFor(path: string): Promise<void> {
  if (registered || !isTypeScriptFile(path)) return;
  registered = true;
  try {
    const { register } = (await import('tsx/esm/api')) as { register: () => unknown };
    register();
  } catch {
    // Not installed: importing the file fails with Node's own message, which names the file.
  }
}
