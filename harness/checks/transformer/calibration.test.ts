/**
 * The kit bugs the calibration on seed 000's TypeScript transformer found (docs/calibration.md §8),
 * on hand-made observations: a complete text beside function calls is no streamed chunk
 * (ABE-ATOMIC-001), and an announcement naming `transfer_to_agent` is the transfer it names
 * (ABE-CALL-001); both still fail the defect they exist for. And the miss of §3: an event naming a
 * called tool as its source_agent fails ABE-SRC-001 whatever its state.
 */
import { describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import type { Scenario } from '../../../schemas/types.ts';
import type { CheckOutcome } from '../../model.ts';
import { classifyFrame, type EmittedEvent, type FedFrame, type TransformerObservation } from './observation.ts';
import { frameFacts } from './frame-facts.ts';
import { checkAtomicity } from './atomicity.ts';
import { checkCallsOnce } from './calls-once.ts';
import { checkSourceAgents } from './source-agent.ts';

const scenario = loadScenarios().scenarios.find((s) => s.id === 'plain_text') as Scenario;
const acts = { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} };
const narration = 'Delegating to all four specialists.';

function frames(payloads: Array<Record<string, unknown>>): FedFrame[] {
  return payloads.map((p, index) => { const data = JSON.stringify(p); return { index, data, ...classifyFrame(data), at: index * 10 }; });
}
const model = (id: string, parts: unknown[], extra: Record<string, unknown> = {}) => ({ id, invocationId: 'e-1', author: 'coordinator', actions: acts, content: { role: 'model', parts }, ...extra });
const call = (name: string, args: Record<string, unknown>, id: string) => ({ functionCall: { id, name, args } });

function ev(index: number, value: Record<string, unknown>): EmittedEvent {
  return { index, line: index + 1, at: 1000 + index, value: { event_id: `e${index}`, correlation_id: 's', source_agent: 'coordinator', ...value } };
}

function obs(fed: FedFrame[], events: EmittedEvent[]): TransformerObservation {
  return {
    scenario: { ...scenario, expect: { ...scenario.expect, briefings: [] } }, sessionId: 's', dialect: 'adk-python', ending: 'eof', frames: fed,
    timing: { idleMs: 100, toleranceMs: 100, implementationOwnsIdle: true },
    run: { events, problems: [], exit: { mode: 'module', exitCode: 0, signal: null, timedOut: false, overflowed: false, stderr: '' }, inputClosedAt: 5000 },
  };
}
const result = (outcomes: CheckOutcome[], id: string) => outcomes.filter((o) => o.requirement === id).map((o) => ({ status: o.status, codes: o.findings.map((f) => f.code) }));

describe('ABE-ATOMIC-001: the complete text of an event that also carries calls', () => {
  // adk-python streaming: two chunks, then the partial:false event with the whole text and the calls.
  const fed = frames([
    model('m1', [{ text: 'Delegating to all ' }], { partial: true }),
    model('m1', [{ text: 'four specialists.' }], { partial: true }),
    model('m1', [{ text: narration }, call('burn_analyst', { request: 'severity' }, 'c1')], { partial: false }),
  ]);
  const run = (body: string) => { const o = obs(fed, [ev(0, { type: 'STATUS', state: 'DELEGATING', content: { summary: body } })]); return result(checkAtomicity(o, frameFacts(o)), 'ABE-ATOMIC-001'); };

  it('is a whole text: carrying it passes', () => {
    expect(run(narration)).toEqual([{ status: 'passed', codes: [] }]);
  });
  it('a chunk of it still fails', () => {
    expect(run('Delegating to all')).toEqual([{ status: 'failed', codes: ['partial-chunk-emitted'] }]);
  });
});

describe('ABE-CALL-001: an announcement naming transfer_to_agent', () => {
  const transfer = (to: string, id: string, frame: string) => model(frame, [call('transfer_to_agent', { agentName: to }, id)]);
  const announce = (i: number, summary: string) => ev(i, { type: 'STATUS', state: 'DELEGATING', content: { summary } });
  const run = (fed: FedFrame[], events: EmittedEvent[]) => { const o = obs(fed, events); return result(checkCallsOnce(o, frameFacts(o)), 'ABE-CALL-001'); };

  it('is the transfer it names: once passes, twice fails as a second announcement', () => {
    const fed = frames([transfer('trail_assessor', 'c1', 'm1')]);
    expect(run(fed, [announce(0, 'Calling transfer_to_agent')])).toEqual([{ status: 'passed', codes: [] }]);
    expect(run(fed, [announce(0, 'Calling transfer_to_agent'), announce(1, 'Calling transfer_to_agent')])).toEqual([{ status: 'failed', codes: ['call-announced-twice'] }]);
  });
  it('with transfers to two agents, the function name stands for either: two pass, a third fails', () => {
    const fed = frames([transfer('trail_assessor', 'c1', 'm1'), transfer('burn_analyst', 'c2', 'm2')]);
    expect(run(fed, [announce(0, 'Calling transfer_to_agent'), announce(1, 'Calling transfer_to_agent')])).toEqual([{ status: 'passed', codes: [] }]);
    expect(run(fed, [announce(0, 'Transferring to trail_assessor'), announce(1, 'Calling transfer_to_agent'), announce(2, 'Calling transfer_to_agent')])).toEqual([{ status: 'failed', codes: ['call-announced-twice'] }]);
  });
  it('an announcement naming nothing called is still a preview', () => {
    expect(run(frames([transfer('trail_assessor', 'c1', 'm1')]), [announce(0, 'Working')])).toEqual([{ status: 'failed', codes: ['call-announced-without-call'] }]);
  });
});

describe('ABE-SRC-001: a source_agent that is no agent', () => {
  const fed = frames([model('m1', [call('get_fire_perimeter', { fire: 'cedar' }, 'c1')])]);
  const run = (value: Record<string, unknown>) => { const o = obs(fed, [ev(0, value)]); return checkSourceAgents(o, frameFacts(o)).flatMap((x) => x.findings); };

  it('call-status-wrong-agent names the event it judged (type and state)', () => {
    expect(run({ type: 'STATUS', state: 'EXECUTING', source_agent: 'briefing-service', content: { summary: 'perimeter' } }).map((x) => x.message)).toEqual(['event 0 (STATUS, state EXECUTING) is attributed to briefing-service, which made no call in this run; an EXECUTING event comes from an agent that made a call']);
  });
  it('an INSIGHT with no state naming a called tool is source-is-tool (calibration §3 miss 3), once', () => {
    expect(run({ type: 'INSIGHT', source_agent: 'get_fire_perimeter', content: { summary: 'perimeter' } }).map((x) => x.code)).toEqual(['source-is-tool']);
    expect(run({ type: 'INSIGHT', state: 'EXECUTING', source_agent: 'get_fire_perimeter', content: { summary: 'perimeter' } }).map((x) => x.code)).toEqual(['source-is-tool']);
  });
  it('the agent that called it passes', () => {
    expect(run({ type: 'INSIGHT', source_agent: 'coordinator', content: { summary: 'perimeter' } })).toEqual([]);
  });
});
