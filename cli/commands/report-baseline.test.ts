import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../schemas/registry.ts';
import type { RunResult } from '../../harness/model.ts';
import { realisticRun, shardOf } from '../../harness/reporters/test-fixture.ts';
import { run } from './report.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => { out.push(t); }, stderr: (t: string) => { err.push(t); } }, out: () => out.join(''), err: () => err.join('') };
}

let dir: string;
const reportDir = async (name: string, result: RunResult) => {
  const path = join(dir, name);
  await mkdir(path, { recursive: true });
  await writeFile(join(path, 'report.json'), JSON.stringify(result));
  return path;
};
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'adk-report-baseline-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const full = realisticRun();

describe('report baseline', () => {
  it('writes a valid baseline to stdout and a count to stderr', async () => {
    const c = capture();
    expect(await run(['baseline', await reportDir('full', full), '--date', '2026-11-27'], c.io)).toBe(0);
    const written = JSON.parse(c.out()) as { knownFailures: Array<{ requirement: string; reason: string }> };
    expect(validate('baseline', written).errors).toEqual([]);
    expect(written.knownFailures.map((e) => e.requirement)).toEqual(['GW-ABORT-001', 'GW-HDR-004', 'GW-PASS-001', 'TR-CONF-002']);
    expect(c.err()).toMatch(/^report baseline: 4 known failures from .*report\.json \(verdict non-compliant, gate must\)\n$/);
  });

  it('refuses a shard alone, a bad date and a missing folder (usage errors)', async () => {
    await expect(run(['baseline', await reportDir('shard', shardOf(full, 1, 2, ['cedar_creek_briefing'])), '--date', '2026-11-27'], capture().io)).rejects.toThrow(/shard 1\/2 alone: merge the shards first/);
    await expect(run(['baseline', join(dir, 'full'), '--date', 'yesterday'], capture().io)).rejects.toThrow(/--date takes YYYY-MM-DD/);
    await expect(run(['baseline', join(dir, 'nowhere')], capture().io)).rejects.toThrow(/does not exist/);
  });
});

describe('report merge --baseline', () => {
  it('gates the merged report on the baseline: a new failure and a stale entry each fail it, named', async () => {
    const a = await reportDir('a', shardOf(full, 1, 2, ['cedar_creek_briefing', 'client_disconnect']));
    const b = await reportDir('b', shardOf(full, 2, 2, ['confidence_tiers', 'index_reuse', 'audit_bound']));
    const file = join(dir, 'baseline.json');
    const listed = ['GW-PASS-001', 'GW-HDR-004', 'GW-ABORT-001'].map((requirement) => ({ requirement, reason: 'known' }));
    await writeFile(file, JSON.stringify({ knownFailures: [...listed, { requirement: 'GW-HDR-001', reason: 'fixed since' }] }));
    const c = capture();
    expect(await run(['merge', a, b, '--out', join(dir, 'merged'), '--baseline', file], c.io)).toBe(1);
    expect(c.out()).toContain('NEW TR-CONF-002 failed and no baseline entry lists it');
    expect(c.out()).toMatch(/STALE baseline entry GW-HDR-001 \(.*baseline\.json \/knownFailures\/3\): GW-HDR-001 now passes/);
    expect(c.out()).toMatch(/verdict: non-compliant \(.*does not meet the must gate; baseline: 2 known failures baselined, 1 new, 1 stale entry, 1 entry not exercised: the baseline gate fails, exit 1\)/);
    const merged = JSON.parse(await readFile(join(dir, 'merged', 'report.json'), 'utf8')) as RunResult;
    expect(validate('report', merged).errors).toEqual([]);
    expect(merged.baseline?.passed).toBe(false);
  });

  it('an unknown id in the baseline is a usage error naming the entry', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify({ knownFailures: [{ requirement: 'GW-PASS-099', reason: 'x' }] }));
    await expect(run(['merge', join(dir, 'a'), '--baseline', file], capture().io)).rejects.toThrow(/--baseline .*bad\.json: \/knownFailures\/0 \(GW-PASS-099\): no requirement has this id \(did you mean 'GW-PASS-00\d'\?\)/);
  });
});
