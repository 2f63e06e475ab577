import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveShim } from './shim.ts';

function executable(file: string, body = 'exit 0'): void {
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

describe('resolveShim', () => {
  const root = mkdtempSync(join(tmpdir(), 'shim-'));
  const shims = join(root, '.pyenv', 'shims');
  const bin = join(root, 'bin');
  const real = join(root, '.pyenv', 'versions', '3.11.7', 'bin');
  const managerBin = join(root, 'manager');
  const other = join(root, 'tools', 'shims');
  for (const dir of [shims, bin, real, managerBin, other]) mkdirSync(dir, { recursive: true });
  executable(join(shims, 'python3'));
  executable(join(bin, 'python3'));
  executable(join(real, 'python3'));
  executable(join(other, 'ruby'));
  // A stand-in for pyenv: `pyenv which python3` prints the interpreter the shim would run.
  executable(join(managerBin, 'pyenv'), `[ "$1" = which ] && [ "$2" = python3 ] && echo ${join(real, 'python3')} && exit 0\nexit 1`);
  const why = "the certification starts the command once per scenario run, and each start through the shim pays the shim's own start-up first";

  it('runs the interpreter a pyenv shim selects, and says so', () => {
    const resolved = resolveShim('--transformer-cmd', 'python3 my_transformer.py --fast', [shims, bin, managerBin].join(delimiter));
    expect(resolved).toEqual({
      command: `${join(real, 'python3')} my_transformer.py --fast`,
      note: `note: --transformer-cmd: 'python3' is pyenv's shim (${join(shims, 'python3')}); running the program it selects here, ${join(real, 'python3')}, directly: ${why} (ADK_CONFORMANCE_KEEP_SHIMS=1 keeps the shim)`,
    });
  });

  it('keeps the shim when asked, or when the manager gives no answer, with the faster form in the note', () => {
    const note = `note: --transformer-cmd: 'python3' is pyenv's shim (${join(shims, 'python3')}); ${why}. The real program is much faster to start: --transformer-cmd "$(pyenv which python3) my.py"`;
    expect(resolveShim('--transformer-cmd', 'python3 my.py', [shims, managerBin].join(delimiter), true)).toEqual({ command: 'python3 my.py', note });
    expect(resolveShim('--transformer-cmd', 'python3 my.py', shims)).toEqual({ command: 'python3 my.py', note });
  });

  it('leaves the command alone when PATH finds the program itself first, or the command names a path', () => {
    expect(resolveShim('--transformer-cmd', 'python3 my.py', [bin, shims].join(delimiter))).toEqual({ command: 'python3 my.py' });
    expect(resolveShim('--transformer-cmd', `${join(shims, 'python3')} my.py`, shims)).toEqual({ command: `${join(shims, 'python3')} my.py` });
    expect(resolveShim('--transformer-cmd', 'no-such-program x', [shims, bin].join(delimiter))).toEqual({ command: 'no-such-program x' });
  });

  it('says how often the command starts for the tap too', () => {
    const resolved = resolveShim('--transformer-cmd', 'python3 t.py', [shims, managerBin].join(delimiter), false, 'the tap starts the command once per judged run');
    expect(resolved.command).toBe(`${join(real, 'python3')} t.py`);
    expect(resolved.note).toContain("directly: the tap starts the command once per judged run, and each start through the shim pays the shim's own start-up first");
  });

  it('names a shim of an unknown manager without guessing its command', () => {
    const resolved = resolveShim('--client-cmd', 'ruby client.rb', other);
    expect(resolved.command).toBe('ruby client.rb');
    expect(resolved.note).toContain(`a version manager's shim (${join(other, 'ruby')})`);
    expect(resolved.note).toContain('--client-cmd "/path/to/the/real/ruby client.rb"');
  });
});
