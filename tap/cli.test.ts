/**
 * `adk-conformance tap` as a command: it serves until --runs N runs ended, then writes the four
 * reports with the tap's verdict, and refuses a missing --upstream with a usage error.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../cli/commands/tap.ts';
import { run as report } from '../cli/commands/report.ts';
import { UsageError } from '../core/errors.ts';
import type { RunResult } from '../harness/model.ts';
import { startMock, type RunningMock } from '../mock-adk/index.ts';
import { closedPort, createSession, rawRequest } from '../test/gateway-fixtures.ts';
import { clientHeaders } from './test-support.ts';
import { startTapCommand } from './command-test-support.ts';

let mock: RunningMock;
beforeAll(async () => { mock = await startMock({}); });
afterAll(async () => { await mock.close(); });

describe('adk-conformance tap', () => {
  it('stops after --runs 2 and writes the four reports; with --role adk the client\'s bad request is reported apart, not charged to the server', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tap-cli-'));
    const { url: tapUrl, lines, exit } = await startTapCommand(['--upstream', mock.url, '--role', 'adk', '--port', '0', '--runs', '2', '--out', out]);
    // One correct run, and one with a body that is not a RunAgentRequest (no newMessage).
    await createSession(tapUrl, 'plain_text', 'u1', 'cli-1');
    await rawRequest(`${tapUrl}/run_sse`, { body: JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: 'cli-1', newMessage: { role: 'user', parts: [{ text: 'hi' }] } }), headers: clientHeaders });
    await rawRequest(`${tapUrl}/run_sse`, { body: JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: 'cli-1' }), headers: clientHeaders });
    // The server answered both requests as it should: the body without newMessage is the client's fault.
    expect(await exit).toBe(0);
    for (const file of ['report.json', 'junit.xml', 'report.md', 'report.html']) expect(existsSync(join(out, file)), file).toBe(true);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
    expect(report.verdict).not.toBe('non-compliant');
    expect(report.target.parts).toEqual(['adk-stream']);
    const status = Object.fromEntries(report.requirements.map((r) => [r.id, r.status]));
    expect(status['CLI-REQ-003']).toBe('not-applicable');
    expect(report.requirements.find((r) => r.id === 'CLI-REQ-003')?.reason).toMatch(/^the client's request, not the ADK server's \(--role adk judges the server\): 2 runs exercised it, 1 failed it; those runs list its findings/);
    expect(status['ADK-EVT-001']).toBe('passed');
    expect(status['ADK-HTTP-001']).toBe('passed');
    expect(status['GW-HDR-004']).toBe('not-applicable');
    // The run that carries the client's finding is still listed with it.
    expect(report.scenarios.flatMap((sc) => sc.outcomes.flatMap((o) => o.findings.map((f) => `${sc.scenario} ${f.requirement} ${f.code}`)))).toEqual(['tap-run-0002 CLI-REQ-003 body-schema']);
    expect(report.counts.scenarios).toEqual({ total: 2, passed: 1, failed: 1, errored: 0 });
    // Proven by the tap's own mutant, listed once.
    expect(report.requirements.find((r) => r.id === 'ADK-EVT-001')?.provenBy).toEqual(['tap-upstream-event-without-id']);
    expect(lines).toContain('--runs 2: stopping the tap');
    expect(lines.some((l) => l.startsWith('verdict: ') && !l.startsWith('verdict: non-compliant'))).toBe(true);
    expect(lines.filter((l) => /^tap-run-\d{4} POST \/run_sse 200 eof/.test(l))).toEqual([
      'tap-run-0001 POST /run_sse 200 eof 1 events: passed',
      'tap-run-0002 POST /run_sse 200 eof 0 events: failed: CLI-REQ-003 body-schema',
    ]);
  });

  it('--transform judges each run\'s briefings into the same report: the reference passes, a mutant module fails with its id', async () => {
    const certify = async (flags: string[], sid: string) => {
      const out = mkdtempSync(join(tmpdir(), 'tap-transform-'));
      const { url: tapUrl, lines, exit } = await startTapCommand(['--upstream', mock.url, '--role', 'adk', '--port', '0', '--runs', '1', '--out', out, ...flags]);
      await createSession(tapUrl, 'plain_text', 'u1', sid);
      await rawRequest(`${tapUrl}/run_sse`, { body: JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: sid, newMessage: { role: 'user', parts: [{ text: 'hi' }] } }), headers: clientHeaders });
      const code = await exit;
      return { code, lines, report: JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult };
    };
    const reference = await certify(['--transform'], 'tr-1');
    expect(reference.code, reference.lines.join('\n')).toBe(0);
    expect(reference.lines).toContain('tap-run-0001/transform POST /run_sse 200 eof 1 events: passed');
    const status = (r: RunResult, id: string) => r.requirements.find((q) => q.id === id)?.status;
    expect(['ABE-SCHEMA-001', 'ABE-ID-001', 'ABE-DET-001'].map((id) => status(reference.report, id))).toEqual(['passed', 'passed', 'passed']);
    const mutant = await certify(['--transformer-module', 'harness/mutants/transformer/modules/transformer-sequential-event-ids.ts'], 'tr-2');
    expect(mutant.code).toBe(1);
    expect(mutant.report.requirements.filter((q) => q.status === 'failed').map((q) => q.id)).toEqual(['ABE-ID-001']);
    expect(mutant.lines.find((l) => l.startsWith('tap-run-0001/transform'))).toMatch(/failed: ABE-ID-001/);
  }, 60_000);

  it('names runs after --name, so the reports of several taps merge with report merge into one picture', async () => {
    const tapOnce = async (name: string) => {
      const out = mkdtempSync(join(tmpdir(), `tap-${name}-`));
      const { url: tapUrl, exit } = await startTapCommand(['--upstream', mock.url, '--role', 'adk', '--port', '0', '--runs', '2', '--name', name, '--reporter', 'json', '--out', out]);
      await createSession(tapUrl, 'plain_text', 'u1', `m-${name}`);
      await rawRequest(`${tapUrl}/run_sse`, { body: JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: `m-${name}`, newMessage: { role: 'user', parts: [{ text: 'hi' }] } }), headers: clientHeaders });
      await rawRequest(`${tapUrl}/run_sse`, { body: JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: `m-${name}` }), headers: clientHeaders });
      // The bad body is the client's: the server stays compliant (CLI-REQ-* is reported apart).
      expect(await exit).toBe(0);
      return out;
    };
    const a = await tapOnce('replica-a');
    const b = await tapOnce('replica-b');
    const merged = mkdtempSync(join(tmpdir(), 'tap-merged-'));
    const lines: string[] = [];
    const code = await report(['merge', a, b, '--out', merged, '--reporter', 'json'], { stdout: (t: string) => lines.push(t), stderr: (t: string) => lines.push(`err: ${t}`) });
    expect(code, lines.join('')).toBe(0);
    expect(lines.join('')).not.toMatch(/is in both/);
    const result = JSON.parse(readFileSync(join(merged, 'report.json'), 'utf8')) as RunResult;
    expect(result.verdict).not.toBe('non-compliant');
    expect(result.scenarios.map((s) => s.scenario).sort()).toEqual(['replica-a-run-0002', 'replica-b-run-0002']);
    // Every run each tap counted, not only the listed failing ones.
    expect(result.live).toEqual({ taps: 2, runs: 4, failedRuns: 2 });
    expect(result.counts.scenarios).toEqual({ total: 4, passed: 2, failed: 2, errored: 0 });
    expect(result.requirements.find((r) => r.id === 'CLI-REQ-003')?.status).toBe('not-applicable');
    expect(result.requirements.find((r) => r.id === 'ADK-EVT-001')?.status).toBe('passed');
  });

  it('gives no verdict (could not evaluate, exit 3) when the upstream never answered, and warns at start that nothing answers there', async () => {
    const upstream = `http://127.0.0.1:${await closedPort()}`;
    const { url: tapUrl, lines, exit } = await startTapCommand(['--upstream', upstream, '--role', 'adk', '--port', '0', '--runs', '1', '--out', mkdtempSync(join(tmpdir(), 'tap-unreachable-'))]);
    const answer = await fetch(`${tapUrl}/run_sse`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: '{}' });
    expect(answer.status).toBe(502);
    expect(await exit).toBe(3);
    const text = lines.join('\n');
    expect(text).toContain(`err: warning: nothing answers at ${upstream} yet (ECONNREFUSED`);
    expect(text).toContain(`err: could not evaluate: the upstream ${upstream} never answered (1 requests, the last: ECONNREFUSED`);
    // One verdict line, the one that names the exit code; no verdict over nothing.
    expect(lines.filter((l) => l.includes('verdict:'))).toEqual(['verdict: could not evaluate (exit 3)']);
  });

  it('names a value with a leading dash, and --port equal to --back-port, in its usage errors', async () => {
    const io = { out: () => {}, err: () => {}, stopSignal: new Promise<string>(() => {}) };
    await expect(run(['--upstream', mock.url, '--runs', '-3'], io)).rejects.toThrow(/--runs got '-3', which starts with a dash: --runs takes no negative number/);
    await expect(run(['--upstream', mock.url, '--pair', '--backend', mock.url, '--port', '8095', '--back-port', '8095'], io)).rejects.toThrow(/--port and --back-port are both 8095/);
  });

  it('refuses a missing --upstream and a bad --role with a usage error', async () => {
    const io = { out: () => {}, err: () => {}, stopSignal: new Promise<string>(() => {}) };
    await expect(run([], io)).rejects.toThrow(UsageError);
    await expect(run([], io)).rejects.toThrow(/--upstream URL is required/);
    await expect(run(['--upstream', mock.url, '--role', 'proxy'], io)).rejects.toThrow(/--role must be gateway or adk, got 'proxy'/);
    await expect(run(['--upstream', 'ftp://x'], io)).rejects.toThrow(/must be an http:\/\/ or https:\/\/ URL/);
    await expect(run(['--upstream', mock.url, '--name', 'a b'], io)).rejects.toThrow(/--name must be letters, digits/);
    await expect(run(['--upstream', mock.url, '--transform', '--transformer-cmd', 'x'], io)).rejects.toThrow(/--transform, --transformer-cmd each name the transformer/);
    await expect(run(['--upstream', mock.url, '--port', '0', '--transformer-module', 'no/such/module.ts'], io)).rejects.toThrow(/no\/such\/module\.ts does not exist/);
  });
});
