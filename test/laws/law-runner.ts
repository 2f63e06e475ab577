/**
 * How laws and fuzz tests run fast-check: a pinned seed and a CI-sized count in `npm test`,
 * `FC_SEED` / `FC_RUNS` / `FC_PATH` to override them (`npm run test:deep` sets a random seed and a
 * large count), and on failure a report with the shrunk counterexample, the seed and a one-line
 * replay command for exactly that case.
 */
import fc from 'fast-check';

/** The seed `npm test` uses unless FC_SEED says otherwise. */
export const pinnedSeed = 20_260_601;

export type LawParams = { seed: number; numRuns: number; path?: string };

function intFromEnv(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) {
    throw new TypeError(`${name} must be an integer >= ${min}, got '${value}'; unset it for the pinned default (e.g. FC_SEED=12345 FC_RUNS=500 npx vitest run test/laws)`);
  }
  return n;
}

/**
 * The parameters of one law: FC_SEED (any integer) replaces the pinned seed, FC_RUNS the CI count,
 * FC_PATH (from a failure report) replays one counterexample.
 */
export function lawParams(ciRuns: number, env: Record<string, string | undefined> = process.env): LawParams {
  const seed = env.FC_SEED ? intFromEnv('FC_SEED', env.FC_SEED, -(2 ** 31)) : pinnedSeed;
  const numRuns = env.FC_RUNS ? intFromEnv('FC_RUNS', env.FC_RUNS, 1) : ciRuns;
  const path = env.FC_PATH?.trim();
  return path ? { seed, numRuns, path } : { seed, numRuns };
}

/** What a describe title says, so every run names its seed. */
export function describeParams(p: LawParams): string {
  return `fast-check seed ${p.seed}, ${p.numRuns} runs${p.path ? `, replaying path ${p.path}` : ''}`;
}

const regexEscape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The one line that replays one failing case of one law. */
export function replayCommand(file: string, law: string, seed: number, path: string | null): string {
  return `FC_SEED=${seed}${path ? ` FC_PATH=${path}` : ''} FC_RUNS=1 npx vitest run ${file} -t ${shellQuote(regexEscape(law))}`;
}

/**
 * Check a property; on failure throw fast-check's report (the shrunk counterexample and the error)
 * followed by the seed and the replay command. `file` is the test file relative to the repo root.
 */
export async function checkLaw<T>(file: string, law: string, property: fc.IAsyncProperty<T> | fc.IProperty<T>, params: LawParams): Promise<void> {
  const details = await fc.check(property as fc.IRawProperty<T>, { seed: params.seed, numRuns: params.numRuns, ...(params.path ? { path: params.path } : {}) });
  if (!details.failed) return;
  const report = fc.defaultReportMessage(details) ?? `property failed after ${details.numRuns} runs`;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(`${report}\n\nfailure: ${cause}\n\nseed ${details.seed}; replay this case:\n  ${replayCommand(file, law, details.seed, details.counterexamplePath)}`, { cause: details.errorInstance });
}

/**
 * A test timeout that grows with the count: at least 90 s for CI counts, and room for
 * `npm run test:deep`, with three times the usual cost per run as slack for a busy machine. A hang
 * bound, not a speed assertion: the client's completion law (150 runs) took 35.5 s beside the other
 * files in a clean-clone CI on a slow 2-core machine, past the 30 s it had (2026-11-30).
 */
export function lawTimeout(p: LawParams, msPerRun: number): number {
  return Math.max(90_000, Math.ceil(p.numRuns * msPerRun * 3));
}
