import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../args.ts';
import { validate } from '../../schemas/registry.ts';
import type { RunResult } from '../../harness/model.ts';
import { passingRun, realisticRun, shardOf } from '../../harness/reporters/test-fixture.ts';
import { run } from './report.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => { out.push(t); }, stderr: (t: string) => { err.push(t); } }, out: () => out.join(''), err: () => err.join('') };
}

let dir: string;
const shardDir = async (name: string, result: RunResult) => {
  const path = join(dir, name);
  await mkdir(path, { recursive: true });
  await writeFile(join(path, 'report.json'), JSON.stringify(result));
  return path;
};
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'adk-report-merge-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const full = realisticRun();
const one = shardOf(full, 1, 2, ['cedar_creek_briefing', 'client_disconnect']);
const two = shardOf(full, 2, 2, ['confidence_tiers', 'index_reuse', 'audit_bound']);

describe('report merge', () => {
  it('merges shard folders into --out with every reporter and exits 1 for a non-compliant run', async () => {
    const a = await shardDir('a', one);
    const b = await shardDir('b', two);
    const out = join(dir, 'merged');
    const c = capture();
    expect(await run(['merge', a, join(b, 'report.json'), '--out', out], c.io)).toBe(1);
    expect((await readdir(out)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md']);
    const merged = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as RunResult;
    expect(validate('report', merged).errors).toEqual([]);
    expect(merged.counts).toEqual(full.counts);
    expect(c.out()).toContain('merged 2 reports: 5 scenarios');
    expect(c.out()).toContain('verdict: non-compliant (MUST 1 of 5 passed (3 failed, 1 untested); SHOULD 2 of 3 passed (1 untested); MAY 1 of 2 passed (1 failed); does not meet the must gate)');
    expect(c.out()).toContain('Gate: the run passes (exit 0)');
    expect(c.err()).toBe('');
  });

  it('exits 0 when the merged verdict meets the gate, writing only the chosen reporters', async () => {
    const pass = passingRun();
    const a = await shardDir('pa', shardOf(pass, 1, 2, ['cedar_creek_briefing', 'client_disconnect']));
    const b = await shardDir('pb', shardOf(pass, 2, 2, ['confidence_tiers', 'index_reuse', 'audit_bound']));
    const out = join(dir, 'merged-pass');
    expect(await run(['merge', a, b, '--out', out, '--reporter', 'json,markdown'], capture().io)).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['report.json', 'report.md']);
  });

  it('exits 2 naming the files when shards disagree on the seed', async () => {
    const a = await shardDir('sa', one);
    const b = await shardDir('sb', { ...two, seed: 99 });
    const c = capture();
    expect(await run(['merge', a, b, '--out', join(dir, 'never')], c.io)).toBe(2);
    expect(c.err()).toContain(`the shards disagree on the seed (${join(a, 'report.json')}: 42, ${join(b, 'report.json')}: 99)`);
  });

  it('exits 2 naming the file and pointer of an invalid report', async () => {
    const a = await shardDir('ia', one);
    const b = await shardDir('ib', { ...two, counts: { ...two.counts, scenarios: { total: -1 } } } as unknown as RunResult);
    const c = capture();
    expect(await run(['merge', a, b, '--out', join(dir, 'never')], c.io)).toBe(2);
    expect(c.err()).toMatch(new RegExp(`${join(b, 'report.json')} is not a valid report .*/counts/scenarios`));
  });

  it('warns about a missing shard on stderr and still writes', async () => {
    const a = await shardDir('wa', { ...one, shard: { index: 1, total: 3 } });
    const c = capture();
    expect(await run(['merge', a, '--out', join(dir, 'merged-partial'), '--reporter', 'json'], c.io)).toBe(1);
    expect(c.err()).toContain('warning: shards 2, 3 of 3 missing');
  });

  it('usage errors: unknown subcommand, reporter, missing folder, --out over an input, no input', async () => {
    const a = await shardDir('ua', one);
    await expect(run(['marge', a], capture().io)).rejects.toThrow("unknown report command 'marge' (did you mean 'merge'?)");
    await expect(run(['merge', a, '--reporter', 'pdf'], capture().io)).rejects.toThrow(/--reporter: unknown reporter 'pdf'/);
    await expect(run(['merge', join(dir, 'absent')], capture().io)).rejects.toThrow(/absent does not exist/);
    await expect(run(['merge', a, '--out', a], capture().io)).rejects.toThrow(/holds the input .*write the merged reports to another folder/);
    await expect(run(['merge'], capture().io)).rejects.toThrow(UsageError);
  });

  it('--help prints the usage with the exit codes', async () => {
    const c = capture();
    expect(await run(['merge', '--help'], c.io)).toBe(0);
    expect(c.out()).toContain('exit: 0 the merged verdict meets the gate; 1 it does not; 2 usage error');
  });
});
