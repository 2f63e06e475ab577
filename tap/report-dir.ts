/**
 * Where a tap's reports go when --out is not given: a folder of its own under reports/tap/, named
 * by the time the tap started (`reports/tap/2026-11-27T22-10-05Z/`), claimed with an exclusive
 * mkdir so two taps started in the same second get `...Z-2/` rather than one overwriting the
 * other's reports (issue 31 §4). A tap that writes no report removes its empty folder.
 */
import { mkdirSync, readdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

export const tapReportsBase = join('reports', 'tap');

/** `2026-11-27T22-10-05Z`: sortable, and valid in a file name everywhere. */
export function stampOf(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-');
}

export function claimReportDir(base: string, date: Date): string {
  mkdirSync(base, { recursive: true });
  const stamp = stampOf(date);
  for (let n = 1; ; n++) {
    const dir = join(base, n === 1 ? stamp : `${stamp}-${n}`);
    try {
      mkdirSync(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 1000) throw error;
    }
  }
}

/** Remove a claimed folder the tap wrote nothing into. */
export function releaseIfEmpty(dir: string): void {
  try { if (readdirSync(dir).length === 0) rmdirSync(dir); } catch { /* already gone */ }
}
