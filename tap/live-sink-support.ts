/**
 * What every live sink needs to keep its promise to the tap (tap/live-events.ts): problems told
 * once, values of any size turned into bounded text. Pure apart from calling `onError`.
 */

/** The kinds of problem a sink reports: each is told once, the rest only counted. */
export type SinkProblem = 'export' | 'overflow' | 'internal';

export type ProblemReporter = {
  /** Tell `onError` about the first problem of this kind; count every one. */
  report(kind: SinkProblem, error: unknown): void;
  counts(): Record<SinkProblem, number>;
};

export function createProblemReporter(onError: (error: Error) => void, sink: string): ProblemReporter {
  const counts: Record<SinkProblem, number> = { export: 0, overflow: 0, internal: 0 };
  return {
    report(kind, error) {
      counts[kind] += 1;
      if (counts[kind] > 1) return;
      const cause = error instanceof Error ? error : new Error(String(error));
      // onError is the caller's code: if it throws, that must not reach the tap's byte path.
      try { onError(new Error(`${sink}: ${cause.message}`, { cause })); } catch { /* reported nowhere: the caller's handler is broken */ }
    },
    counts: () => ({ ...counts }),
  };
}

/** At most `max` characters, saying how long the whole was, so a reader never mistakes a prefix for the value. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [cut: ${text.length} characters]`;
}

/** A finding's `expected`/`actual` as JSON text, bounded; values JSON cannot hold (bigint, cycles) as their String(). */
export function jsonText(value: unknown, max: number): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return capText(text, max);
}

/** Check a numeric option at creation (configuration errors are thrown at once, with the fix). */
export function positiveInteger(name: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new TypeError(`${name} must be an integer from 1 to ${max}, got ${String(value)}: pass a whole number in that range or leave it out for the default (${fallback})`);
  }
  return value;
}
