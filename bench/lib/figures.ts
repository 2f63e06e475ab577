/**
 * What every benchmark returns: figures, each measured next to its baseline in the same run, with
 * the ratio and, where issue 7 sets one, the goal and whether it was met. A ratio holds better
 * than an absolute figure on a shared, noisy machine, so both are always kept.
 */
import { ratio, sig } from './stats.ts';

export type Goal = { text: string; met: boolean };

export type Figure = {
  /** What is measured, with its workload ("events/s, 100-event stream, 16 streams"). */
  name: string;
  unit: string;
  value: number;
  /** What the value is held against, measured in the same run. */
  baseline: { name: string; value: number } | null;
  /** value / baseline.value (null without a baseline). */
  ratio: number | null;
  goal?: Goal;
};

export type BenchResult = {
  /** The module's id (`mock`, `concurrency`...), also the `--only` name. */
  id: string;
  title: string;
  figures: Figure[];
  /** How it was measured (workload, concurrency, rounds), for the table's footnotes and the JSON. */
  notes: string[];
  /** Raw measurements for the JSON report. */
  details: Record<string, unknown>;
  /** Set when the benchmark could not run (the reason); its figures are then empty. */
  skipped?: string;
};

export type FigureInput = { name: string; unit: string; value: number; baseline?: { name: string; value: number } | null; goal?: Goal };

export function figure(input: FigureInput): Figure {
  if (typeof input.name !== 'string' || input.name === '') throw new TypeError('figure: name must be a non-empty string');
  const baseline = input.baseline ?? null;
  return {
    name: input.name,
    unit: input.unit,
    value: sig(input.value, 4),
    baseline: baseline ? { name: baseline.name, value: sig(baseline.value, 4) } : null,
    ratio: baseline ? roundRatio(ratio(input.value, baseline.value)) : null,
    ...(input.goal ? { goal: input.goal } : {}),
  };
}

function roundRatio(value: number | null): number | null {
  return value === null ? null : sig(value, 3);
}

/** A goal "at least `min`" on `value`. */
export function atLeast(value: number | null, min: number, text: string): Goal {
  return { text, met: value !== null && Number.isFinite(value) && value >= min };
}

/** A goal "under `max`" on `value`. */
export function below(value: number | null, max: number, text: string): Goal {
  return { text, met: value !== null && Number.isFinite(value) && value < max };
}

/** A goal "at most `max`" on `value`. */
export function atMost(value: number | null, max: number, text: string): Goal {
  return { text, met: value !== null && Number.isFinite(value) && value <= max };
}
