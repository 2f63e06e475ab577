import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shimHint } from './shim-hint.ts';

function executable(file: string): void {
  writeFileSync(file, '#!/bin/sh\nexit 0\n');
  chmodSync(file, 0o755);
}

describe('shimHint', () => {
  const root = mkdtempSync(join(tmpdir(), 'shim-hint-'));
  const shims = join(root, '.pyenv', 'shims');
  const bin = join(root, 'bin');
  const other = join(root, 'tools', 'shims');
  mkdirSync(shims, { recursive: true });
  mkdirSync(bin, { recursive: true });
  mkdirSync(other, { recursive: true });
  executable(join(shims, 'python3'));
  executable(join(bin, 'python3'));
  executable(join(other, 'ruby'));

  it('names a pyenv shim and gives the command with the interpreter pyenv resolves', () => {
    const hint = shimHint('--transformer-cmd', 'python3 my_transformer.py --fast', [shims, bin].join(delimiter));
    expect(hint).toBe(`note: --transformer-cmd: 'python3' is pyenv's shim (${join(shims, 'python3')}); the certification starts the command once per scenario run, and each start pays the shim's own start-up first. The real program is much faster to start: --transformer-cmd "$(pyenv which python3) my_transformer.py --fast"`);
  });

  it('says nothing when PATH finds the program itself first, or the command names a path', () => {
    expect(shimHint('--transformer-cmd', 'python3 my.py', [bin, shims].join(delimiter))).toBeUndefined();
    expect(shimHint('--transformer-cmd', `${join(shims, 'python3')} my.py`, shims)).toBeUndefined();
    expect(shimHint('--transformer-cmd', 'no-such-program x', [shims, bin].join(delimiter))).toBeUndefined();
  });

  it('names a shim of an unknown manager without guessing its command', () => {
    expect(shimHint('--client-cmd', 'ruby client.rb', other)).toContain(`a version manager's shim (${join(other, 'ruby')})`);
    expect(shimHint('--client-cmd', 'ruby client.rb', other)).toContain('--client-cmd "/path/to/the/real/ruby client.rb"');
  });
});
