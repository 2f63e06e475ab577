/**
 * vitest's file order for a fresh clone (issue 14, "a faster test suite"). vitest starts the files
 * it has timed before longest first, but a fresh clone (CI) has no timings, and then it starts the
 * largest files first: the Python transformer's certification, one short file that runs 176 s,
 * started 656 s into an 835 s run and ran alone for its last 50 s. Longest first is the classic
 * rule for packing jobs on a fixed number of workers: the files measured slowest start first (in
 * this order), the rest keep vitest's own order after them.
 *
 * The list: the slowest files of `npx vitest run --reporter=json --outputFile=r.json` on a 2-core
 * machine (2026-11-26), each over 40 s. A file missing here only starts later; a listed file that
 * no longer exists is skipped.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { relative } from 'node:path';

export const slowestFiles: readonly string[] = [
  'test/python-transformer.test.ts', // 176 s: 287 runs of a Python process per run and comparison
  'bench/bench.test.ts', // 80 s (not timing-sensitive: it checks the figures' shape, not their values)
  'test/package.test.ts', // 75 s: npm pack, installs, a strict type-check, a certification
  'harness/mutants/gateway.mutants.test.ts', // 90 s
  'test/hostile/gateway.test.ts', // 63 s
  'harness/mutants/client.mutants.test.ts', // 54 s
  'test/client-cmd.test.ts', // 54 s
  'test/ci-recipes.test.ts', // 50 s
  'harness/mutants/transformer.mutants.test.ts', // 48 s
  'test/audit-bridge-cmd.test.ts', // 47 s
  'test/jobs.test.ts', // 44 s
];

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = slowestFiles.indexOf(relative(spec.project.config.root, spec.moduleId).split('\\').join('/'));
      return at < 0 ? slowestFiles.length : at;
    };
    // Array.prototype.sort is stable: files off the list keep vitest's order among themselves.
    return [...base].sort((a, b) => rank(a) - rank(b));
  }
}
