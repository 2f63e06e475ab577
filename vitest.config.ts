import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { pythonFirst } from './scripts/python-first.ts';

/**
 * The files that take longest (seconds in a clean-clone `.ci/run` on 2026-11-25), started first.
 * Vitest orders by the durations it cached, and a fresh clone has none: it then starts the largest
 * files first, and the Python transformer's certification (a small file, the longest run) started
 * 10.5 minutes into a 13.7-minute run and ran its last 3 minutes on one worker. Longest first keeps
 * both workers busy to the end; a file missing from the list keeps vitest's own order after these.
 */
const slowFirst = [
  'test/python-transformer.test.ts', // 185
  'test/package.test.ts', // 121
  'harness/mutants/gateway.mutants.test.ts', // 85
  'bench/bench.test.ts', // 80
  'test/hostile/gateway.test.ts', // 70
  'test/ci-recipes.test.ts', // 68
  'harness/mutants/client.mutants.test.ts', // 60
  'test/client-cmd.test.ts', // 56
  'test/jobs.test.ts', // 53
  'test/audit-bridge-cmd.test.ts', // 48
  'harness/mutants/transformer.mutants.test.ts', // 48
];

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = slowFirst.indexOf(relative(f.project.config.root, f.moduleId).split('\\').join('/'));
      return i < 0 ? slowFirst.length : i;
    };
    return sorted.map((f, i) => ({ f, i, r: rank(f) })).sort((a, b) => a.r - b.r || a.i - b.i).map(({ f }) => f);
  }
}

// Tests open real sockets on 127.0.0.1 and spawn child processes; two workers match the 2-core machines.
export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'reports/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: SlowFirstSequencer },
    env: { PATH: pythonFirst(process.env.PATH ?? '') },
  },
});
