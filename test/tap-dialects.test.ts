/**
 * A law between the mock and the tap: every corpus run the mock plays without a scripted fault, in
 * every dialect it speaks (each real ADK server, by name and version), plain and streaming, passes
 * through a tap with role adk with no finding. The mock follows the real servers' wire formats, so
 * a finding on a conformant run is a false positive of the tap (or a mock that left its server).
 * It found five: adk-python 2.x's argument chunks (functionCall with partialArgs and no name),
 * adk-js's metadata-only coordinator event that ends a streamed transfer, EOF after a
 * skipSummarization response, EOF after adk-go's error line, and adk-go's `event: error` before
 * any event (headers that name no server).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { dialectNames, isAdkJs, versionedName } from '../mock-adk/core/dialects/index.ts';
import { scenarioDialects } from '../mock-adk/core/scenario-dialects.ts';
import { startMock, type RunningMock } from '../mock-adk/index.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import type { Scenario } from '../schemas/types.ts';
import { createSession, rawRequest } from './gateway-fixtures.ts';
import { clientHeaders, findingsOf, startTestTap, type TestTap } from '../tap/test-support.ts';

const { scenarios } = loadScenarios();
/** Runs the mock plays by itself: no fault, no raw bytes, no held-open or slow script, the default endpoint. */
const playable = (s: Scenario) => s.upstream.kind === 'run' && (s.faults ?? []).length === 0 && s.session.create !== false
  && (s.request.endpoint ?? '/run_sse') === '/run_sse' && !s.tags.some((t) => ['slow', 'hold-open', 'timing', 'silence', 'idle'].includes(t));
/**
 * Scenarios that script what no conformant server sends (a cut or truncated stream, Gen A's
 * unescaped error line, a [DONE] sentinel): the tap must flag each with the requirement it breaks.
 */
function defectOf(s: Scenario): string | undefined {
  if (s.tags.includes('truncated') && (s.tags.includes('eof') || s.tags.includes('reset'))) return 'ADK-END-001';
  if (s.tags.includes('legacy')) return 'ADK-ERR-001';
  if (s.tags.includes('done-sentinel')) return 'ADK-SSE-002';
  return undefined;
}
/**
 * A raw step (e.g. adk-js's `data: {}`) or an error frame in a named style (e.g. adk-python Gen D's
 * structured line) is one server's own bytes: judged in that server's dialect only.
 */
const ownBytes = (s: Scenario) => s.upstream.kind === 'run' && s.upstream.steps.some((step) => 'raw' in step || ('errorFrame' in step && (step.errorFrame as { style?: string }).style !== undefined));

const open: Array<{ mock: RunningMock; tap: TestTap }> = [];
afterAll(async () => { for (const o of open) { await o.tap.close(); await o.mock.close(); } });

describe('the tap judges every conformant corpus run of the mock conformant, and flags the scripted defects, in every dialect', () => {
  it.each(dialectNames.map((d) => [versionedName(d), d] as const))('%s', async (_name, dialect) => {
    const mine = scenarios.filter((s) => playable(s) && scenarioDialects(s).includes(dialect) && (!ownBytes(s) || scenarioDialects(s)[0] === dialect));
    expect(mine.length).toBeGreaterThan(10);
    const mock = await startMock({ dialect });
    const tap = await startTestTap(mock.url, 'adk');
    open.push({ mock, tap });
    let n = 0;
    const sent: string[] = [];
    for (const s of mine) {
      for (const streaming of [false, true]) {
        const sessionId = `${s.session.sessionId}-tap-${++n}`;
        await createSession(tap.url, s.id, s.session.userId, sessionId);
        await rawRequest(`${tap.url}/run_sse`, { body: JSON.stringify({ appName: s.id, userId: s.session.userId, sessionId, newMessage: { role: 'user', parts: [{ text: s.request.message }] }, streaming, ...(s.request.stateDelta ? { stateDelta: s.request.stateDelta } : {}) }), headers: clientHeaders });
        sent.push(s.id);
      }
    }
    await tap.waitEnded(sent.length * 2);
    const runs = tap.ended.filter((e) => e.run.kind === 'run');
    expect(runs).toHaveLength(sent.length);
    // Every run with an event names the server and version it came from, as the mock names it.
    expect([...new Set(runs.filter((e) => e.summary.frames > 0 && e.run.server !== undefined).map((e) => e.run.server))]).toEqual([isAdkJs(dialect) ? 'adk-js@2.0 or adk-js@1.4-1.6' : versionedName(dialect)]);
    const byId = new Map(mine.map((s) => [s.id, s]));
    const judged = runs.map((e, i) => ({ id: sent[i] as string, failed: [...e.summary.judged].filter(([, f]) => f.length > 0).map(([r]) => r), findings: findingsOf(e.summary) }));
    // Conformant runs: no finding at all.
    expect(judged.filter((j) => defectOf(byId.get(j.id) as Scenario) === undefined && j.findings.length > 0)).toEqual([]);
    // Scripted defects: each fails (at least) the requirement it breaks.
    const flagged = judged.filter((j) => defectOf(byId.get(j.id) as Scenario) !== undefined);
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.filter((j) => !j.failed.includes(defectOf(byId.get(j.id) as Scenario) as string))).toEqual([]);
  }, 60_000);
});
