/**
 * The run's seed. By default it is derived from the kit's version, so the same code certified by
 * the same kit gets the same verdict in every CI run; `--seed random` explores (and prints the seed
 * that makes a failure a regression case); `--seed N` replays.
 */
import { randomInt } from 'node:crypto';
import { UsageError } from '../core/errors.ts';

export type SeedSource = 'default' | 'given' | 'random';

/** FNV-1a of `adk-conformance@<version>`, folded to a positive 31-bit integer. */
export function defaultSeed(version: string): number {
  let h = 0x811c9dc5;
  const text = `adk-conformance@${version}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h % 2147483646) + 1;
}

export function resolveSeed(text: string | undefined, version: string): { seed: number; seedSource: SeedSource } {
  if (text === undefined) return { seed: defaultSeed(version), seedSource: 'default' };
  if (text === 'random') return { seed: randomInt(1, 2 ** 31 - 1), seedSource: 'random' };
  const seed = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(seed)) throw new UsageError(`--seed must be a non-negative integer or 'random', got '${text}'.`);
  return { seed, seedSource: 'given' };
}

/** How a report names its seed: "seed 123 (default for adk-conformance 0.1.0)". */
export function describeSeed(seed: number, source: SeedSource, version: string): string {
  if (source === 'default') return `seed ${seed} (the default of adk-conformance ${version}: every run of this kit version uses it; --seed random explores)`;
  if (source === 'random') return `seed ${seed} (random: --seed random; add --seed ${seed} to replay this run)`;
  return `seed ${seed} (given)`;
}
