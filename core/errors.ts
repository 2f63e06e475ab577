/**
 * The two errors that end a command with exit 2, shared by every layer (the CLI maps them to its
 * exit code; the harness and its configuration throw them). Both carry a message that says what
 * was wrong and how to fix it.
 */

/** A flag, a config value or an argument is wrong: nothing ran. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * The target could not be observed at all (nothing listens at its URL...): no verdict is given,
 * because a verdict over nothing observed would be vacuous. Exit 2, "could not evaluate".
 */
export class CouldNotEvaluateError extends Error {
  override name = 'CouldNotEvaluateError';
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
