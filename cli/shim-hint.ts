/**
 * A `--*-cmd` whose program is a version manager's shim (pyenv, rbenv, nodenv, asdf: an executable
 * in a folder named `shims` on PATH). A certification starts the command once per scenario run,
 * hundreds of times, and every start pays the shim's own start-up before the program's: pyenv's
 * bash shim costs about 350 ms a start where Python takes 75 ms, so the example transformer's
 * certification took 180.5 s through it against 38.8 s with the interpreter (docs/performance.md).
 * The kit runs the command as given; this only says so, with the faster form.
 */
import { accessSync, constants } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';

const managers: Record<string, string> = { '.pyenv': 'pyenv', '.rbenv': 'rbenv', '.nodenv': 'nodenv', '.asdf': 'asdf' };

/** The file PATH resolves `program` to, or undefined. */
function onPath(program: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const file = join(dir, program);
    try { accessSync(file, constants.X_OK); return file; } catch { /* next folder */ }
  }
  return undefined;
}

/** A one-line note when `command`'s program is a shim; undefined otherwise. */
export function shimHint(flag: string, command: string, path: string): string | undefined {
  const program = command.trim().split(/\s+/)[0] ?? '';
  if (program === '' || program.includes('/') || isAbsolute(program)) return undefined;
  const file = onPath(program, path);
  if (file === undefined || basename(dirname(file)) !== 'shims') return undefined;
  const manager = managers[basename(dirname(dirname(file)))];
  const rest = command.trim().slice(program.length);
  const faster = manager !== undefined ? `${flag} "$(${manager} which ${program})${rest}"` : `${flag} "/path/to/the/real/${program}${rest}"`;
  return `note: ${flag}: '${program}' is ${manager ?? 'a version manager'}'s shim (${file}); the certification starts the command once per scenario run, and each start pays the shim's own start-up first. The real program is much faster to start: ${faster}`;
}
