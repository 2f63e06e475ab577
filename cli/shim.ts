/**
 * A `--*-cmd` whose program is a version manager's shim (pyenv, rbenv, nodenv, asdf: an executable
 * in a folder named `shims` on PATH). A certification starts the command once per scenario run,
 * hundreds of times, and every start pays the shim's own start-up before the program's: pyenv's
 * bash shim costs about 350 ms a start where Python takes 75 ms, so the example transformer's
 * certification took 180.5 s through it against 38.8 s with the interpreter (docs/performance.md).
 *
 * `resolveShim` asks the manager once which program the shim runs here (`pyenv which python3`:
 * the same answer the shim gives, in the same folder and environment) and runs that program
 * directly, with a note saying so. ADK_CONFORMANCE_KEEP_SHIMS=1 keeps the command as given; a
 * shim of an unknown manager, or a manager that does not answer, keeps it too, with the note only.
 */
import { accessSync, constants } from 'node:fs';
import { execFileSync } from 'node:child_process';
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

function executable(file: string): boolean {
  try { accessSync(file, constants.X_OK); return true; } catch { return false; }
}

/** The program the manager's shim runs here, or undefined when it does not say. */
function whichOf(manager: string, program: string, path: string): string | undefined {
  try {
    const out = execFileSync(manager, ['which', program], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, PATH: path } }).trim();
    return isAbsolute(out) && !out.includes('\n') && basename(dirname(out)) !== 'shims' && executable(out) ? out : undefined;
  } catch {
    return undefined;
  }
}

export type ShimResolution = { command: string; note?: string };

/** `command` with a shim program replaced by the program it runs (when the manager says which), and a note; the command unchanged otherwise. */
export function resolveShim(flag: string, command: string, path: string, keep = false, starts = 'the certification starts the command once per scenario run'): ShimResolution {
  const program = command.trim().split(/\s+/)[0] ?? '';
  if (program === '' || program.includes('/')) return { command };
  const file = onPath(program, path);
  if (file === undefined || basename(dirname(file)) !== 'shims') return { command };
  const manager = managers[basename(dirname(dirname(file)))];
  const rest = command.trim().slice(program.length);
  const why = `${starts}, and each start through the shim pays the shim's own start-up first`;
  const real = manager !== undefined && !keep ? whichOf(manager, program, path) : undefined;
  if (real !== undefined && !/\s/.test(real)) {
    return { command: `${real}${rest}`, note: `note: ${flag}: '${program}' is ${manager}'s shim (${file}); running the program it selects here, ${real}, directly: ${why} (ADK_CONFORMANCE_KEEP_SHIMS=1 keeps the shim)` };
  }
  const faster = manager !== undefined ? `${flag} "$(${manager} which ${program})${rest}"` : `${flag} "/path/to/the/real/${program}${rest}"`;
  return { command, note: `note: ${flag}: '${program}' is ${manager ?? 'a version manager'}'s shim (${file}); ${why}. The real program is much faster to start: ${faster}` };
}

/** `resolveShim` with this process's PATH and ADK_CONFORMANCE_KEEP_SHIMS: what `run` and `tap` call. */
export function resolveShimHere(flag: string, command: string, starts?: string): ShimResolution {
  return resolveShim(flag, command, process.env.PATH ?? '', process.env.ADK_CONFORMANCE_KEEP_SHIMS === '1', starts);
}
