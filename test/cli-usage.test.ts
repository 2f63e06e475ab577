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

  it('a .ts module outside an ESM package names the fix: "type": "module" in its package.json, or .mts (issue 28 §4)', async () => {
    const esm = mkdtempSync(join(tmpdir(), 'adk-cli-esm-'));
    try {
      const path = join(esm, 't.ts');
      writeFileSync(path, "import { randomUUID } from 'node:crypto';\nexport function createTransformer() { return { push() {}, end() { randomUUID(); } }; }\n");
      expectUsage(await runCli(['run', '--transformer-module', path, ...out]), new RegExp(`--transformer-module ${path} cannot be loaded: Node loaded it as CommonJS \\(no package\\.json above it says "type": "module"\\), .*Add "type": "module" to a package\\.json in ${esm} .*or rename it \\.mts`));
    } finally { rmSync(esm, { recursive: true, force: true }); }
  }, 30_000);

  it('a module in another language says what a module must be and what to use instead', async () => {
    const path = file('store.py', 'def createProofLayerStream(): pass\n');
    expectUsage(await runCli(['run', '--proof-stream-module', path, ...out]), /must be JavaScript or TypeScript \(\.js, \.mjs, \.cjs, \.ts, \.mts, \.cts\), not \.py; for an implementation in another language, the proof-layer stream has no command mode/);
  }, 30_000);
});

describe('run --grep', () => {
  it('a --grep that matches nothing suggests the nearest word as it is spelled', async () => {
    expectUsage(await runCli(['run', '--normalizer-cmd', 'true', '--grep', 'BLK-IDX-999', ...out]), /^adk-conformance run: --grep BLK-IDX-999 matches no requirement id or tag, no scenario id, family or tag and no probe \(did you mean 'BLK-IDX-001'\?\)/m);
  }, 30_000);

  it('a probe is selected by its name or its console label, as docs/harness-normalizer.md says, and gates what it exercises', async () => {
    for (const grep of ['normalizer-generated-turns', 'probe:normalizer-generated-turns']) {
      const r = await runCli(['run', '--normalizer-module', 'reference-impl/block-normalizer.ts', '--grep', grep, '--seed', '7', ...out]);
      expect(r.stdout).toMatch(/^scenarios: 1\/1 passed \(runs of 0 scenarios in 1 part, and 1 probe\)/m);
      expect(r.stdout).toMatch(/^verdict: fully compliant/m);
      expect(r.code).toBe(0);
    }
  }, 60_000);
});
