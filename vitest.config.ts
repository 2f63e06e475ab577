import { execFileSync } from 'node:child_process';
import { delimiter, dirname } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * pyenv's shim (the `python3` on PATH of the development machines) is a bash script that costs about
 * 350 ms a start before Python itself starts (35 ms), and the tests start Python hundreds of times
 * (every scenario of a `--transformer-cmd` certification is a process). The real interpreter's folder
 * goes first on the tests' PATH, so `python3` in a command is the same interpreter without the shim.
 */
function pythonFirst(path: string): string {
  try {
    const exe = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8', timeout: 20_000 }).trim();
    return exe === '' ? path : [dirname(exe), path].join(delimiter);
  } catch {
    return path; // no python3: the tests that need it say so in their own messages
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
    env: { PATH: pythonFirst(process.env.PATH ?? '') },
  },
});
