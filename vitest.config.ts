import { defineConfig } from 'vitest/config';
import { pythonFirst } from './scripts/python-first.ts';
import { SlowestFirst } from './scripts/slowest-first.ts';

// Tests open real sockets on 127.0.0.1 and spawn child processes; two workers match the 2-core machines.
export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'reports/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    // A fresh clone has no file timings: the slowest files start first (scripts/slowest-first.ts).
    sequence: { sequencer: SlowestFirst },
    env: { PATH: pythonFirst(process.env.PATH ?? '') },
  },
});
