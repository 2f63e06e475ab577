/**
 * A small, strict argument parser shared by every subcommand: `--name value`, `--name=value`,
 * boolean flags, and positionals. Unknown options are a usage error naming the nearest known one,
 * so a typo never silently changes a run.
 */
import { parseArgs } from 'node:util';

import { UsageError, nearest } from '../core/errors.ts';

// Shared with the harness through core/ (lower layers never import the CLI).
export { UsageError, CouldNotEvaluateError, nearest } from '../core/errors.ts';

export type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean; default?: string | boolean }>;

export function parseOptions<const S extends OptionSpec>(argv: string[], spec: S, help: string) {
  try {
    const parsed = parseArgs({ args: argv, options: { ...spec, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
    return { values: parsed.values as { [K in keyof S]?: S[K]['type'] extends 'string' ? (S[K]['multiple'] extends true ? string[] : string) : boolean } & { help?: boolean }, positionals: parsed.positionals, help };
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /Unknown option '(--?[^']+)'/.exec(message)?.[1];
    if (unknown) {
      const near = nearest(unknown.replace(/^-+/, ''), Object.keys(spec));
      throw new UsageError(`unknown option '${unknown}'${near ? ` (did you mean '--${near}'?)` : ''}.\n\n${help}`);
    }
    // `--runs -3`: parseArgs will not take a value that starts with a dash; name the value and what the option takes.
    const dashed = /Option '(--[^']+)' argument is ambiguous/.exec(message)?.[1];
    if (dashed) {
      const value = argv[argv.indexOf(dashed) + 1] ?? '';
      throw new UsageError(`${dashed} got '${value}', which starts with a dash: ${/^-\d/.test(value) ? `${dashed} takes no negative number` : `a value that starts with a dash is written ${dashed}=${value}`}.\n\n${help}`);
    }
    throw new UsageError(`${message}\n\n${help}`);
  }
}

/** Parse a TCP port option: an integer 0..65535 (0 = let the kernel choose). */
export function parsePort(value: string | undefined, fallback: number, name = '--port'): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`${name} must be an integer from 0 to 65535, got '${value}'.`);
  return n;
}
