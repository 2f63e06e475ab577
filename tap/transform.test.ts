/**
 * `tap --transform` end to end on 127.0.0.1: a real tap in front of the mock (role adk), runs of
 * corpus scenarios sent through it, and the transform observer feeding each run's stream to a
 * transformer after the run ended. The reference module and the Python example pass every
 * transformer requirement judged; transformer mutants are caught with exactly their kills on live
 * traffic; close() waits for a pending transform; a transformer that hangs is reported while the
 * tap keeps serving; the bounds (maxPending, frame cap, non-stream answers, close) say "not judged".
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveChildren } from '../harness/child.ts';
import { transformerMutants } from '../harness/mutants/transformer/index.ts';
import { referenceTransformer11Module } from '../harness/targets/transformer/runner.ts';
import { startMock, type RunningMock } from '../mock-adk/index.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { createTapCore, type TapCore } from './core.ts';
import { createReportCollector, type ReportCollector } from './report.ts';
import { startTap } from './server.ts';
import { clientHeaders, failedOf, findingsOf } from './test-support.ts';
import { createTransformObserver, type TransformObserver, type TransformObserverOptions } from './transform.ts';
import type { TapRun, TapRunSummary } from './types.ts';

const { scenarios } = loadScenarios();
let mock: RunningMock;
const dir = mkdtempSync(join(tmpdir(), 'adk-tap-transform-'));
const cleanup: Array<() => Promise<void>> = [];

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await mock.close();
});

type Ended = { run: TapRun; summary: TapRunSummary };

type TransformTap = {
  url: string;
  core: TapCore;
  observer: TransformObserver;
  collector: ReportCollector;
  /** The tap's own run ends (kind 'run' only). */
  runs: Ended[];
  /** What the transform observer reported. */
  reports: Ended[];
  notJudged: string[];
  stop: () => Promise<void>;
};

async function startTransformTap(transformer: TransformObserverOptions['transformer'], options: Omit<TransformObserverOptions, 'transformer' | 'report'> = {}): Promise<TransformTap> {
  const runs: Ended[] = [];
  const reports: Ended[] = [];
  const notJudged: string[] = [];
  const collector = createReportCollector({ role: 'adk', upstream: mock.url });
  // What the CLI does: the transform's report goes to the report collector (and the line printer).
  const observer = createTransformObserver({
    transformer, ...options,
    report: (run, summary) => { reports.push({ run, summary }); collector.onRunEnd?.(run, summary); },
    onNotJudged: (_run, reason) => notJudged.push(reason),
  });
  await observer.start();
  const core = createTapCore({ role: 'adk', observers: [collector, observer, { onRunEnd(run, summary) { if (run.kind === 'run') runs.push({ run, summary }); } }] });
  const tap = await startTap({ core, upstream: mock.url });
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= (async () => { await core.stop(); await tap.close(); })());
  cleanup.push(stop);
  return { url: tap.url, core, observer, collector, runs, reports, notJudged, stop };
}

let sessions = 0;

/** Create the session through the tap, then POST /run_sse as a conforming client and read the whole body. */
async function sendRun(tapUrl: string, appName: string, streaming = false): Promise<void> {
  const sessionId = `tr-${++sessions}`;
  const created = await fetch(`${tapUrl}/apps/${appName}/users/u1/sessions/${sessionId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(created.status).toBe(200);
  await created.arrayBuffer();
  const response = await fetch(`${tapUrl}/run_sse`, {
    method: 'POST', headers: clientHeaders,
    body: JSON.stringify({ appName, userId: 'u1', sessionId, newMessage: { role: 'user', parts: [{ text: 'Brief me on Cedar Creek' }] }, streaming }),
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

/** Bounded polling for a condition (no timed assertion: the bound only keeps a broken run from hanging). */
async function until(what: string, condition: () => boolean, boundMs = 25_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const judgedIds = (summary: TapRunSummary): string[] => [...summary.judged.keys()].sort();
const reportFor = (tap: TransformTap, run: Ended): Ended | undefined => tap.reports.find((r) => r.run.name === `${run.run.name}/transform`);

/** What a scenario-independent judgement of each run gives: the ids below, from the corpus runs. */
const plainTextIds = ['ABE-ATOMIC-001', 'ABE-CORR-001', 'ABE-DET-001', 'ABE-ID-001', 'ABE-LIFE-001', 'ABE-LIFE-006', 'ABE-SCHEMA-001', 'ABE-SRC-001', 'ABE-TERM-001', 'ABE-TEXT-001', 'ABE-USAGE-001', 'PL-CONF-003'];
const cedarCreekIds = ['ABE-ATOMIC-001', 'ABE-CALL-001', 'ABE-CORR-001', 'ABE-DET-001', 'ABE-ID-001', 'ABE-LIFE-001', 'ABE-LIFE-006', 'ABE-LIFE-007', 'ABE-LIFE-008', 'ABE-PARENT-001', 'ABE-SCHEMA-001', 'ABE-SRC-001', 'ABE-TERM-001', 'ABE-TEXT-001', 'ABE-USAGE-001', 'PL-CIT-002', 'PL-CIT-003', 'PL-CONF-002', 'PL-CONF-003'];

/** plain_text and cedar_creek_briefing through a tap with this transformer: the two transform reports, in that order. */
async function twoRuns(transformer: TransformObserverOptions['transformer'], options: Omit<TransformObserverOptions, 'transformer' | 'report'> = {}): Promise<{ tap: TransformTap; plain: Ended; cedar: Ended }> {
  const tap = await startTransformTap(transformer, options);
  await sendRun(tap.url, 'plain_text');
  await sendRun(tap.url, 'cedar_creek_briefing');
  await until('two transform reports', () => tap.reports.length >= 2);
  expect(tap.runs.map((r) => findingsOf(r.summary))).toEqual([[], []]);
  const [plainRun, cedarRun] = tap.runs as [Ended, Ended];
  const plain = reportFor(tap, plainRun);
  const cedar = reportFor(tap, cedarRun);
  if (!plain || !cedar) throw new Error(`no transform report for ${plainRun.run.name} or ${cedarRun.run.name}: ${tap.reports.map((r) => r.run.name).join(', ')}; ${tap.notJudged.join('; ')}`);
  return { tap, plain, cedar };
}

describe('tap --transform: correct transformers pass on live traffic', () => {
  it('the reference transformer: every judged transformer requirement passes, and the reports list them', async () => {
    const { tap, plain, cedar } = await twoRuns({ reference: true });
    expect(plain.run).toMatchObject({ name: 'tap-run-0001/transform', kind: 'run', method: 'POST', url: '/run_sse' });
    expect(cedar.run.name).toBe('tap-run-0002/transform');
    expect(judgedIds(plain.summary)).toEqual(plainTextIds);
    expect(judgedIds(cedar.summary)).toEqual(cedarCreekIds);
    expect([findingsOf(plain.summary), findingsOf(cedar.summary)]).toEqual([[], []]);
    expect([plain.summary.failed, cedar.summary.failed]).toEqual([false, false]);
    expect(plain.summary).toMatchObject({ ending: 'eof', status: 200, frames: 1 });
    // Checks that need a scenario's expectations are not judged on a live run.
    for (const id of ['ABE-TERM-002', 'ABE-TERM-003', 'ABE-LIFE-004']) expect(cedar.summary.judged.has(id)).toBe(false);
    // Landed in the same report as the tap's own requirements.
    const result = tap.collector.result();
    const status = (id: string) => result?.requirements.find((r) => r.id === id)?.status;
    expect([status('ADK-EVT-001'), status('ABE-ID-001'), status('ABE-LIFE-007'), status('ABE-TERM-002')]).toEqual(['passed', 'passed', 'passed', 'not-applicable']);
    expect(tap.observer.stats()).toMatchObject({ judged: 2, failed: 0, pending: 0 });
    expect(tap.notJudged).toEqual([]);
  });

  it('the 1.1 reference module is judged against spec 1.1, which its events declare: ABE-SCHEMA-002 instead of -001, no finding (issue 31 §2)', async () => {
    const { tap, plain, cedar } = await twoRuns({ module: referenceTransformer11Module });
    const swap = (ids: string[]) => ids.map((id) => (id === 'ABE-SCHEMA-001' ? 'ABE-SCHEMA-002' : id)).sort();
    expect(judgedIds(plain.summary)).toEqual(swap(plainTextIds));
    expect(judgedIds(cedar.summary)).toEqual(swap(cedarCreekIds));
    expect([findingsOf(plain.summary), findingsOf(cedar.summary)]).toEqual([[], []]);
    expect(tap.notJudged).toEqual([]);
  });

  it('the Python example via a command passes the same requirements', async () => {
    const { tap, plain, cedar } = await twoRuns({ command: 'python3 examples/python-transformer/transformer.py' });
    expect(judgedIds(plain.summary)).toEqual(plainTextIds);
    expect(judgedIds(cedar.summary)).toEqual(cedarCreekIds);
    expect([findingsOf(plain.summary), findingsOf(cedar.summary)]).toEqual([[], []]);
    expect(tap.notJudged).toEqual([]);
  });
});

describe('tap --transform: transformer mutants are caught on live traffic', () => {
  const mutant = (id: string) => {
    const m = transformerMutants.find((x) => x.id === id);
    if (!m?.target.transformer || !('module' in m.target.transformer)) throw new Error(`no module mutant ${id}`);
    return { module: m.target.transformer.module as string, kills: [...m.kills].sort() };
  };

  it('transformer-sequential-event-ids fails exactly its kill (ABE-ID-001) on both runs', async () => {
    const m = mutant('transformer-sequential-event-ids');
    const { plain, cedar } = await twoRuns({ module: m.module });
    expect([failedOf(plain.summary), failedOf(cedar.summary)]).toEqual([m.kills, m.kills]);
    expect(plain.summary.judged.get('ABE-ID-001')?.[0]).toMatchObject({ code: 'event-id-not-uuid', scenario: 'tap-run-0001/transform' });
    expect(plain.summary.failed).toBe(true);
  });

  it('transformer-correlation-per-agent fails exactly its kill (ABE-CORR-001) on the multi-agent run', async () => {
    const m = mutant('transformer-correlation-per-agent');
    const { plain, cedar } = await twoRuns({ module: m.module });
    // One agent has one correlation id: plain_text cannot show this defect.
    expect([failedOf(plain.summary), failedOf(cedar.summary)]).toEqual([[], m.kills]);
    expect(cedar.summary.judged.get('ABE-CORR-001')?.[0]?.code).toBe('correlation-id-changed');
  });

  it('transformer-run-counter-in-summary fails exactly its kill (ABE-DET-001): the repeat run is fed', async () => {
    const m = mutant('transformer-run-counter-in-summary');
    const { plain, cedar } = await twoRuns({ module: m.module });
    // The tap judges one live run at a time: ABE-ISO-001 is the certification's long-lived probe's.
    const live = m.kills.filter((k) => k !== 'ABE-ISO-001');
    expect([failedOf(plain.summary), failedOf(cedar.summary)]).toEqual([live, live]);
  });
});

describe('tap --transform: bounds', () => {
  it('close() waits for a pending transform and reports it', async () => {
    const gate = join(dir, 'gate');
    // The transformer starts only once the gate file exists: the transform is pending until the test opens it.
    const tap = await startTransformTap({ command: `while [ ! -f '${gate}' ]; do sleep 0.02; done; exec python3 examples/python-transformer/transformer.py` });
    await sendRun(tap.url, 'plain_text');
    await until('the run to end', () => tap.runs.length === 1);
    expect(tap.observer.pending()).toBe(1);
    expect(tap.reports).toEqual([]);
    writeFileSync(gate, '');
    await tap.stop();
    expect(tap.reports.map((r) => [r.run.name, failedOf(r.summary)])).toEqual([['tap-run-0001/transform', []]]);
    expect(judgedIds(tap.reports[0]!.summary)).toEqual(plainTextIds);
    expect(tap.observer.pending()).toBe(0);
  });

  it('a run that ends while maxPending transforms run is not transformed, and said so', async () => {
    const gate = join(dir, 'gate-busy');
    const tap = await startTransformTap({ command: `while [ ! -f '${gate}' ]; do sleep 0.02; done; exec python3 examples/python-transformer/transformer.py` }, { maxPending: 1, timeoutMs: 40_000 });
    await sendRun(tap.url, 'plain_text');
    await until('the first run to end', () => tap.runs.length === 1);
    await sendRun(tap.url, 'cedar_creek_briefing');
    await until('the second run to end', () => tap.runs.length === 2);
    expect(tap.notJudged).toEqual(['tap-run-0002/transform not judged: 1 transforms were already running (maxPending)']);
    writeFileSync(gate, '');
    await tap.stop();
    expect(tap.reports.map((r) => [r.run.name, failedOf(r.summary)])).toEqual([['tap-run-0001/transform', []]]);
    expect(tap.observer.stats()).toMatchObject({ judged: 1, failed: 0, notJudged: { busy: 1 }, pending: 0 });
  });

  it('a transformer that hangs is reported as hung (ABE-TERM-001), and the tap keeps serving meanwhile', async () => {
    const tap = await startTransformTap({ command: 'cat > /dev/null; exec sleep 60' }, { timeoutMs: 4000 });
    await sendRun(tap.url, 'plain_text');
    await until('the first run to end', () => tap.runs.length === 1);
    // Whatever its transform is doing, the tap serves the next run.
    await sendRun(tap.url, 'plain_text');
    await until('the second run to end', () => tap.runs.length === 2);
    expect(tap.runs.map((r) => [r.summary.ending, findingsOf(r.summary)])).toEqual([['eof', []], ['eof', []]]);
    await until('both hung transforms to be reported', () => tap.reports.length === 2);
    for (const hung of tap.reports) {
      // No event came out: everything but the ending is untested, hence not in the summary.
      expect(judgedIds(hung.summary)).toEqual(['ABE-TERM-001']);
      expect(findingsOf(hung.summary)).toEqual(['ABE-TERM-001 terminal-missing', 'ABE-TERM-001 transformer-hung']);
      expect(hung.summary.failed).toBe(true);
    }
    expect(tap.reports.map((r) => r.run.name).sort()).toEqual(['tap-run-0001/transform', 'tap-run-0002/transform']);
    expect(tap.collector.result()?.requirements.find((r) => r.id === 'ABE-TERM-001')?.status).toBe('failed');
  });

  it('close() gives up after closeTimeoutMs: the transform still running is not judged, and its process ends at its bound', async () => {
    const tap = await startTransformTap({ command: 'cat > /dev/null; exec sleep 60' }, { timeoutMs: 8000, closeTimeoutMs: 200 });
    await sendRun(tap.url, 'plain_text');
    await until('the run to end', () => tap.runs.length === 1);
    expect(tap.observer.pending()).toBe(1);
    await tap.stop();
    expect(tap.reports).toEqual([]);
    expect(tap.notJudged).toEqual(['tap-run-0001/transform not judged: the tap stopped and the transform was still running after 200 ms']);
    // The hung process is stopped at its own bound, and its late result is never reported.
    await until('the transformer process to be stopped', () => liveChildren() === 0 && tap.observer.pending() === 0);
    expect(tap.reports).toEqual([]);
  });

  it('a run over the frame cap, and an answer that is not an event stream, are not transformed', async () => {
    const tap = await startTransformTap({ reference: true }, { maxRunFrames: 2 });
    await sendRun(tap.url, 'plain_text');
    await sendRun(tap.url, 'cedar_creek_briefing');
    const missing = await fetch(`${tap.url}/run_sse`, { method: 'POST', headers: clientHeaders, body: JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: 'no-such-session', newMessage: { role: 'user', parts: [{ text: 'hi' }] } }) });
    await missing.arrayBuffer();
    expect(missing.status).not.toBe(200);
    await until('three runs and their transforms', () => tap.runs.length === 3 && tap.reports.length + tap.notJudged.length === 3);
    expect(tap.reports.map((r) => r.run.name)).toEqual(['tap-run-0001/transform']);
    expect(tap.notJudged).toEqual([
      'tap-run-0002/transform not judged: the run is longer than the 2 data fields or 4194304 bytes a transformed run may have',
      `tap-run-0003/transform not judged: the upstream answered HTTP ${missing.status} application/json; charset=utf-8, not a 200 text/event-stream`,
    ]);
    expect(tap.observer.stats().notJudged).toMatchObject({ overLimit: 1, notStream: 1 });
  });

  it('a module that does not exist is refused at start', async () => {
    const path = join(dir, 'nope.ts');
    expect(existsSync(path)).toBe(false);
    const observer = createTransformObserver({ transformer: { module: path }, report: () => {} });
    await expect(observer.start()).rejects.toThrow(/does not exist/);
    expect(() => createTransformObserver({ transformer: { command: ' ' }, report: () => {} })).toThrow(/reference: true/);
  });
});
