/**
 * The target flags as a user types them: an empty command is a usage error (exit 2) naming the
 * flag and the fix, never a TypeError from a runner.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.ts';
import { parseTargetSpec, type TargetFlags } from './spec.ts';

const usage = (flags: TargetFlags): string => {
  try { parseTargetSpec(flags); } catch (error) { expect(error).toBeInstanceOf(UsageError); return (error as Error).message; }
  throw new Error(`parseTargetSpec(${JSON.stringify(flags)}) did not throw`);
};

describe('command flags', () => {
  for (const flag of ['gateway-cmd', 'transformer-cmd', 'normalizer-cmd', 'client-cmd', 'audit-bridge-cmd', 'proxy-cmd'] as const) {
    it(`an empty or blank --${flag} is a usage error naming the flag, with an example`, () => {
      expect(usage({ [flag]: '' })).toMatch(new RegExp(`^--${flag} is empty; give the command .* e\\.g\\. --${flag} ".+" \\(docs/[\\w-]+\\.md\\)\\.$`));
      expect(usage({ [flag]: '   ' })).toMatch(new RegExp(`^--${flag} is empty`));
    });
  }

  it('a command is kept as given', () => {
    expect(parseTargetSpec({ 'normalizer-cmd': './my-normalizer' }).normalizer).toEqual({ command: './my-normalizer' });
  });
});
