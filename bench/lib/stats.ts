/** Small statistics for benchmark samples: quantiles by the nearest-rank rule, rates, rounding. */

/** The p-quantile (0..1) by nearest rank; NaN for no samples. Sorts a copy. */
export function quantile(samples: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile: p must be within 0..1, got ${p}`);
  if (samples.length === 0) return Number.NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank] as number;
}

export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

/** value / baseline, or null when either is missing or the baseline is 0. */
export function ratio(value: number, baseline: number): number | null {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return null;
  return value / baseline;
}

/** Round to `digits` significant digits (figures are measurements, not exact counts). */
export function sig(value: number, digits = 3): number {
  if (!Number.isFinite(value) || value === 0) return value;
  return Number(value.toPrecision(digits));
}

export const MB = 1024 * 1024;

/** The least-squares slope of y on x: every point counts, so one noisy reading moves it less than a first-to-last difference. */
export function slopeOf(points: ReadonlyArray<{ x: number; y: number }>): number {
  if (points.length < 2) return Number.NaN;
  const mx = points.reduce((a, p) => a + p.x, 0) / points.length;
  const my = points.reduce((a, p) => a + p.y, 0) / points.length;
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0) / sxx;
}

/**
 * The slope's standard error: how far the fit itself moves with the scatter of the reads around it
 * (residuals over n - 2, divided by the spread of x). A bound tighter than about two of these cannot
 * be shown met or missed by these reads.
 */
export function slopeStandardError(points: ReadonlyArray<{ x: number; y: number }>): number {
  if (points.length < 3) return Number.NaN;
  const slope = slopeOf(points);
  const mx = points.reduce((a, p) => a + p.x, 0) / points.length;
  const my = points.reduce((a, p) => a + p.y, 0) / points.length;
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  const residuals = points.reduce((a, p) => a + (p.y - (my + slope * (p.x - mx))) ** 2, 0);
  return Math.sqrt(residuals / (points.length - 2) / sxx);
}
