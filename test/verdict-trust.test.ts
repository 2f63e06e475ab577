/**
 * Verdicts a team can trust, through the CLI as CI runs it (issue 11 §3): a target nothing answers
 * at cannot be evaluated (exit 3, one reason, no findings); the default seed is the same in every
 * run of a kit version; `--seed random` says so and prints how to keep a failure; a run narrowed by
 * --grep gates what it selected and says so.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-support.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSeed, resolveSeed } from '../harness/seed.ts';
import { packageVersion } from '../harness/version.ts';

const out = mkdtempSync(join(tmpdir(), 'adk-verdict-trust-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));


/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('verdicts over what was observed', () => {
  it('a gateway URL nothing listens at is "could not evaluate": exit 3, one reason, no finding and no report', async () => {
    const port = await closedPort();
    const dir = join(out, 'unreachable');
    const run = await runCli(['run', '--gateway', `http://127.0.0.1:${port}`, '--out', dir]);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/^verdict: could not evaluate \(exit 3\)$/m);
    expect(run.stderr).toMatch(new RegExp(`could not evaluate: the gateway at http://127\\.0\\.0\\.1:${port} cannot be reached \\(ECONNREFUSED\\)`));
    expect(run.stdout).not.toMatch(/passed|FAIL|probe:/);
    expect(() => readFileSync(join(dir, 'report.json'))).toThrow();
  }, 30_000);

  it('a gateway command that never listens, gated on GW-MEM-002 alone, is "could not evaluate" (exit 3), never MUST-compliant (issue 28 §2)', async () => {
    const dir = join(out, 'never-listens');
    const run = await runCli(['run', '--gateway-cmd', 'sleep 600', '--grep', 'GW-MEM-002', '--startup-timeout', '2', '--out', dir, '--reporter', 'json']);
    expect(run.code, run.stdout.slice(-1500)).toBe(3);
    expect(run.stdout).toMatch(/^verdict: could not evaluate \(SHOULD 0 of 1 passed \(1 untested\); no MUST or MAY requirement applies; nothing applicable was observed/m);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { verdict: string; passed: boolean; requirements: Array<{ id: string; status: string; reason?: string }> };
    expect(report).toMatchObject({ verdict: 'could not evaluate', passed: false });
    expect(report.requirements.find((r) => r.id === 'GW-MEM-002')?.reason).toMatch(/timed out/);
  }, 60_000);

  it('the default seed derives from the kit version, so two runs without --seed use the same one', () => {
    const version = packageVersion();
    expect(resolveSeed(undefined, version)).toEqual({ seed: defaultSeed(version), seedSource: 'default' });
    expect(defaultSeed(version)).toBe(defaultSeed(version));
    expect(defaultSeed('0.1.0')).not.toBe(defaultSeed('0.2.0'));
    expect(resolveSeed('42', version)).toEqual({ seed: 42, seedSource: 'given' });
    expect(resolveSeed('random', version).seedSource).toBe('random');
    expect(() => resolveSeed('4x', version)).toThrow(/--seed must be a non-negative integer or 'random', got '4x'/);
  });

  it('a replay narrowed by --grep gates only what its scenarios exercise, prints that, and passes on the reference', async () => {
    const dir = join(out, 'grep');
    const run = await runCli(['run', '--transformer-module', 'harness/targets/transformer/reference.ts', '--grep', 'plain_text', '--out', dir]);
    expect(run.code, run.stdout.slice(-1500)).toBe(0);
    expect(run.stdout).toMatch(/^selection: --grep plain_text gates only the \d+ requirements its \d+ selected scenario runs exercise; \d+ others are outside the selection/m);
    expect(run.stdout).toMatch(new RegExp(`seed ${defaultSeed(packageVersion())} \\(the default of adk-conformance`));
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { seedSource: string; selection: { grep: string[] }; requirements: Array<{ status: string; reason?: string }> };
    expect(report.seedSource).toBe('default');
    expect(report.selection.grep).toEqual(['plain_text']);
    expect(report.requirements.some((r) => r.status === 'not-applicable' && /outside this run's selection/.test(r.reason ?? ''))).toBe(true);
    expect(report.requirements.filter((r) => r.status === 'untested')).toEqual([]);
  }, 60_000);

  it('--seed random is reported as random in the report', async () => {
    const dir = join(out, 'random');
    const run = await runCli(['run', '--transformer-module', 'harness/targets/transformer/reference.ts', '--grep', 'plain_text', '--seed', 'random', '--out', dir]);
    expect(run.code, run.stdout.slice(-1500)).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { seed: number; seedSource: string };
    expect(report.seedSource).toBe('random');
    expect(run.stdout).toContain(`seed ${report.seed} (random: --seed random; add --seed ${report.seed} to replay this run)`);
  }, 60_000);
});
