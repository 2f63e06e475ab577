/**
 * The hostile battery, normaliser commands (`--normalizer-cmd`): a few misbehaving normalisers of
 * test/hostile/impls/normalizer.mjs on one index-reuse scenario and the generated-turns probe,
 * through the real CLI. Exit 1 with a verdict, a reason naming what happened, a wall time under the
 * bound, no process left behind. docs/hostile.md lists the cases.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cliAllowanceMs, crashPattern, createLimiter, impl, killLeftovers, newMarker, processesWith, runCli } from './support.ts';
import { fairStretch } from '../../harness/fair-timer.ts';

const timeoutMs = 4000;
const limit = createLimiter(2);
const markers: string[] = [];
afterAll(() => { for (const m of markers) killLeftovers(m); });

type Case = { mode: string; does: string; reason: RegExp };

const cases: Case[] = [
  { mode: 'garbage', does: 'writes lines that are not JSON and a last line without LF', reason: /output line 1 is not JSON/ },
  { mode: 'exits-at-once', does: 'exits with status 3 before reading anything', reason: /the normaliser exited with status 3/ },
  { mode: 'never-exits', does: 'reads its input and never exits', reason: /the normaliser did not finish within \d+ ms/ },
  { mode: 'stderr-only', does: 'writes only to stderr and exits 0', reason: /the output has no stream_end/ },
];

describe.concurrent(`hostile normaliser commands (${cases.length} cases, --timeout-ms ${timeoutMs})`, () => {
  for (const c of cases) {
    // One scenario and the generated-turns probe, each bounded by --timeout-ms, the first overrun repeated alone
    // once (harness/engine-confirm.ts), plus the CLI's own start and finish.
    const bound = cliAllowanceMs + 3 * timeoutMs * fairStretch;
    it(`a normaliser that ${c.does} gets a verdict with the reason, within ${bound} ms, and leaves no process behind`, async () => {
      const marker = newMarker(c.mode);
      markers.push(marker);
      expect(processesWith(marker)).toEqual([]);
      const run = await limit(() => runCli(['--normalizer-cmd', `node ${impl('normalizer.mjs')} ${c.mode} ${marker}`, '--grep', 'index_reuse_turn,probe:normalizer-generated-turns', '--timeout-ms', String(timeoutMs)], marker, 2 * bound));
      expect(run.killedByTest, 'the CLI hung and was killed by the test').toBe(false);
      expect(run.stderr).not.toMatch(crashPattern);
      expect(run.code, run.stderr.slice(-2000)).toBe(1);
      expect(run.stdout).toMatch(/^verdict: non-compliant /m);
      expect(run.reasons.filter((r) => c.reason.test(r)), `no reason matches ${c.reason}; reasons:\n${run.reasons.slice(0, 30).join('\n')}`).not.toEqual([]);
      expect(run.wallMs).toBeLessThan(bound);
      expect(run.survivors).toEqual([]);
    }, 4 * bound);
  }
});
