/**
 * The dialects the mock speaks: one real ADK server (and version) each. `render()` and the shells
 * look a dialect up here; adding a server means adding one module with a DialectSpec.
 */
import type { Dialect } from '../types.ts';
import { adkGo } from './adk-go.ts';
import { adkJs } from './adk-js.ts';
import { adkJs1x } from './adk-js-1x.ts';
import { adkPython2x } from './adk-python-2x.ts';
import { adkPython } from './adk-python.ts';
import { describeDialects, resolveDialect } from './names.ts';
import type { DialectSpec } from './spec.ts';

export type { DialectSpec, SessionView } from './spec.ts';
export { acceptedDialectNames, describeDialects, isAdkJs, resolveDialect, versionedDialectNames, versionedName } from './names.ts';

export const dialects: Readonly<Record<Dialect, DialectSpec>> = Object.freeze({
  'adk-js': adkJs,
  'adk-js@1.4-1.6': adkJs1x,
  'adk-python': adkPython,
  'adk-python@2.x': adkPython2x,
  'adk-go@2.0.0': adkGo,
});

/** The internal keys (see types.ts); user-facing lists use versionedDialectNames. */
export const dialectNames = Object.freeze(Object.keys(dialects) as Dialect[]);

/** The dialect of that name (versioned or alias), or a TypeError naming the known ones. */
export function getDialect(name: string): DialectSpec {
  const key = resolveDialect(name);
  if (!key) throw new TypeError(`unknown dialect ${JSON.stringify(name)}; known dialects: ${describeDialects()}`);
  return dialects[key];
}
