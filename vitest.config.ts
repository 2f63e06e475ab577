import { defineConfig } from 'vitest/config';
import { pythonFirst } from './scripts/python-first.ts';

// Tests open real sockets on 127.0.0.1 and spawn child processes. Three workers on the 2-core machines: the
// suite leaves a core idle a third of the time at two (its files wait on scenario timers, held-open
// streams and child processes); 1,138.8 s -> 965.5 s wall, the same 1.6 ks of CPU (docs/performance.md).
export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'reports/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 3,
    // The kit's own processes (the CLI a test starts, the gateway and proxy the harness launches) run
    // the compiled kit, emitted once before the tests (scripts/compiled-for-tests.ts).
    globalSetup: ['./scripts/compiled-for-tests.ts', './scripts/tests-tmpdir.ts'],
    // ADK_CONFORMANCE_TEST_CPU=FILE records each file's CPU (scripts/test-cpu-record.ts); a no-op without it.
    setupFiles: ['./scripts/test-cpu-record.ts'],
    env: { PATH: pythonFirst(process.env.PATH ?? ''), ADK_CONFORMANCE_FROM_DIST: '1' },
  },
});
