import { defineConfig } from 'vitest/config';
import { pythonFirst } from './scripts/python-first.ts';

// Tests open real sockets on 127.0.0.1 and spawn child processes; two workers match the 2-core machines.
export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'reports/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    env: { PATH: pythonFirst(process.env.PATH ?? '') },
  },
});
