/**
 * Every finding is a regression case (issue 16): a run the tap judged failing in front of the mock
 * (an ADK server that closes the stream without a final answer) is saved by `tap --save-failing`,
 * and `run --scenarios DIR --grep <its id>` certifies parts on exactly those bytes: the reference
 * client and transformer handle them (fully compliant over what the run exercises), and the
 * scenario is the saved one, served by the mock from the file.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock-adk/index.ts';
import { runCli } from './cli-support.ts';
import { createSession, rawRequest } from './gateway-fixtures.ts';
import { clientHeaders } from '../tap/test-support.ts';
import { startTapCommand } from '../tap/command-test-support.ts';

let mock: RunningMock;
beforeAll(async () => { mock = await startMock({}); });
afterAll(async () => { await mock.close(); });

describe('tap --save-failing, then run --scenarios', () => {
  it('saves the failing run, and run certifies parts on the saved bytes, narrowed to that scenario', async () => {
    const saved = mkdtempSync(join(tmpdir(), 'tap-regressions-'));
    const { url: tap, lines, exit } = await startTapCommand(['--upstream', mock.url, '--role', 'adk', '--port', '0', '--runs', '1', '--save-failing', saved, '--reporter', 'json', '--out', mkdtempSync(join(tmpdir(), 'tap-reg-out-'))]);
    await createSession(tap, 'missing_done_closed_without_final', 'u1', 'reg-1');
    await rawRequest(`${tap}/run_sse`, { body: JSON.stringify({ appName: 'missing_done_closed_without_final', userId: 'u1', sessionId: 'reg-1', newMessage: { role: 'user', parts: [{ text: 'Brief me' }] } }), headers: clientHeaders });
    expect(await exit).toBe(1);
    expect(lines.some((l) => /failed: ADK-END-001 eof-without-answer/.test(l))).toBe(true);
    const files = readdirSync(saved);
    expect(files).toHaveLength(1);
    const id = (files[0] as string).replace(/\.json$/, '');
    expect(id).toMatch(/^tap_missing_done_closed_without_final_\d{4}$/);

    const out = mkdtempSync(join(tmpdir(), 'tap-reg-run-'));
    const r = await runCli(['run', '--scenarios', saved, '--grep', id, '--client-module', 'harness/targets/client/reference.ts', '--transformer-module', 'harness/targets/transformer/reference.ts', '--generated', '0', '--reporter', 'json', '--out', out]);
    expect(r.stdout).toMatch(/^verdict: fully compliant/m);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { scenarios: Array<{ scenario: string; part: string; status: string }> };
    expect(report.scenarios.filter((s) => !s.scenario.startsWith('probe:')).map((s) => [s.part, s.scenario.split('/').pop(), s.status]).sort()).toEqual([['client', id, 'passed'], ['transformer', id, 'passed']]);
  }, 60_000);
});
