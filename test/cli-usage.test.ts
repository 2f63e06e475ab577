/**
 * Usage and configuration errors of `run`, through the CLI as a user meets them: exit 2, one line
 * on stderr naming the flag and the fix, no stack trace, nothing certified. Syntax errors are
 * here rather than in harness/targets/module-target.test.ts because only the real loaders (Node
 * for JavaScript, tsx for TypeScript) report them; vitest transforms modules itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'adk-cli-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => { const path = join(dir, name); writeFileSync(path, text); return path; };
const out = ['--out', join(dir, 'reports')];

function expectUsage(r: { code: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(r.stdout).not.toMatch(/^verdict/m);
  expect(r.code).toBe(2);
}

describe('run: usage and configuration errors (exit 2, no stack trace)', () => {
  it('a bad ADK_CONFORMANCE_CHILD_NICE names the variable and its range', async () => {
    expectUsage(await runCli(['run', ...out], { ADK_CONFORMANCE_CHILD_NICE: '20' }), /^adk-conformance run: ADK_CONFORMANCE_CHILD_NICE="20": expected a whole number from 0 to 19/m);
  }, 30_000);

  it('an empty --normalizer-cmd names the flag', async () => {
    expectUsage(await runCli(['run', '--normalizer-cmd', '', ...out]), /^adk-conformance run: --normalizer-cmd is empty; give the command that reads one turn's input events on stdin/m);
  }, 30_000);

  it('a --normalizer-module without createBlockNormalizer stops at once saying what to export', async () => {
    const path = file('no-export.mjs', 'export const x = 1;\n');
    expectUsage(await runCli(['run', '--normalizer-module', path, ...out]), new RegExp(`^adk-conformance run: --normalizer-module ${path} exports no createBlockNormalizer function \\(it exports: x\\); export createBlockNormalizer\\(\\{onEvent\\}\\) returning \\{feed, end\\} \\(docs/harness-normalizer\\.md\\)\\.$`, 'm'));
  }, 30_000);

  it('a --proof-stream-module without createProofLayerStream is the same configuration error', async () => {
    const path = file('no-export-pls.mjs', 'export const x = 1;\n');
    expectUsage(await runCli(['run', '--proof-stream-module', path, ...out]), /--proof-stream-module .* exports no createProofLayerStream function \(it exports: x\)/);
  }, 30_000);

  it('a JavaScript module with a syntax error names the file and the line', async () => {
    const path = file('syntax.mjs', 'export const x = 1;\nexport function createProofLayerStream( {\n');
    expectUsage(await runCli(['run', '--proof-stream-module', path, ...out]), new RegExp(`--proof-stream-module ${path} cannot be loaded: syntax error at ${path}:3: SyntaxError: Unexpected end of input\\.`));
  }, 30_000);

  it('a TypeScript module with a syntax error names the file, the line and the column', async () => {
    const path = file('syntax.mts', 'export const x = 1;\nexport function createBlockNormalizer( {\n');
    expectUsage(await runCli(['run', '--normalizer-module', path, ...out]), new RegExp(`--normalizer-module ${path} cannot be loaded: syntax error at ${path}:3:0: Expected identifier but found end of file\\.`));
  }, 30_000);

  // A .ts module outside an ESM package now loads (issue 31 §3): harness/targets/load-module.test.ts
  // shows it in real Node processes with the loader the CLI registers.

  it('a module in another language says what a module must be and what to use instead', async () => {
    const path = file('store.py', 'def createProofLayerStream(): pass\n');
    expectUsage(await runCli(['run', '--proof-stream-module', path, ...out]), /must be JavaScript or TypeScript \(\.js, \.mjs, \.cjs, \.ts, \.mts, \.cts\), not \.py; for an implementation in another language, the proof-layer stream has no command mode/);
  }, 30_000);
});

describe('run --grep', () => {
  it('a --grep that matches nothing suggests the nearest word as it is spelled', async () => {
    expectUsage(await runCli(['run', '--normalizer-cmd', 'true', '--grep', 'BLK-IDX-999', ...out]), /^adk-conformance run: --grep BLK-IDX-999 matches no requirement id or tag, no scenario id, family or tag and no probe, exactly or as a substring \(did you mean 'BLK-IDX-001'\?\)/m);
  }, 30_000);

  it('a probe is selected by its name or its console label, as docs/harness-normalizer.md says, and gates what it exercises', async () => {
    for (const grep of ['normalizer-generated-turns', 'probe:normalizer-generated-turns']) {
      const r = await runCli(['run', '--normalizer-module', 'reference-impl/block-normalizer.ts', '--grep', grep, '--seed', '7', ...out]);
      expect(r.stdout).toMatch(/^runs: 1\/1 passed, 0 failed, 0 errored \(0 runs of 0 scenarios in 1 part, and 1 probe run\)/m);
      expect(r.stdout).toMatch(/^verdict: fully compliant/m);
      expect(r.code).toBe(0);
    }
  }, 60_000);
});

describe('CLI conventions (issue 31 §4)', () => {
  const reference = ['--transformer-module', 'harness/targets/transformer/reference.ts', '--generated', '0'];

  it('--version prints the kit version alone', async () => {
    const r = await runCli(['--version']);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    expect(r.code).toBe(0);
  }, 30_000);

  it('--grep cedar selects by substring and says how many scenarios matched; --reporter json --out - puts the report alone on stdout', async () => {
    const r = await runCli(['run', ...reference, '--grep', 'cedar', '--reporter', 'json', '--out', '-']);
    const report = JSON.parse(r.stdout) as { verdict: string; scenarios: { scenario: string }[] };
    expect(report.verdict).toBe('fully compliant');
    expect(new Set(report.scenarios.filter((s) => !s.scenario.startsWith('probe:')).map((s) => s.scenario))).toEqual(new Set(['cedar_creek_briefing', 'cedar_creek_briefing_adk_js', 'cedar_creek_briefing_python_streaming', 'cedar_creek_briefing_seed_events', 'cedar_creek_briefing_streaming']));
    expect(r.stderr).toMatch(/^--grep 'cedar' \(substring\): 5 scenarios matched \(cedar_creek_briefing, /m);
    expect(r.stderr).toMatch(/^selection: --grep cedar gates only/m);
    expect(r.stderr).toMatch(/^verdict: fully compliant \(/m);
    expect(r.stderr).toMatch(/^reports: report\.json on stdout$/m);
    // Not a terminal and no FORCE_COLOR: no colour.
    expect(r.stderr).not.toContain('\x1b[');
    expect(r.code).toBe(0);
  }, 60_000);

  it('--out - with several reporters, and --bail 0, are usage errors', async () => {
    expectUsage(await runCli(['run', ...reference, '--out', '-']), /--out - writes one report to stdout: choose one reporter, e.g. --reporter json/);
    expectUsage(await runCli(['run', ...reference, '--bail', '0', ...out]), /--bail must be a positive integer/);
  }, 30_000);

  it('--bail 1 stops after the first failed run (exit 1); FORCE_COLOR paints FAIL red in a log', async () => {
    const broken = file('broken-transformer.mjs', 'export function createTransformer({ onEvent }) { return { push() {}, end() { onEvent({ type: "BROKEN" }); } }; }\n');
    const r = await runCli(['run', '--transformer-module', broken, '--generated', '0', '--grep', 'cedar', '--bail', '1', '--jobs', '1', ...out], { FORCE_COLOR: '1' });
    expect(r.stdout).toMatch(/^\[transformer\] \x1b\[31mfailed \x1b\[39m cedar_creek_briefing /m);
    expect(r.stdout).toContain('not run: --bail 1 stopped the run after 1 failed run');
    expect(r.stdout).toMatch(/^\x1b\[31mFAIL\x1b\[39m ABE-/m);
    expect(r.stdout).toMatch(/^verdict: non-compliant \(.*\x1b\[31mdoes not meet the MUST gate\x1b\[39m[;)]/m);
    expect(r.code).toBe(1);
  }, 60_000);
});
