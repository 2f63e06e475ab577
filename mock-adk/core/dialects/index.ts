/**
 * The dialects the mock speaks: one real ADK server each. `render()` and the shells look a dialect
 * up here; adding a server means adding one module with a DialectSpec.
 */
import type { Dialect } from '../types.ts';
import { adkJs } from './adk-js.ts';
import { adkPython } from './adk-python.ts';
import type { DialectSpec } from './spec.ts';

export type { DialectSpec, SessionView } from './spec.ts';

export const dialects: Readonly<Record<Dialect, DialectSpec>> = Object.freeze({
  'adk-js': adkJs,
  'adk-python': adkPython,
});

export const dialectNames = Object.freeze(Object.keys(dialects) as Dialect[]);

/** The dialect of that name, or a TypeError naming the known ones. */
export function getDialect(name: string): DialectSpec {
  const spec = (dialects as Record<string, DialectSpec | undefined>)[name];
  if (!spec) throw new TypeError(`unknown dialect ${JSON.stringify(name)}; known dialects: ${dialectNames.join(', ')}`);
  return spec;
}
