/**
 * The hostile battery, gateway commands (`--gateway-cmd`): each misbehaving gateway of
 * test/hostile/impls/gateway.mjs certified through the real CLI. The run is narrowed to two scenarios
 * (a scenario folder holding only plain_text and plain_text_streaming) and to requirements no probe
 * exercises (a scenario-id --grep would keep every probe, and a probe needs the whole corpus), so one
 * case costs one gateway start, two streams and the stop. The harness must survive every one: exit 1
 * with a verdict (exit 3, "could not evaluate", for a gateway that never answered a request), a reason naming what happened, a wall time under the bound the configured time
 * bounds give, and no process left behind. docs/hostile.md lists the cases.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayDefaults } from '../../harness/targets/gateway/runner.ts';
import { cliAllowanceMs, crashPattern, createLimiter, impl, killLeftovers, newMarker, processesWith, repoRoot, runCli } from './support.ts';
import { fairStretch } from '../../harness/fair-timer.ts';

const timeoutMs = 4000;
/** SIGTERM, then SIGKILL 3 s later, then 2 s for the exit (gateway/instances.ts `stop`). */
const stopMs = 5000;
const requirements = 'GW-PASS-001,GW-PASS-004,GW-HDR-001';
const limit = createLimiter(3);
const markers: string[] = [];
let scenariosDir = '';

beforeAll(() => {
  scenariosDir = mkdtempSync(join(tmpdir(), 'adk-hostile-scenarios-'));
  for (const id of ['plain_text', 'plain_text_streaming']) copyFileSync(join(repoRoot, 'scenarios', `${id}.json`), join(scenariosDir, `${id}.json`));
});
afterAll(() => {
  for (const m of markers) killLeftovers(m);
  rmSync(scenariosDir, { recursive: true, force: true });
});

/** nothing: the gateway never answered a request, so no requirement was observed: "could not evaluate", exit 3 (issue 28 §2). */
type Case = { mode: string; does: string; reason: RegExp; nothing?: true };

const cases: Case[] = [
  { mode: 'garbage', does: 'answers every stream with random bytes', reason: /differs from the upstream's: the gateway changed the stream/ },
  { mode: 'never-ends', does: 'sends the stream headers and then nothing, never ending', reason: /gave up waiting/ },
  { mode: 'one-byte-a-second', does: 'dribbles an event one byte a second', reason: /the response had not ended after 3000 ms \(\d+ body bytes by then\)/ },
  { mode: 'early-close', does: 'cuts the connection after the first bytes', reason: /the connection broke/ },
  { mode: 'multi-megabyte-line', does: 'answers with one 6 MB line', reason: /the client's byte 6 \(line 1\) differs from the upstream's/ },
  { mode: 'invalid-utf8', does: 'answers with bytes that are not UTF-8', reason: /differs from the upstream's: the gateway changed the stream/ },
  { mode: 'wrong-content-type', does: 'answers application/json', reason: /the media type is 'application\/json', not text\/event-stream/ },
  { mode: 'html', does: 'answers an HTML page', reason: /the media type is 'text\/html', not text\/event-stream/ },
  { mode: 'empty-200', does: 'answers 200 with an empty body', reason: /the stream ended after 0 of the \d+ bytes the upstream wrote/ },
  { mode: 'ignores-sigterm', does: 'answers 200 with an empty body and ignores SIGTERM', reason: /the stream ended after 0 of the \d+ bytes the upstream wrote/ },
  { mode: 'stderr-only', does: 'only logs to stderr and resets every connection', reason: /the gateway gave no HTTP response: socket hang up/ },
  { mode: 'exits-at-once', does: 'exits with code 3 before listening', reason: /exited with code 3; stderr: gateway\.mjs: exiting before listening before accepting connections on port \d+/, nothing: true },
  { mode: 'never-listens', does: 'runs but never listens', reason: new RegExp(`did not accept a TCP connection on 127\\.0\\.0\\.1:\\d+ within ${gatewayDefaults.readyMs} ms`), nothing: true },
  // Its first request is the harness's GET /csrf-token; every instance is ready before any run starts, so the exit is known before the first scenario.
  { mode: 'listens-then-dies', does: 'listens, then exits with code 7 on its first request', reason: /the main gateway \(`[^`]*`\) exited with code 7; stderr: fatal: upstream client not configured/, nothing: true },
];

describe.concurrent(`hostile gateway commands (${cases.length} cases, --timeout-ms ${timeoutMs}, at most 3 CLIs at once)`, () => {
  for (const c of cases) {
    // Readiness of the first instance, two scenario jobs bounded by --timeout-ms, the stop, and the CLI's own start and finish.
    const bound = cliAllowanceMs + gatewayDefaults.readyMs + 2 * timeoutMs * fairStretch + stopMs;
    it(`a gateway that ${c.does} gets a verdict with the reason, within ${bound} ms, and leaves no process behind`, async () => {
      const marker = newMarker(c.mode);
      markers.push(marker);
      expect(processesWith(marker)).toEqual([]);
      const run = await limit(() => runCli([
        '--gateway-cmd', `node ${impl('gateway.mjs')} ${c.mode} ${marker}`, '--scenarios', scenariosDir,
        '--grep', requirements, '--generated', '0', '--timeout-ms', String(timeoutMs),
      ], marker, 2 * bound));
      expect(run.killedByTest, 'the CLI hung and was killed by the test').toBe(false);
      expect(run.stderr).not.toMatch(crashPattern);
      expect(run.code, run.stderr.slice(-2000)).toBe(c.nothing ? 3 : 1);
      expect(run.stdout).toMatch(c.nothing ? /^verdict: could not evaluate \(/m : /^verdict: non-compliant /m);
      expect(run.reasons.filter((r) => c.reason.test(r)), `no reason matches ${c.reason}; reasons:\n${run.reasons.slice(0, 30).join('\n')}`).not.toEqual([]);
      expect(run.wallMs).toBeLessThan(bound);
      expect(run.survivors).toEqual([]);
    }, 4 * bound);
  }
});
