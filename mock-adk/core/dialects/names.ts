/**
 * A dialect is a server and a version (issue 12 §2). The versioned names are what help texts and
 * errors list; the two short names the corpus was written with stay accepted as aliases of the
 * versions they always meant. Internally the short keys remain (see types.ts), so code that
 * already branches on them keeps working; every input goes through resolveDialect() first.
 */
import type { Dialect } from '../types.ts';

/** Versioned name → internal key, in the order help texts list them. */
const VERSIONED: ReadonlyArray<readonly [string, Dialect]> = [
  ['adk-js@2.0', 'adk-js'],
  ['adk-js@1.4-1.6', 'adk-js@1.4-1.6'],
  ['adk-python@1.x-genC', 'adk-python'],
  ['adk-python@2.x', 'adk-python@2.x'],
  ['adk-go@2.0.0', 'adk-go@2.0.0'],
];

/** adk-js, whatever the version: one Express server, so one set of HTTP answers and request rules. */
export function isAdkJs(dialect: Dialect): boolean {
  return dialect === 'adk-js' || dialect === 'adk-js@1.4-1.6';
}

/** The short names the scenario corpus uses, kept as aliases. */
const ALIASES: Readonly<Record<string, Dialect>> = { 'adk-js': 'adk-js', 'adk-python': 'adk-python' };

/** Every versioned name, for help texts and errors. */
export const versionedDialectNames: readonly string[] = Object.freeze(VERSIONED.map(([name]) => name));

/** Every name a scenario, `--dialect` or `/_mock/arm` may use: versioned names, then aliases. */
export const acceptedDialectNames: readonly string[] = Object.freeze([...versionedDialectNames, ...Object.keys(ALIASES)]);

/** The internal key of a versioned name or alias, or undefined when the name is unknown. */
export function resolveDialect(name: unknown): Dialect | undefined {
  if (typeof name !== 'string') return undefined;
  return VERSIONED.find(([n]) => n === name)?.[1] ?? ALIASES[name];
}

/** The versioned name of an internal key (for banners and reports). */
export function versionedName(dialect: Dialect): string {
  return VERSIONED.find(([, key]) => key === dialect)?.[0] ?? dialect;
}

/** "adk-js@2.0 (alias adk-js), …": the list an error message names. */
export function describeDialects(): string {
  return VERSIONED.map(([name, key]) => {
    const alias = Object.keys(ALIASES).find((a) => ALIASES[a] === key);
    return alias ? `${name} (alias ${alias})` : name;
  }).join(', ');
}
