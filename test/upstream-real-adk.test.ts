/**
 * `run --upstream real-adk-js`: the scenarios the real adk-js 2.0.0 runtime can play are played on
 * it first, and the target is certified on the bytes it wrote. The reference passes there as on the
 * mock; a shipped mutant fails there with its requirement id; the report says what served the run
 * and why the other scenarios were left out.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-support.ts';
import { transformerMutants } from '../harness/mutants/transformer/index.ts';

const outDir = () => mkdtempSync(join(tmpdir(), 'adk-upstream-'));

describe('run --upstream real-adk-js', () => {
  it('certifies the whole reference implementation fully compliant on the real runtime\'s bytes, and reports what it captured', async () => {
    const out = outDir();
    const r = await runCli(['run', '--upstream', 'real-adk-js', '--generated', '0', '--out', out]);
    expect(r.stdout).toMatch(/upstream: the REAL adk-js runtime \(@google\/adk 2\.0\.0/);
    expect(r.stdout).toMatch(/^verdict: fully compliant/m);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      upstream: { name: string; captured: string[]; leftOut: Array<{ id: string; reason: string }> };
      selection: { description: string };
      scenarios: Array<{ scenario: string; part: string; status: string }>;
    };
    expect(report.upstream.name).toBe('real-adk-js');
    expect(report.upstream.captured).toEqual(expect.arrayContaining(['plain_text', 'single_tool_call_streaming', 'transfer_to_specialist', 'model_error_event_safety']));
    expect(report.upstream.leftOut).toEqual(expect.arrayContaining([
      { id: 'missing_done_hold_open', reason: expect.stringMatching(/hold-open/) as unknown as string },
      { id: 'framing_huge_event', reason: expect.stringMatching(/raw bytes/) as unknown as string },
    ]));
    expect(report.selection.description).toMatch(/^--upstream real-adk-js gates only/);
    // No probe runs: probes script upstream behaviour only the mock plays.
    expect(report.scenarios.filter((s) => s.scenario.startsWith('probe:'))).toEqual([]);
    expect(new Set(report.scenarios.map((s) => s.part))).toEqual(new Set(['gateway', 'transformer', 'client']));
  }, 120_000);

  it('fails a shipped transformer mutant on the real runtime\'s bytes with the requirement it breaks', async () => {
    const mutant = transformerMutants.find((m) => m.id === 'transformer-transfer-answer-attributed-to-root');
    const t = mutant?.target.transformer;
    const module = t && 'module' in t ? t.module : undefined;
    if (!module) throw new Error('the mutant transformer-transfer-answer-attributed-to-root is not shipped');
    const r = await runCli(['run', '--transformer-module', module, '--upstream', 'real-adk-js', '--grep', 'transfer_to_specialist,plain_text', '--generated', '0', '--out', outDir()]);
    expect(r.stdout).toMatch(/^FAIL ABE-SRC-001 /m);
    expect(r.stdout).toMatch(/replay: npx adk-conformance run --transformer-module \S+ --upstream real-adk-js --grep transfer_to_specialist --seed \d+/);
    expect(r.code).toBe(1);
  }, 60_000);

  it('refuses an unknown upstream with the known ones (exit 2)', async () => {
    const r = await runCli(['run', '--upstream', 'real-adk', '--out', outDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--upstream must be one of mock, real-adk-js, got 'real-adk' \(did you mean 'real-adk-js'\?\)/);
  });
});
