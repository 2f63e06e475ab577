/**
 * The reference client and transformer against the real mock over real sockets: each way a
 * `/run_sse` stream can end (EOF, held open, error frame, [DONE], HTTP error, cut) and the framing
 * a WHATWG reader must accept (CRLF, CR, BOM, comments, multi-line data, one byte per write).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../mock-adk/core/render.ts';
import { startMock, type RunningMock } from '../mock-adk/server/start.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { createRunClient } from '../reference-impl/client.ts';
import { createTransformer } from '../reference-impl/transformer/index.ts';
import type { ClientFrame } from '../reference-impl/transformer/frames.ts';
import type { BriefingEvent } from '../reference-impl/transformer/types.ts';
import { comparable } from './transformer-fixtures.ts';

let mock: RunningMock;
let sessions = 0;

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0 }); });
afterAll(async () => { await mock.close(); });

type RunOptions = { faults?: Array<Record<string, unknown>>; streaming?: boolean; create?: boolean; path?: string; idleMs?: number; graceMs?: number; dialect?: string };

async function runScenario(id: string, options: RunOptions = {}): Promise<{ frames: ClientFrame[]; briefings: BriefingEvent[]; sessionId: string }> {
  const sessionId = `s-client-${++sessions}`;
  if (options.create !== false) {
    const created = await fetch(`${mock.url}/apps/${id}/users/u1/sessions/${sessionId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(created.status).toBe(200);
  }
  if (options.faults || options.dialect) {
    const armed = await fetch(`${mock.url}/_mock/arm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId, scenario: id, ...(options.faults ? { faults: options.faults } : {}), ...(options.dialect ? { dialect: options.dialect } : {}) }) });
    expect(armed.status).toBe(200);
  }
  const client = createRunClient({ baseUrl: mock.url, idleMs: options.idleMs ?? 5000, graceMs: options.graceMs ?? 1000, ...(options.path ? { path: options.path } : {}) });
  const transformer = createTransformer({ sessionId, ...(options.path === '/run_sse_enhanced' ? { enhanced: true } : {}) });
  const frames: ClientFrame[] = [];
  for await (const frame of client.run({ appName: id, userId: 'u1', sessionId, newMessage: { role: 'user', parts: [{ text: 'Give me a recovery briefing for Cedar Creek Fire' }] }, streaming: options.streaming ?? false })) {
    frames.push(frame);
    transformer.pushFrame(frame);
  }
  return { frames, briefings: transformer.end(), sessionId };
}

const endOf = (frames: ClientFrame[]) => frames.at(-1);
const terminal = (events: BriefingEvent[]) => events.filter((e) => e.state === 'COMPLETE' || e.state === 'ERROR');

describe('the client and transformer against the mock', () => {
  it('EOF: the Cedar Creek run ends at EOF with the COMPLETE insight at 0.90', async () => {
    const { frames, briefings } = await runScenario('cedar_creek_briefing');
    expect(endOf(frames)).toEqual({ kind: 'end', reason: 'eof' });
    expect(frames.filter((f) => f.kind === 'event')).toHaveLength(5);
    expect(briefings.at(-1)).toMatchObject({ state: 'COMPLETE', proof_layer: { confidence: 0.9 } });
    expect(terminal(briefings)).toHaveLength(1);
  });

  it('held open: the answer, then silence, completes by the final rule with a short idle window', async () => {
    const { frames, briefings } = await runScenario('missing_done_hold_open', { idleMs: 1000, graceMs: 100 });
    expect(endOf(frames)).toMatchObject({ kind: 'end', reason: 'final-rule' });
    expect(briefings.at(-1)?.state).toBe('COMPLETE');
  });

  it('held open with no answer: the idle fallback ends the run with an ERROR', async () => {
    const { frames, briefings } = await runScenario('missing_done_closed_without_final', { faults: [{ name: 'hold-open' }], idleMs: 200, graceMs: 100 });
    expect(endOf(frames)).toMatchObject({ kind: 'end', reason: 'idle' });
    expect(briefings.at(-1)).toMatchObject({ state: 'ERROR', error: { code: 'IDLE' } });
  });

  it('an error frame ends the run with an ERROR status', async () => {
    const { frames, briefings } = await runScenario('error_frame_adk_js');
    expect(frames.slice(-2).map((f) => f.kind)).toEqual(['error', 'end']);
    expect(endOf(frames)).toEqual({ kind: 'end', reason: 'error-frame' });
    expect(briefings.at(-1)).toMatchObject({ state: 'ERROR', error: { source: 'error-frame' } });
  });

  it('[DONE] ends the run (the done_sentinel scenario)', async () => {
    const { frames, briefings } = await runScenario('done_sentinel');
    expect(frames.slice(-2).map((f) => f.kind)).toEqual(['done', 'end']);
    expect(endOf(frames)).toEqual({ kind: 'end', reason: 'done-sentinel' });
    expect(briefings.at(-1)?.state).toBe('COMPLETE');
  });

  it('/run_sse_enhanced: the audit trail gives the proof layer and [DONE] ends the stream', async () => {
    const { frames, briefings } = await runScenario('trail_damage_audit', { path: '/run_sse_enhanced' });
    expect(endOf(frames)).toEqual({ kind: 'end', reason: 'done-sentinel' });
    expect(briefings.at(-1)).toMatchObject({ state: 'COMPLETE', proof_layer: { confidence: 0.9, basis: 'audit' } });
  });

  it('a missing session is an http-error end and one ERROR naming the status', async () => {
    const { frames, briefings } = await runScenario('plain_text', { create: false });
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ kind: 'end', reason: 'http-error', status: 404 });
    expect(briefings).toHaveLength(1);
    expect(briefings[0]).toMatchObject({ state: 'ERROR', error: { code: 'HTTP_404' } });
  });

  it('a connection reset mid-frame surfaces the dropped event and ends with one ERROR', async () => {
    const { frames, briefings } = await runScenario('single_tool_call', { faults: [{ name: 'cut-mid-frame', frame: 2, bytes: 30 }] });
    expect(['eof', 'network-error']).toContain((endOf(frames) as { reason: string }).reason);
    expect(briefings.at(-1)?.state).toBe('ERROR');
    expect(terminal(briefings)).toHaveLength(1);
  });

  it.each([
    ['CRLF', [{ name: 'line-endings', style: 'crlf' }]],
    ['CR', [{ name: 'line-endings', style: 'cr' }]],
    ['a BOM', [{ name: 'bom' }]],
    ['mixed line ends and comments', [{ name: 'line-endings', style: 'mixed' }, { name: 'comments', text: 'keep-alive', every: 1 }]],
    ['multi-line data', [{ name: 'multiline-data' }]],
    ['one byte per write', [{ name: 'split-every-byte' }]],
  ])('%s framing gives the rendered events and the plain stream\'s briefings', async (_name, faults) => {
    const id = 'cedar_creek_briefing_streaming';
    const plain = await runScenario(id, { streaming: true });
    const framed = await runScenario(id, { streaming: true, faults });
    const scenario = loadScenarios().scenarios.find((s) => s.id === id);
    if (!scenario) throw new Error(`${id} is missing from the corpus`);
    // Ids derive from the session id, so the expected events are the plan's for this session.
    const plan = render(scenario, { dialect: scenario.dialect, streaming: true, appName: id, userId: 'u1', sessionId: framed.sessionId });
    expect(framed.frames.flatMap((f) => (f.kind === 'event' ? [f.event] : []))).toEqual(plan.frames.map((f) => f.json));
    expect(framed.frames.filter((f) => f.kind === 'issue' || f.kind === 'invalid')).toEqual([]);
    expect(comparable(framed.briefings)).toEqual(comparable(plain.briefings));
  });
});
