/**
 * The checks written for field-reported defects (issue 11 §5), on hand-made observations: each
 * passes the right rendering and reports the reported defect with its code.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadScenarios } from '../../../scenarios/loader.ts';
import type { Scenario } from '../../../schemas/types.ts';
import type { CheckOutcome } from '../../model.ts';
import { classifyFrame, type EmittedEvent, type FedFrame, type TransformerObservation } from './observation.ts';
import { frameFacts } from './frame-facts.ts';
import { frameTexts } from './frame-texts.ts';
import { checkTextConservation } from './text-conservation.ts';
import { checkCallsOnce } from './calls-once.ts';
import { checkActionsOnly } from './actions-only.ts';
import { checkUsage } from './usage.ts';

const base = loadScenarios().scenarios.find((s) => s.id === 'plain_text') as Scenario;
const seed = 20761;
const acts = { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} };

function frames(payloads: Array<Record<string, unknown>>, gap = 10): FedFrame[] {
  return payloads.map((p, index) => { const data = JSON.stringify(p); return { index, data, ...classifyFrame(data), at: index * gap }; });
}

const model = (author: string, parts: unknown[], extra: Record<string, unknown> = {}) => ({ invocationId: 'e-1', author, actions: acts, content: { role: 'model', parts }, ...extra });
const call = (name: string, args: Record<string, unknown>, id: string) => ({ functionCall: { id, name, args } });

function ev(index: number, value: Record<string, unknown>, at = 1000 + index): EmittedEvent {
  return { index, line: index + 1, at, value: { event_id: `e${index}`, correlation_id: 's', source_agent: 'coordinator', ...value } };
}

function obs(fed: FedFrame[], events: EmittedEvent[]): TransformerObservation {
  return {
    scenario: base, sessionId: 's', dialect: 'adk-js', ending: 'eof', frames: fed,
    timing: { idleMs: 100, toleranceMs: 100, implementationOwnsIdle: true },
    run: { events, problems: [], exit: { mode: 'module', exitCode: 0, signal: null, timedOut: false, overflowed: false, stderr: '' }, inputClosedAt: 5000 },
  };
}

const codes = (outcomes: CheckOutcome[]) => outcomes.flatMap((o) => o.findings.map((f) => f.code));

describe('ABE-TEXT-001 text conservation (adk-docs PR #2076)', () => {
  const narration = 'Let me pull the perimeter. I will summarise it.';
  // adk-js: the last sentence came with the call, so no delta carried it.
  const fed = frames([
    model('coordinator', [{ text: 'Let me pull ' }], { partial: true }),
    model('coordinator', [{ text: 'the perimeter. ' }], { partial: true }),
    model('coordinator', [{ text: narration }], { partial: false }),
    model('coordinator', [call('get_fire_perimeter', { fire_name: 'Cedar Creek' }, 'adk-1')], { partial: false, finishReason: 'STOP' }),
  ]);
  const detail = (d: string) => [ev(0, { type: 'STATUS', state: 'EXECUTING', delegate_to: 'get_fire_perimeter', content: { summary: 'runs', detail: `${d}\n\nRequest: {}` } })];
  const check = (d: string) => codes(checkTextConservation(obs(fed, detail(d)), frameTexts({ frames: fed })));

  it('passes the whole narration in one body', () => {
    expect(check(narration)).toEqual([]);
  });

  it('reports the narration rendered from its deltas only as lost', () => {
    expect(check('Let me pull the perimeter.')).toEqual(['text-lost']);
  });

  it('reports the deltas shown before the aggregated text that repeats them', () => {
    expect(check(`Let me pull the perimeter. ${narration}`)).toEqual(['streamed-text-repeated']);
  });

  it('accepts a body whose repetition a text of the frames states itself', () => {
    const twice = frames([
      model('a', [{ text: 'fire ' }], { partial: true }), model('a', [{ text: 'fire' }], { partial: false }),
      model('a', [{ text: 'fire fire burned' }], { partial: false }),
    ]);
    const events = [ev(0, { type: 'INSIGHT', content: { summary: 'fire', detail: 'fire' } }), ev(1, { type: 'INSIGHT', state: 'COMPLETE', content: { summary: 'x', detail: 'fire fire burned' } })];
    expect(codes(checkTextConservation(obs(twice, events), frameTexts({ frames: twice })))).toEqual([]);
  });

  it('any split of a streamed answer: the aggregated text once passes, deltas plus text fail (generated, fast-check seed 20761)', () => {
    console.log(`fast-check seed ${seed}`);
    fc.assert(fc.property(fc.array(fc.constantFrom('Cedar ', 'Creek ', 'burned ', 'acres. ', 'Trail 7 ', 'closed. '), { minLength: 1, maxLength: 6 }), fc.boolean(), (chunks, doubled) => {
      const text = chunks.join('');
      const fed2 = frames([...chunks.map((c) => model('a', [{ text: c }], { partial: true })), model('a', [{ text }], { partial: false, finishReason: 'STOP' })]);
      const body = doubled ? `${text}${text}` : text;
      const found = codes(checkTextConservation(obs(fed2, [ev(0, { type: 'INSIGHT', state: 'COMPLETE', content: { summary: 'x', detail: body } })]), frameTexts({ frames: fed2 })));
      return doubled ? found.includes('streamed-text-repeated') : found.length === 0;
    }), { seed, numRuns: 200 });
  });
});

describe('ABE-CALL-001 one announcement per logical call (ag-ui #968, adk-python #5064)', () => {
  const fed = frames([
    model('coordinator', [call('burn_analyst', { request: 'severity' }, 'adk-A')], { partial: true }),
    model('coordinator', [call('burn_analyst', { request: 'severity' }, 'adk-B')], { partial: false }),
  ]);
  const delegating = (i: number) => ev(i, { type: 'STATUS', state: 'DELEGATING', delegate_to: 'burn_analyst', content: { summary: 'coordinator delegates to burn_analyst' } });

  it('passes one announcement for a call previewed under another id', () => {
    expect(codes(checkCallsOnce(obs(fed, [delegating(0)]), frameFacts({ frames: fed, scenario: base })))).toEqual([]);
  });

  it('reports the preview and the run announced as two calls', () => {
    expect(codes(checkCallsOnce(obs(fed, [delegating(0), delegating(1)]), frameFacts({ frames: fed, scenario: base })))).toEqual(['call-announced-twice']);
  });

  it('reports an announcement of a call that only a preview made', () => {
    const preview = frames([model('coordinator', [call('get_fire_perimeter', {}, 'adk-A')], { partial: true })]);
    const executing = ev(0, { type: 'STATUS', state: 'EXECUTING', delegate_to: 'get_fire_perimeter', content: { summary: 'runs' } });
    expect(codes(checkCallsOnce(obs(preview, [executing]), frameFacts({ frames: preview, scenario: base })))).toEqual(['call-announced-without-call']);
  });

  it('counts two calls to one tool in one turn as two', () => {
    const two = frames([model('coordinator', [call('lookup_closures', { trail: 'a' }, 'adk-1'), call('lookup_closures', { trail: 'b' }, 'adk-2')])]);
    const e = (i: number) => ev(i, { type: 'STATUS', state: 'EXECUTING', delegate_to: 'lookup_closures', content: { summary: 'runs' } });
    expect(codes(checkCallsOnce(obs(two, [e(0), e(1)]), frameFacts({ frames: two, scenario: base })))).toEqual([]);
  });
});

describe('ABE-FINAL-001 an actions-only event is no final response (adk-python #2992, #7078)', () => {
  const fed = frames([
    { invocationId: 'e-1', author: 'assistant', actions: { ...acts, stateDelta: { incident_id: 'cedar-creek-2022' } }, id: 'x1', timestamp: 1 },
    model('assistant', [{ text: 'The fire is contained.' }], { finishReason: 'STOP' }),
  ]);
  const complete = (detail: string, at?: number) => ev(1, { type: 'INSIGHT', state: 'COMPLETE', source_agent: 'assistant', content: { summary: detail || 'assistant answered', detail } }, at);
  const check = (events: EmittedEvent[]) => codes(checkActionsOnly(obs(fed, events), frameTexts({ frames: fed })));

  it('passes a run whose only INSIGHT is the answer', () => {
    expect(check([ev(0, { type: 'STATUS', state: 'THINKING', source_agent: 'assistant', content: { summary: 't' } }), complete('The fire is contained.')])).toEqual([]);
  });

  it('reports an empty INSIGHT standing for the state-only event', () => {
    expect(check([ev(0, { type: 'INSIGHT', source_agent: 'assistant', content: { summary: 'assistant answered', detail: '' } }), complete('The fire is contained.')])).toEqual(['actions-only-taken-for-answer']);
  });

  it('reports a run declared over between the state-only event and the next frame', () => {
    expect(check([complete('', 5)])).toEqual(['actions-only-taken-for-answer', 'actions-only-ended-run']);
  });

  it('says nothing about a run without actions-only events', () => {
    const plain = frames([model('assistant', [{ text: 'hi' }])]);
    expect(checkActionsOnly(obs(plain, [complete('')]), frameTexts({ frames: plain }))).toEqual([]);
  });
});

describe('ABE-USAGE-001 absent usage is not zero (adk-js #645)', () => {
  const fed = frames([
    model('coordinator', [call('get_fire_perimeter', {}, 'adk-1')], { partial: false, finishReason: 'STOP' }),
    { invocationId: 'e-1', author: 'coordinator', actions: acts, content: { role: 'user', parts: [{ functionResponse: { id: 'adk-1', name: 'get_fire_perimeter', response: { acres: 1 } } }] } },
    model('coordinator', [{ text: 'It is 1 acre.' }], { usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 21, totalTokenCount: 141 }, finishReason: 'STOP' }),
  ]);
  const run = (callUsage: unknown, answerUsage: unknown) => [
    ev(0, { type: 'STATUS', state: 'EXECUTING', delegate_to: 'get_fire_perimeter', content: { summary: 'runs' }, ...(callUsage === undefined ? {} : { usage: callUsage }) }),
    ev(1, { type: 'INSIGHT', state: 'COMPLETE', content: { summary: 'It is 1 acre.', detail: 'It is 1 acre.' }, ...(answerUsage === undefined ? {} : { usage: answerUsage }) }),
  ];
  const check = (events: EmittedEvent[]) => codes(checkUsage(obs(fed, events), frameFacts({ frames: fed, scenario: base }), frameTexts({ frames: fed })));
  const copied = { prompt_token_count: 120, candidates_token_count: 21, total_token_count: 141 };

  it('passes copied counts and null for the turn that reported none', () => {
    expect(check(run(null, copied))).toEqual([]);
    expect(checkUsage(obs(fed, run(null, copied)), frameFacts({ frames: fed, scenario: base }), frameTexts({ frames: fed }))[0]?.status).toBe('passed');
  });

  it('finds nothing wrong with an implementation reporting no usage, and leaves the requirement untested, saying so (issue 28 §2)', () => {
    expect(check(run(undefined, undefined))).toEqual([]);
    expect(checkUsage(obs(fed, run(undefined, undefined)), frameFacts({ frames: fed, scenario: base }), frameTexts({ frames: fed }))[0]).toMatchObject({ status: 'untested', reason: expect.stringMatching(/no briefing reported token usage/) });
  });

  it('reports an absent count reported as 0, an invented one, a changed one and a dropped one', () => {
    expect(check(run({ prompt_token_count: 0, candidates_token_count: 0, total_token_count: 0 }, copied))).toEqual(Array(3).fill('usage-absent-reported-as-zero'));
    expect(check(run({ prompt_token_count: 5, candidates_token_count: null, total_token_count: null }, copied))).toEqual(['usage-invented']);
    expect(check(run(null, { ...copied, total_token_count: 140 }))).toEqual(['usage-not-copied']);
    expect(check(run(null, null))).toEqual(Array(3).fill('usage-dropped'));
  });

  it('reports a usage that is neither null nor the three counts', () => {
    expect(check(run({ tokens: 3 }, copied))).toEqual(['usage-malformed']);
  });
});
