/**
 * pyenv's shim (the `python3` on PATH of the development machines) is a bash script that costs about
 * 350 ms a start before Python itself starts (35 ms), and the tests and the certification benchmark
 * start Python hundreds of times (every scenario of a `--transformer-cmd` certification is a
 * process). `pythonFirst(PATH)` puts the real interpreter's folder first, so `python3` in a command
 * is the same interpreter without the shim. Used by vitest.config.ts and bench/certify.ts.
 */
import { execFileSync } from 'node:child_process';
import { delimiter, dirname } from 'node:path';

export function pythonFirst(path: string): string {
  try {
    const exe = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8', timeout: 20_000 }).trim();
    return exe === '' ? path : [dirname(exe), path].join(delimiter);
  } catch {
    return path; // no python3: whatever needs it says so in its own messages
  }
}
