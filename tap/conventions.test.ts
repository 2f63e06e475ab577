/**
 * The tap's conventions (issue 31 §4): runs numbered among runs, a report folder of each tap's own,
 * --save-failing's default folder (never the kit's corpus), and a failing run's end carrying its
 * first finding and a curl line that replays it with credentials as shell variables.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultScenariosDir, loadScenarios } from '../scenarios/loader.ts';
import { render } from '../mock-adk/core/render.ts';
import { createTapCore } from './core.ts';
import { createLiveObserver } from './live-adapter.ts';
import type { LiveEvent } from './live-events.ts';
import { claimReportDir, releaseIfEmpty, stampOf } from './report-dir.ts';
import { curlReplay } from './replay-curl.ts';
import { checkSaveDir, defaultSaveDir, withDefaultSaveDir } from './save-dir.ts';

const dir = mkdtempSync(join(tmpdir(), 'tap-conventions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('run names', () => {
  it('the first run is run 0001 even after a session was created through the tap; other requests are numbered apart', () => {
    const core = createTapCore({ role: 'adk' });
    const session = core.startRun({ method: 'POST', url: '/apps/a/users/u/sessions/s', headers: [] });
    const run = core.startRun({ method: 'POST', url: '/run_sse', headers: [] });
    const second = core.startRun({ method: 'POST', url: '/run_sse', headers: [] });
    expect([session.run.name, run.run.name, second.run.name]).toEqual(['tap-request-0001', 'tap-run-0001', 'tap-run-0002']);
    expect(new Set([session.run.seq, run.run.seq, second.run.seq]).size).toBe(3);
    const named = createTapCore({ role: 'adk', runNamePrefix: 'front-run' });
    expect(named.startRun({ method: 'GET', url: '/list-apps', headers: [] }).run.name).toBe('front-request-0001');
  });
});

describe('report folder', () => {
  it('two taps started in the same second get two folders; an unused one is removed', () => {
    const at = new Date(Date.UTC(2026, 10, 27, 22, 10, 5, 123));
    expect(stampOf(at)).toBe('2026-11-27T22-10-05Z');
    const a = claimReportDir(dir, at);
    const b = claimReportDir(dir, at);
    expect([a, b]).toEqual([join(dir, '2026-11-27T22-10-05Z'), join(dir, '2026-11-27T22-10-05Z-2')]);
    writeFileSync(join(a, 'report.json'), '{}');
    releaseIfEmpty(a);
    releaseIfEmpty(b);
    expect([existsSync(a), existsSync(b)]).toEqual([true, false]);
  });
});

describe('--save-failing', () => {
  it('alone (last, or before another option) takes ./adk-conformance-scenarios', () => {
    expect(withDefaultSaveDir(['--save-failing'])).toEqual(['--save-failing', defaultSaveDir]);
    expect(withDefaultSaveDir(['--save-failing', '--port', '0'])).toEqual(['--save-failing', defaultSaveDir, '--port', '0']);
    expect(withDefaultSaveDir(['--save-failing', 'mine'])).toEqual(['--save-failing', 'mine']);
  });

  it('refuses the kit\'s own corpus folder and any folder in it', () => {
    expect(() => checkSaveDir(join(defaultScenariosDir, 'regressions'))).toThrow(/inside the kit's own scenario corpus .*--save-failing alone uses \.\/adk-conformance-scenarios\//);
    expect(() => checkSaveDir(defaultScenariosDir)).toThrow(/inside the kit's own scenario corpus/);
    expect(checkSaveDir(join(dir, 'mine'))).toBe(resolve(dir, 'mine'));
  });
});

describe('replay line', () => {
  it('the same request through the tap, credentials as shell variables, the body redacted and quoted for the shell', () => {
    const line = curlReplay('http://127.0.0.1:8090/', { method: 'POST', url: '/run_sse', headers: [['Content-Type', 'application/json'], ['Authorization', 'Bearer eyJhbGciOi.secret.sig'], ['Cookie', 'sid=1'], ['Host', 'x'], ['Accept', 'text/event-stream']] }, `{"appName":"it's","key":"AIzaSyA1234567890abcdefghijklmnopqrstuv"}`);
    expect(line).toBe(`curl -N -X POST 'http://127.0.0.1:8090/run_sse' -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN" -H "Cookie: $COOKIE" -H 'Accept: text/event-stream' -d '{"appName":"it'\\''s","key":"[REDACTED]"}'`);
    expect(line).not.toContain('eyJhbGciOi');
  });

  it('a failing run\'s end carries its first finding and the replay; a passing run\'s carries neither', () => {
    const events: LiveEvent[] = [];
    const core = createTapCore({ role: 'adk', observers: [createLiveObserver([{ publish: (e) => events.push(e), close: async () => {} }], 'tap', () => 'http://127.0.0.1:8090')] });
    // The mock's own bytes for plain_text: the second run passes; the first sends a body that is not JSON.
    const scenario = loadScenarios().scenarios.find((x) => x.id === 'plain_text')!;
    const plan = render(scenario, { dialect: 'adk-js', streaming: false, appName: 'plain_text', userId: 'u', sessionId: 's' });
    for (const body of ['{"appName":"a"', '{"appName":"plain_text","userId":"u","sessionId":"s","newMessage":{"role":"user","parts":[{"text":"hi"}]}}']) {
      const h = core.startRun({ method: 'POST', url: '/run_sse', headers: [['content-type', 'application/json'], ['accept', 'text/event-stream']] });
      h.requestBody(new TextEncoder().encode(body), false);
      h.responseHead(plan.status, plan.headers);
      for (const c of plan.chunks) h.chunk(c.bytes, 0);
      h.end('eof');
    }
    const ends = events.filter((e): e is Extract<LiveEvent, { kind: 'run-end' }> => e.kind === 'run-end');
    expect(ends[0]?.verdict).toBe('failed');
    expect(ends[0]?.firstFinding?.requirement).toMatch(/^[A-Z]+-[A-Z]+-\d{3}$/);
    expect(ends[1]).toMatchObject({ verdict: 'passed' });
    expect(ends[1]?.firstFinding).toBeUndefined();
    expect(ends[1]?.replay).toBeUndefined();
    expect(ends[0]?.replay).toBe(`curl -N -X POST 'http://127.0.0.1:8090/run_sse' -H 'content-type: application/json' -H 'accept: text/event-stream' -d '{"appName":"a"'`);
  });
});
