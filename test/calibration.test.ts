/**
 * docs/calibration.md records the kit's verdict on implementations written from the seeds' sample
 * code taken literally (examples/calibration/). This test certifies each again, on the scenarios
 * its table row names, and asserts the verdict and the exact set of failed requirements the table
 * records: a change to the kit that changes what it says about real code shows up here, and the
 * doc cannot drift from the kit.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-support.ts';

/** `failed`: ids the row asserts; `either`: ids written `ID?`, whose verdict the machine's speed decides for this implementation (said in the doc). */
type Row = { name: string; flag: string; value: string; grep: string; verdict: string; failed: string[]; either: string[] };

/** The rows between the calibration-verdicts markers; a row that cannot be read fails here, not later. */
function rows(markdown: string): Row[] {
  const block = /<!-- calibration-verdicts:start -->\n([\s\S]*?)\n<!-- calibration-verdicts:end -->/.exec(markdown)?.[1];
  if (!block) throw new Error('docs/calibration.md has no calibration-verdicts block; fix: keep the <!-- calibration-verdicts:start/end --> markers around the table');
  return block.split('\n').slice(2).map((line) => {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    const target = /^(--[a-z-]+) (.+)$/.exec(cells[1] ?? '');
    if (cells.length !== 5 || !target) throw new Error(`docs/calibration.md: unreadable row "${line}"; fix: | name | --flag value | grep | verdict | ids |`);
    const ids = (cells[4] as string).split(',').map((s) => s.trim()).filter(Boolean);
    return { name: cells[0] as string, flag: target[1] as string, value: target[2] as string, grep: cells[2] as string, verdict: cells[3] as string, failed: ids.filter((id) => !id.endsWith('?')), either: ids.filter((id) => id.endsWith('?')).map((id) => id.slice(0, -1)) };
  });
}

const table = rows(readFileSync('docs/calibration.md', 'utf8'));
const out = mkdtempSync(join(tmpdir(), 'adk-calibration-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the calibration verdicts of docs/calibration.md', () => {
  it('records the implementations of issue 29 §2', () => {
    expect(table.map((r) => r.name)).toEqual(['fetch-split-client', 'eventsource-parser-client', 'seed-literal-transformer', 'fetch-event-source-client', 'requests-client', 'seed-literal-gateway', 'next-route-proxy', 'seed-literal-ts-transformer', 'seed-literal-ts-audit-bridge', 'adk-devtools-client']);
  });

  for (const row of table) {
    // An example with its own package.json needs its library installed (its README says how); the kit does not depend on it.
    const dir = /^examples\/calibration\/[\w-]+/.exec(row.value.split(' ').find((w) => w.startsWith('examples/')) ?? '')?.[0];
    const missing = dir !== undefined && existsSync(join(dir, 'package.json')) && !existsSync(join(dir, 'node_modules'));
    it.skipIf(missing)(`${row.name}: ${row.verdict}, failing exactly ${row.failed.join(', ')}${missing ? ` (skipped: run npm install --prefix ${dir})` : ''}`, async () => {
      const reports = join(out, row.name);
      // --timeout-ms 60000: the rows are what the kit says of the code, not of the machine. requests-client
      // starts a Python process for every byte case, and its probe overran the default 30 s bound twice, beside
      // the other test files and alone, at load average 6 on two slow cores (clean-clone CI, 2026-11-30): its
      // byte-case requirements were then untested ("timed out ... raise it with --timeout-ms"), as they should be.
      const { stdout, stderr } = await runCli(['run', row.flag, row.value, '--grep', row.grep, '--generated', '0', '--timeout-ms', '60000', '--reporter', 'json', '--out', reports]);
      const verdict = /^verdict: (\S+) /m.exec(stdout)?.[1];
      expect(verdict, `${stdout.slice(-1500)}\n${stderr.slice(-800)}`).toBe(row.verdict);
      const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as { requirements: Array<{ id: string; status: string; reason?: string }> };
      expect(report.requirements.filter((r) => r.status === 'failed' && !row.either.includes(r.id)).map((r) => r.id).sort()).toEqual([...row.failed].sort());
      // Nothing the doc's row relies on was left unjudged, but for an optional feature the implementation
      // does not have, whose reason names the profile capability that declares it (ABE-USAGE-001).
      expect(report.requirements.filter((r) => r.status === 'untested' && !row.either.includes(r.id) && !/capabilities \{"[a-z-]+": false\}/.test(r.reason ?? '')).map((r) => `${r.id}: ${r.reason ?? 'no reason'}`)).toEqual([]);
    }, 240_000);
  }
});
