/**
 * Which `python3` the tests and the certification benchmark run: they start Python hundreds of times
 * (every scenario of a one-shot `--transformer-cmd` certification is a process), so what one start
 * costs before the script runs is most of a one-shot certification's CPU. `pythonFirst(PATH)` puts a
 * folder first on PATH whose only entry, `python3`, links to the interpreter chosen here:
 * - Debian's /usr/bin/python3 when it runs: the interpreter `npm test`'s pretest provisions with the
 *   packages the Python examples import (scripts/ensure-debian-packages.sh), so every test runs on the
 *   one interpreter the suite installs for itself. On the development machines it also starts in 10 ms
 *   of CPU, where pyenv's 3.11 takes 60 ms (its site-packages holds a `.pth` file that imports certifi
 *   at every start): a one-shot certification of the example Python transformer 44.4 s -> 22.2 s of CPU
 *   (docs/performance.md, fix 58);
 * - else the real interpreter behind `python3` on PATH: pyenv's shim is a bash script that costs about
 *   350 ms a start before Python itself starts.
 * Only `python3` moves: the folder holds nothing else, so `node`, `npm` and the rest resolve as before.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const debianPython = '/usr/bin/python3';
const linkFolder = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache', 'adk-conformance-python');

function executableOf(python: string): string | undefined {
  try {
    const exe = execFileSync(python, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8', timeout: 20_000 }).trim();
    return exe === '' ? undefined : exe;
  } catch {
    return undefined;
  }
}

/** A folder whose `python3` is `exe` (made or mended here; undefined when it cannot be written). */
function linkTo(exe: string): string | undefined {
  const link = join(linkFolder, 'python3');
  try {
    if (readlinkSync(link) === exe) return linkFolder;
    rmSync(link, { force: true });
  } catch {
    // no link yet
  }
  try {
    mkdirSync(linkFolder, { recursive: true });
    symlinkSync(exe, link);
    return linkFolder;
  } catch {
    return undefined;
  }
}

export function pythonFirst(path: string): string {
  const exe = executableOf(debianPython) ?? executableOf('python3');
  if (exe === undefined) return path; // no python3: whatever needs it says so in its own messages
  const folder = exe === debianPython ? linkTo(exe) : dirname(exe);
  return folder === undefined ? path : [folder, path].join(delimiter);
}
