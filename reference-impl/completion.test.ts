import { describe, expect, it } from 'vitest';
import { cedarCreekSteps, renderRun } from '../test/transformer-fixtures.ts';
import { createCompletionDetector, type CompletionDecision } from './completion.ts';
import { classifyData, type ClientFrame } from './transformer/frames.ts';

const config = { idleMs: 1000, graceMs: 100, callIdleMs: 5000 };
const acts = { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} };
const ev = (event: Record<string, unknown>): ClientFrame => ({ kind: 'event', event: { invocationId: 'e-1', actions: acts, longRunningToolIds: [], ...event }, data: '' });
const answer = (author: string, text: string, extra: Record<string, unknown> = {}) => ev({ author, id: `a-${author}`, content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', ...extra });
const call = (author: string, name: string, id: string, extra: Record<string, unknown> = {}) => ev({ author, content: { role: 'model', parts: [{ functionCall: { name, args: { request: 'x' }, id } }] }, finishReason: 'STOP', partial: false, ...extra });
const response = (author: string, name: string, id: string, actions: Record<string, unknown> = acts) => ev({ author, content: { role: 'user', parts: [{ functionResponse: { id, name, response: { result: 'ok' } } }] }, actions });
const metadataOnly = (author: string, id = 'm1') => ev({ author, id, usageMetadata: { totalTokenCount: 1 }, finishReason: 'STOP', partial: false });

function feedAll(frames: ClientFrame[]): CompletionDecision[] {
  const detector = createCompletionDetector(config);
  return frames.map((f) => detector.feed(f));
}
const last = <T>(items: T[]): T => items[items.length - 1] as T;

describe('completion detection (docs/completion.md)', () => {
  it('EOF ends the run', () => {
    expect(createCompletionDetector(config).end()).toEqual({ done: true, reason: 'eof' });
  });

  it('an {"error": ...} frame is terminal', () => {
    expect(last(feedAll([answer('coordinator', 'partial answer'), classifyData('{"error": "boom"}')]))).toEqual({ done: true, reason: 'error-frame' });
  });

  it.each(['TIMEOUT', 'STREAM_ERROR'])('the gateway %s frame is terminal', (code) => {
    expect(last(feedAll([classifyData(JSON.stringify({ error: 'x', error_code: code, timestamp: 1 }))]))).toEqual({ done: true, reason: 'error-frame' });
  });

  it('the gateway status frame is terminal', () => {
    expect(last(feedAll([classifyData('{"error":"ADK upstream error: 500","status_code":500,"detail":"Internal Server Error","timestamp":1}')]))).toEqual({ done: true, reason: 'error-frame' });
  });

  it('a [DONE] sentinel is terminal', () => {
    expect(last(feedAll([answer('coordinator', 'x'), classifyData('[DONE]')]))).toEqual({ done: true, reason: 'done-sentinel' });
  });

  it("the root agent's final answer opens the grace window, and its silence completes the run by the final rule", () => {
    const detector = createCompletionDetector(config);
    expect(detector.feed(answer('coordinator', 'The answer.'))).toEqual({ done: false, candidate: true, waitMs: 100, answered: true });
    expect(detector.timeout()).toEqual({ done: true, reason: 'final-rule' });
  });

  it('never completes on a partial chunk, even the last adk-js chunk that already says STOP', () => {
    expect(last(feedAll([answer('coordinator', 'The answer.', { partial: true })]))).toEqual({ done: false, candidate: false, waitMs: 1000 });
  });

  it('never completes on a function-call event (it carries finishReason STOP too); an open call waits callIdleMs', () => {
    expect(last(feedAll([call('coordinator', 'burn_analyst', 'adk-1')]))).toEqual({ done: false, candidate: false, waitMs: 5000 });
  });

  it('never completes on a function-response event, and the answered call goes back to the idle window', () => {
    expect(last(feedAll([call('coordinator', 'burn_analyst', 'adk-1'), response('coordinator', 'burn_analyst', 'adk-1')]))).toEqual({ done: false, candidate: false, waitMs: 1000 });
  });

  it('never completes on a metadata-only event', () => {
    expect(last(feedAll([metadataOnly('coordinator')]))).toEqual({ done: false, candidate: false, waitMs: 1000 });
  });

  it('never completes on an event with longRunningToolIds, and a long-running call is not waited for', () => {
    const decision = last(feedAll([call('coordinator', 'ask_approval', 'adk-9', { longRunningToolIds: ['adk-9'] })]));
    expect(decision).toEqual({ done: false, candidate: false, waitMs: 1000 });
  });

  it('never completes on text that has no finishReason (adk-js splits the text before calls off like that)', () => {
    expect(last(feedAll([ev({ author: 'coordinator', content: { role: 'model', parts: [{ text: 'Delegating.' }] }, partial: false })]))).toMatchObject({ candidate: false });
  });

  it('never completes on an errorCode event by the final rule; silence after it is the idle fallback', () => {
    const detector = createCompletionDetector(config);
    expect(detector.feed(ev({ author: 'coordinator', errorCode: 'UNKNOWN_ERROR', errorMessage: 'Function nonexistent_tool is not found in the toolsDict.' }))).toEqual({ done: false, candidate: false, waitMs: 1000 });
    expect(detector.timeout()).toEqual({ done: true, reason: 'idle' });
  });

  it('a skipSummarization response is not a final-rule candidate (is_final_response, but no text answer)', () => {
    expect(last(feedAll([call('coordinator', 'burn_analyst', 'adk-1'), response('coordinator', 'burn_analyst', 'adk-1', { ...acts, skipSummarization: true })]))).toMatchObject({ candidate: false });
  });

  it("a transfer: the sub-agent's final waits the full idle window, the coordinator's metadata-only event and re-invocation follow, and its answer opens the grace", () => {
    const decisions = feedAll([
      call('coordinator', 'transfer_to_agent', 'adk-t'),
      response('coordinator', 'transfer_to_agent', 'adk-t', { ...acts, transferToAgent: 'trail_assessor' }),
      answer('trail_assessor', 'Trail answer.'),
      metadataOnly('coordinator'),
      answer('coordinator', 'Coordinator answer.'),
    ]);
    // The sub-agent's answer is a whole run if the stream ends there (real adk-js ends a transfer so without streaming).
    expect(decisions[2]).toEqual({ done: false, candidate: false, waitMs: 1000, answered: true });
    expect(decisions[3]).toEqual({ done: false, candidate: false, waitMs: 1000 });
    expect(decisions[4]).toEqual({ done: false, candidate: true, waitMs: 100, answered: true });
  });

  it('a candidate followed by any other event is withdrawn (one final response per agent in multi-agent runs)', () => {
    const decisions = feedAll([answer('coordinator', 'first'), ev({ author: 'coordinator', content: { role: 'model', parts: [{ text: 'more' }] }, partial: true })]);
    expect(decisions.map((d) => d.done === false && d.candidate)).toEqual([true, false]);
  });

  it("Python's artifact split (same id, actions only) does not withdraw the candidate", () => {
    const decisions = feedAll([answer('coordinator', 'Report attached.'), ev({ author: 'coordinator', id: 'a-coordinator', actions: { ...acts, artifactDelta: { 'report.md': 1 } } })]);
    expect(last(decisions)).toEqual({ done: false, candidate: true, waitMs: 100 });
  });

  it('invalid frames and stream issues keep the run waiting', () => {
    expect(last(feedAll([classifyData('not json')]))).toEqual({ done: false, candidate: false, waitMs: 1000 });
    expect(last(feedAll([{ kind: 'issue', issue: { kind: 'invalid-utf8', offset: 3, message: 'x' } }]))).toMatchObject({ done: false });
  });

  it('silence with no answer at all is the idle fallback', () => {
    const detector = createCompletionDetector(config);
    expect(detector.start()).toEqual({ done: false, candidate: false, waitMs: 1000 });
    expect(detector.timeout()).toEqual({ done: true, reason: 'idle' });
  });

  it.each([
    ['adk-js', false], ['adk-js', true], ['adk-python', false], ['adk-python', true],
  ] as const)('in the Cedar Creek run (%s, streaming %s) only the last frame is a candidate', (dialect, streaming) => {
    const decisions = feedAll(renderRun(cedarCreekSteps, { dialect, streaming }).map(classifyData));
    expect(decisions.map((d) => d.done === false && d.candidate)).toEqual(decisions.map((_, i) => i === decisions.length - 1));
  });

  it('defaults follow seed 001: a 10 s idle fallback', () => {
    expect(createCompletionDetector().start()).toEqual({ done: false, candidate: false, waitMs: 10_000 });
  });

  it('reset forgets the run', () => {
    const detector = createCompletionDetector(config);
    detector.feed(call('coordinator', 'burn_analyst', 'adk-1'));
    detector.reset();
    expect(detector.start()).toEqual({ done: false, candidate: false, waitMs: 1000 });
  });

  it('a window that is not a positive number is refused with the option named', () => {
    expect(() => createCompletionDetector({ idleMs: 0 })).toThrow(/idleMs must be a positive number/);
    expect(() => createCompletionDetector({ graceMs: Number.NaN })).toThrow(/graceMs/);
  });
});
