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
});
