/**
 * A small, strict argument parser shared by every subcommand: `--name value`, `--name=value`,
 * boolean flags, and positionals. Unknown options are a usage error naming the nearest known one,
 * so a typo never silently changes a run.
 */
import { parseArgs } from 'node:util';

export class UsageError extends Error {
  override name = 'UsageError';
}

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
    throw new UsageError(`${message}\n\n${help}`);
  }
}

/** The candidate with the smallest edit distance, if it is close enough to be a plausible typo. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(word, candidate);
    if (d < bestDistance) { best = candidate; bestDistance = d; }
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** Parse a TCP port option: an integer 0..65535 (0 = let the kernel choose). */
export function parsePort(value: string | undefined, fallback: number, name = '--port'): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`${name} must be an integer from 0 to 65535, got '${value}'.`);
  return n;
}
