/**
 * The target flags as a user types them: an empty command, a module that is not JavaScript or
 * TypeScript, a directory. Each is a usage error (exit 2) naming the flag and the fix, never a
 * TypeError from a runner or Node's "Unknown file extension".
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.ts';
import { parseTargetSpec, type TargetFlags } from './spec.ts';

const dir = mkdtempSync(join(tmpdir(), 'adk-spec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

  it('--startup-timeout S is one bound for every part that starts a process, in seconds, and is refused out of range', () => {
    expect(parseTargetSpec({ 'transformer-cmd': 'npx tsx t.ts', 'startup-timeout': '12.5' }).startupTimeoutMs).toBe(12_500);
    expect(parseTargetSpec({ 'client-cmd': './c', 'startup-timeout': '5' }).startupTimeoutMs).toBe(5_000);
    expect(() => parseTargetSpec({ 'transformer-cmd': 't', 'startup-timeout': '0' })).toThrow(UsageError);
    expect(() => parseTargetSpec({ 'transformer-cmd': 't', 'startup-timeout': 'ten' })).toThrow(/--startup-timeout takes seconds from 0.1 to 3600/);
  });
});

describe('module flags', () => {
  const py = join(dir, 'store.py');
  writeFileSync(py, 'def createProofLayerStream(): pass\n');
  const folder = join(dir, 'impl');
  mkdirSync(folder);

  it('a file that is not JavaScript or TypeScript says what a module must be and what to use instead', () => {
    expect(usage({ 'proof-stream-module': py })).toBe(`--proof-stream-module ${py}: a module is loaded into the harness's Node process, so it must be JavaScript or TypeScript (.js, .mjs, .cjs, .ts, .mts, .cts), not .py; for an implementation in another language, the proof-layer stream has no command mode (it runs in virtual time in process): wrap your store in a small JavaScript module exporting createProofLayerStream (docs/proof-stream-contract.md).`);
    expect(usage({ 'normalizer-module': py })).toMatch(/not \.py; for an implementation in another language, use --normalizer-cmd "CMD" \(docs\/normalizer\.md\)\.$/);
    expect(usage({ 'transformer-module': py })).toMatch(/use --transformer-cmd "CMD"/);
    expect(usage({ 'adk-server-module': py })).toMatch(/not \.py; for an implementation in another language, the server helper is handed a live adk-js Runner in process, so it has no command mode/);
  });

  it('a directory names itself and asks for the file', () => {
    expect(usage({ 'normalizer-module': folder })).toBe(`--normalizer-module ${folder} is a directory (${folder}); give the module file itself, e.g. --normalizer-module ${join(folder, 'index.ts')}.`);
  });

  it('an empty module flag asks for a path, and a missing file says where it looked', () => {
    expect(usage({ 'client-module': '' })).toMatch(/^--client-module is empty; give the path of a JavaScript or TypeScript module/);
    expect(usage({ 'client-module': join(dir, 'nope.ts') })).toMatch(/: no such file \(resolved to /);
  });

  it('a JavaScript or TypeScript file is accepted whatever its case', () => {
    for (const name of ['a.js', 'b.mjs', 'c.cjs', 'd.ts', 'e.mts', 'F.TS']) {
      writeFileSync(join(dir, name), '');
      expect(parseTargetSpec({ 'normalizer-module': join(dir, name) }).normalizer).toEqual({ module: join(dir, name) });
    }
  });

  it('--adk-server-module names the server-helper part, and the run is then not the reference run', () => {
    writeFileSync(join(dir, 'helper.ts'), '');
    const spec = parseTargetSpec({ 'adk-server-module': join(dir, 'helper.ts') });
    expect([spec.adkServer, spec.reference]).toEqual([{ module: join(dir, 'helper.ts') }, false]);
  });
});
