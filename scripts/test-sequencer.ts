/**
 * vitest's file order: the longest files first, so no long file starts last and runs alone at the
 * end. vitest's own sequencer orders by the durations it cached in an earlier run, and without one
 * (a fresh clone: CI) by file size, which put the mutant suites' slices (a few lines each that run a
 * hundred seconds, harness/mutants/slice.ts) at the very end. A file named in scripts/test-weights.json
 * (its wall seconds in a recorded run; `npx tsx scripts/test-cpu-report.ts FILE --weights` writes it)
 * goes by that weight, before the files it does not name, which keep vitest's order.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const weights = JSON.parse(readFileSync(new URL('./test-weights.json', import.meta.url), 'utf8')) as Record<string, number>;

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const weight = (f: TestSpecification) => weights[relative(this.ctx.config.root, f.moduleId)];
    const named = base.filter((f) => weight(f) !== undefined).sort((a, b) => (weight(b) as number) - (weight(a) as number));
    return [...named, ...base.filter((f) => weight(f) === undefined)];
  }
}
