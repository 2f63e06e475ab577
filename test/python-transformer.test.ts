/**
 * The Python example transformer (examples/python-transformer) certified the way a team in
 * another language certifies theirs: the `adk-conformance run --transformer-cmd` CLI as a child
 * process, against the real mock and corpus plus 200 generated runs at a pinned seed. The README
 * claims it is fully compliant: the test asserts exactly that verdict and exit 0, and that
 * report.json agrees. `npm run test:deep` certifies it again on 2,000 runs at a random seed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-support.ts';
import { afterAll, describe, expect, it } from 'vitest';

const out = mkdtempSync(join(tmpdir(), 'adk-python-transformer-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));


describe('the Python example transformer', () => {
  it('is certified fully compliant through --transformer-cmd on the corpus and 200 generated runs (exit 0), with report.json, junit.xml, report.md and report.html', async () => {
    const seed = process.env.EXAMPLE_SEED ?? '7';
    const { code, stdout, stderr } = await runCli(['run', '--transformer-cmd', 'python3 examples/python-transformer/transformer.py', '--out', out, '--seed', seed, '--generated', '200']);
    const verdict = /^verdict: (non-compliant|MUST-compliant|SHOULD-compliant|fully compliant) /m.exec(stdout);
    const failures = stdout.split('\n').filter((l) => /^(FAIL|UNTESTED) |^  /.test(l)).slice(0, 30).join('\n');
    expect(verdict?.[1], `seed ${seed}: the example is not fully compliant; replay: npx adk-conformance run --transformer-cmd "python3 examples/python-transformer/transformer.py" --seed ${seed} --generated 200\n${failures || stdout.slice(-2000)}\n${stderr.slice(-1000)}`).toBe('fully compliant');
    expect(code).toBe(0);
    for (const file of ['report.json', 'junit.xml', 'report.md', 'report.html']) expect(existsSync(join(out, file)), file).toBe(true);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { verdict: string; target: { parts: string[] }; requirements: Array<{ id: string; status: string }> };
    expect(report.verdict).toBe(verdict?.[1]);
    expect(report.target.parts).toEqual(['transformer']);
    // Every transformer requirement was judged (passed or failed), none left untested.
    const mine = report.requirements.filter((r) => /^(ABE|PL)-/.test(r.id));
    expect(mine.length).toBeGreaterThan(20);
    expect(mine.filter((r) => r.status === 'untested').map((r) => r.id)).toEqual([]);
    // It speaks the session form (docs/session-protocol.md), so --protocol auto ran it that way.
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toContain('session form: python-transformer 1.0.0 (python) said ready');
  }, 400_000);

  it('is still fully compliant in the one-shot form, a fresh process per run (--protocol one-shot, the corpus)', async () => {
    const dir = join(out, 'one-shot');
    const { code, stdout } = await runCli(['run', '--transformer-cmd', 'python3 examples/python-transformer/transformer.py', '--protocol', 'one-shot', '--out', dir, '--generated', '0']);
    expect(/^verdict: (.*?) \(/m.exec(stdout)?.[1], stdout.slice(-2000)).toBe('fully compliant');
    expect(code).toBe(0);
    const report = readFileSync(join(dir, 'report.json'), 'utf8');
    expect(report).not.toContain('said ready');
    expect(report).toContain('measured once with an empty input');
  }, 400_000);
});
