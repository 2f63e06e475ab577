import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RequirementStatus, RunResult } from './model.ts';
import { mergeRunResults, readRunResult, type ShardInput } from './merge.ts';
import { validate } from '../schemas/registry.ts';
import { realisticRun, req, shardOf } from './reporters/test-fixture.ts';
import { tally } from './verdict.ts';
import { renderHtml } from './reporters/html.ts';
import { renderJunit } from './reporters/junit.ts';
import { renderMarkdown } from './reporters/markdown.ts';

const full = realisticRun();
const shard1 = shardOf(full, 1, 2, ['cedar_creek_briefing', 'client_disconnect']);
const shard2 = shardOf(full, 2, 2, ['confidence_tiers', 'index_reuse', 'audit_bound']);
const inputs = (...results: RunResult[]): ShardInput[] => results.map((result, i) => ({ file: `shard-${i + 1}/report.json`, result }));

describe('mergeRunResults', () => {
  it('the merge of two shards has every scenario and the statuses, counts and verdict of the whole run', () => {
    const { result, warnings } = mergeRunResults(inputs(shard1, shard2));
    expect(warnings).toEqual([]);
    expect(result.scenarios.map((s) => s.scenario)).toEqual(full.scenarios.map((s) => s.scenario));
    expect(Object.fromEntries(result.requirements.map((r) => [r.id, r.status]))).toEqual(Object.fromEntries(full.requirements.map((r) => [r.id, r.status])));
    expect(result.counts).toEqual(full.counts);
    expect(result.verdict).toBe(full.verdict);
    expect(result.passed).toBe(false);
    expect(result.shard).toBeUndefined();
  });

  it('each shard alone is non-compliant for want of the other\'s scenarios', () => {
    expect(shard2.counts.requirements.MUST.untested).toBeGreaterThan(0);
  });

  it('the merged report is valid against the report schema', () => {
    const { result } = mergeRunResults(inputs(shard1, shard2));
    expect(validate('report', JSON.parse(JSON.stringify(result))).errors).toEqual([]);
  });

  it('shard order does not matter', () => {
    expect(mergeRunResults(inputs(shard2, shard1)).result.requirements.map((r) => [r.id, r.status]).sort()).toEqual(mergeRunResults(inputs(shard1, shard2)).result.requirements.map((r) => [r.id, r.status]).sort());
  });

  it('a requirement one shard passed stays untested when another shard\'s probe errored on it, as in a single run', () => {
    const withScenario = (index: number, status: RequirementStatus, scenario: RunResult['scenarios'][number]) => {
      const requirements = [req({ id: 'X-1', level: 'MUST', status, ...(status === 'untested' ? { reason: 'the scenario did not finish within 200 ms' } : { scenarios: ['s1'] }) })];
      return { ...full, shard: { index, total: 2 }, requirements, scenarios: [scenario], ...tally({ gate: full.gate, requirements, scenarios: [scenario], mutants: full.counts.mutants }) };
    };
    const passed = withScenario(1, 'passed', { scenario: 's1', part: 'gateway', status: 'passed', durationMs: 1, timeline: [], replay: 'r', outcomes: [{ requirement: 'X-1', scenario: 's1', status: 'passed', findings: [] }] });
    const errored = withScenario(2, 'untested', { scenario: 'probe:p', part: 'gateway', status: 'errored', durationMs: 200, timeline: [], replay: 'r', error: 'the scenario did not finish within 200 ms', outcomes: [{ requirement: 'X-1', scenario: 'probe:p', status: 'untested', findings: [], reason: 'the scenario did not finish within 200 ms' }] });
    const { result } = mergeRunResults(inputs(passed, errored));
    expect(result.requirements[0]).toMatchObject({ id: 'X-1', status: 'untested', reason: 'passed elsewhere, but probe:p errored: the scenario did not finish within 200 ms' });
    // Observed by s1, so a verdict, not "could not evaluate".
    expect(result.verdict).toBe('non-compliant');
  });

  it('combines a requirement as failed over passed over untested, over generated shard statuses', () => {
    const seed = 424242;
    console.log(`fast-check seed ${seed}`);
    const status = fc.constantFrom<RequirementStatus>('passed', 'failed', 'untested');
    fc.assert(fc.property(fc.array(status, { minLength: 1, maxLength: 5 }), (statuses) => {
      const shards = statuses.map((s, i) => {
        const requirements = [req({ id: 'X-1', level: 'MUST', status: s, provenBy: i === 0 ? ['m1'] : [] }), req({ id: 'X-2', level: 'SHOULD', status: 'passed' })];
        return { ...full, shard: { index: i + 1, total: statuses.length }, requirements, scenarios: [], ...tally({ gate: full.gate, requirements, scenarios: [], mutants: full.counts.mutants }) };
      });
      const merged = mergeRunResults(inputs(...shards)).result.requirements.find((r) => r.id === 'X-1');
      const expected = statuses.includes('failed') ? 'failed' : statuses.includes('passed') ? 'passed' : 'untested';
      expect(merged?.status).toBe(expected);
      expect(merged?.provenBy).toEqual(['m1']);
    }), { seed, numRuns: 200 });
  });

  it('passed in one shard and untested in another is passed, without the untested reason', () => {
    const { result } = mergeRunResults(inputs(shard1, shard2));
    const r = result.requirements.find((x) => x.id === 'NB-IDX-001');
    expect(r?.status).toBe('passed');
    expect(r?.reason).toBeUndefined();
  });

  it('keeps the mutant tally of the run: every shard runs the whole registry', () => {
    expect(mergeRunResults(inputs(shard1, shard2)).result.counts.mutants).toEqual({ total: 8, killed: 6 });
  });

  it('spans the shards\' time', () => {
    const later = { ...shard2, startedAt: '2026-05-01T10:00:01.000Z', finishedAt: '2026-05-01T10:00:05.000Z' };
    const { result } = mergeRunResults(inputs(shard1, later));
    expect([result.startedAt, result.finishedAt, result.durationMs]).toEqual(['2026-05-01T10:00:00.000Z', '2026-05-01T10:00:05.000Z', 5000]);
  });

  it('refuses shards with different seeds, naming the files and values', () => {
    expect(() => mergeRunResults(inputs(shard1, { ...shard2, seed: 7 }))).toThrow('cannot merge: the shards disagree on the seed (shard-1/report.json: 42, shard-2/report.json: 7); run every shard with the same --seed');
  });

  it('refuses shards with different gates, naming the files', () => {
    expect(() => mergeRunResults(inputs(shard1, { ...shard2, gate: { level: 'may', untestedFails: true } }))).toThrow(/gate level \(shard-1\/report.json: "must", shard-2\/report.json: "may"\)/);
  });

  it('refuses the same shard twice and shards of different totals', () => {
    expect(() => mergeRunResults(inputs(shard1, shard1))).toThrow('cannot merge: shard-1/report.json and shard-2/report.json are both shard 1; pass each shard\'s report once');
    expect(() => mergeRunResults(inputs(shard1, { ...shard2, shard: { index: 2, total: 3 } }))).toThrow(/shard total/);
  });

  it('refuses a requirement defined differently in two shards', () => {
    const changed = { ...shard2, requirements: shard2.requirements.map((r) => (r.id === 'GW-HDR-001' ? { ...r, level: 'SHOULD' as const } : r)) };
    expect(() => mergeRunResults(inputs(shard1, changed))).toThrow(/requirement GW-HDR-001 is defined differently in shard-1\/report.json \(MUST.*shard-2\/report.json \(SHOULD/);
  });

  it('warns about missing shards and overlapping scenarios, keeping the worse result', () => {
    const of3 = { ...shard1, shard: { index: 1, total: 3 } };
    const overlap = { ...shard2, shard: { index: 3, total: 3 }, scenarios: [...shard2.scenarios, { ...full.scenarios[0]!, status: 'passed' as const }] };
    const { result, warnings } = mergeRunResults(inputs(of3, overlap));
    expect(warnings).toContain('shard 2 of 3 missing: their requirements stay untested unless another shard exercised them');
    expect(warnings.some((w) => /scenario cedar_creek_briefing \(gateway\) is in both .*kept the failed result/.test(w))).toBe(true);
    expect(result.scenarios.find((s) => s.scenario === 'cedar_creek_briefing')?.status).toBe('failed');
  });

  it('refuses an empty list with how to fix it', () => {
    expect(() => mergeRunResults([])).toThrow(/no report given; pass the directories/);
  });
});

describe('readRunResult', () => {
  const dirs: string[] = [];
  afterAll(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });
  const file = async (name: string, text: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'adk-merge-'));
    dirs.push(dir);
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  it('reads a valid report', async () => {
    const path = await file('report.json', JSON.stringify(shard1));
    expect((await readRunResult(path)).shard).toEqual({ index: 1, total: 2 });
  });

  it('names the file when it is not JSON, not a report, or missing', async () => {
    const notJson = await file('a.json', '{"verdict": ');
    await expect(readRunResult(notJson)).rejects.toThrow(`${notJson} is not JSON`);
    const notReport = await file('b.json', JSON.stringify({ ...shard1, verdict: 'great' }));
    await expect(readRunResult(notReport)).rejects.toThrow(new RegExp(`${notReport} is not a valid report .*/verdict`));
    await expect(readRunResult('/nonexistent/report.json')).rejects.toThrow(/cannot read \/nonexistent\/report.json/);
  });
});

describe('readRunResult with a report missing model fields', () => {
  it('refuses it, naming the file and the missing fields', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adk-minimal-'));
    const minimal = {
      tool: { name: 'adk-conformance', version: '9.9.9' }, startedAt: '2026-05-01T10:00:00Z', finishedAt: '2026-05-01T10:00:01Z', durationMs: 1000,
      target: { description: 'other writer', parts: ['gateway'] }, gate: { level: 'must' }, seed: 1, verdict: 'fully compliant', passed: true,
      counts: { requirements: { MUST: { passed: 1, failed: 0, untested: 0, 'not-applicable': 0 }, SHOULD: { passed: 0, failed: 0, untested: 0, 'not-applicable': 0 }, MAY: { passed: 0, failed: 0, untested: 0, 'not-applicable': 0 } }, scenarios: { total: 1, passed: 1, failed: 0, errored: 0 }, mutants: { total: 0, killed: 0 } },
      requirements: [{ id: 'GW-HDR-001', title: 'content type', level: 'MUST', source: { doc: 'seed-004', section: 'HTTP Headers' }, status: 'passed', findings: [], provenBy: [] }],
      scenarios: [{ scenario: 's1', status: 'passed', durationMs: 3, timeline: [], outcomes: [{ requirement: 'GW-HDR-001', scenario: 's1', status: 'passed', findings: [] }] }],
    };
    const path = join(dir, 'report.json');
    await writeFile(path, JSON.stringify(minimal));
    await expect(readRunResult(path)).rejects.toThrow(/report\.json is not a valid report .*must have required property 'quote'/s);
    await rm(dir, { recursive: true, force: true });
  });
});
