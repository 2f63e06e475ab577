/** `run --proof-stream-module`: the reference store is fully compliant, a mutant fails with its id (docs/proof-stream-contract.md). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-support.ts';

const out = () => mkdtempSync(join(tmpdir(), 'adk-proof-stream-'));

describe('run --proof-stream-module', () => {
  it('certifies the reference store fully compliant (exit 0)', async () => {
    const r = await runCli(['run', '--proof-stream-module', 'reference-impl/proof-layer-stream.ts', '--out', out()]);
    expect(r.stdout).toMatch(/^verdict: fully compliant/m);
    // The cases take no wall time (virtual time); the verdict line says the run's, set-up included, never 0.0 s.
    expect(r.stdout).toMatch(/^verdict: .* in (?!0\.0 s)\d+\.\d s$/m);
    // Seven PLS MUSTs are SHOULDs since issue 28 (seed 000 §4 describes a strategy): one MUST and ten SHOULDs.
    expect(r.stdout).toMatch(/^requirements: MUST 1 passed, 0 failed, 0 untested, \d+ n\/a; SHOULD 10 passed, 0 failed, 0 untested/m);
    expect(r.code).toBe(0);
  });

  it('fails the mutant that applies STATUS at once with PLS-STATUS-002 (a SHOULD: exit 1 at --level should)', async () => {
    const r = await runCli(['run', '--proof-stream-module', 'harness/mutants/proof-stream/modules/proof-stream-status-immediate.ts', '--level', 'should', '--out', out()]);
    expect(r.stdout).toMatch(/^FAIL PLS-STATUS-002 /m);
    expect(r.stdout).toMatch(/STATUS bursts: a STATUS update was applied before 300 ms had passed/);
    expect(r.code).toBe(1);
  });

  it('refuses a module path that does not exist (exit 2)', async () => {
    const r = await runCli(['run', '--proof-stream-module', 'no/such/store.ts', '--out', out()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--proof-stream-module no\/such\/store\.ts: no such file/);
  });
});
