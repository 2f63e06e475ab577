/**
 * The checks written for the defects real transformers had (issue 29 §1), on hand-made
 * observations: each passes the right briefing and reports the defect with its code, also where
 * the implementation's lifecycle is wrong as well (no COMPLETE state, another source_agent).
 */
import { describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import type { Scenario } from '../../../schemas/types.ts';
import type { CheckOutcome } from '../../model.ts';
import { classifyFrame, type EmittedEvent, type FedFrame, type TransformerObservation } from './observation.ts';
import { frameFacts } from './frame-facts.ts';
import { checkInventedProof } from './proof-invented.ts';
import { checkConfidence } from './proof-confidence.ts';
import { checkAlertWords } from './alerts.ts';

const scenarios = loadScenarios().scenarios;
const byId = (id: string) => scenarios.find((s) => s.id === id) as Scenario;
const acts = { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} };
const synthesis = '**Fire Severity:** ... (Confidence: 92%)\n\n**Overall Confidence:** 90%\n\n**Recommended Actions:** ...';
const plain = 'The Cedar Creek fire burned 127,283 acres.';
const alarm = 'Culvert survey complete: no errors found, no failed crossings.';

function frames(payloads: Array<Record<string, unknown>>): FedFrame[] {
  return payloads.map((p, index) => { const data = JSON.stringify(p); return { index, data, ...classifyFrame(data), at: index * 10 }; });
}
const answer = (text: string) => ({ invocationId: 'e-1', author: 'coordinator', actions: acts, content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' });

function ev(index: number, value: Record<string, unknown>): EmittedEvent {
  return { index, line: index + 1, at: 1000 + index, value: { event_id: `e${index}`, correlation_id: 's', source_agent: 'coordinator', ...value } };
}

function obs(scenario: Scenario, fed: FedFrame[], events: EmittedEvent[]): TransformerObservation {
  return {
    scenario: { ...scenario, expect: { ...scenario.expect, briefings: [] } }, sessionId: 's', dialect: 'adk-js', ending: 'eof', frames: fed,
    timing: { idleMs: 100, toleranceMs: 100, implementationOwnsIdle: true },
    run: { events, problems: [], exit: { mode: 'module', exitCode: 0, signal: null, timedOut: false, overflowed: false, stderr: '' }, inputClosedAt: 5000 },
  };
}

const result = (outcomes: CheckOutcome[], id: string) => outcomes.filter((o) => o.requirement === id).map((o) => ({ status: o.status, codes: o.findings.map((f) => f.code) }));
const withScenario = (id: string, text: string) => ({ ...byId(id), expect: { ...byId(id).expect, finalText: text } }) as Scenario;

describe('PL-CONF-003 and PL-CIT-003: proof data the run never stated', () => {
  const scenario = withScenario('plain_text', plain);
  const fed = frames([answer(plain)]);
  const final = (proof: Record<string, unknown>, extra: Record<string, unknown> = {}) => ev(0, { type: 'INSIGHT', content: { summary: 'answer', detail: plain }, proof_layer: { reasoning_chain: [], citations: [], ...proof }, ...extra });
  const run = (e: EmittedEvent) => { const o = obs(scenario, fed, [e]); return checkInventedProof(o, frameFacts(o)); };

  it('a default confidence of 0.75 fails, on an event no lifecycle leads to (no state, another agent)', () => {
    expect(result(run(final({ confidence: 0.75 }, { source_agent: 'briefing-service' })), 'PL-CONF-003')).toEqual([{ status: 'failed', codes: ['confidence-not-in-run'] }]);
  });
  it('a citation "Data from fixtures" or {"source": "Unknown"} fails', () => {
    expect(result(run(final({ citations: [{ source: 'Data from fixtures', source_type: 'RANGER-Fixtures' }, { source: 'Unknown' }] })), 'PL-CIT-003')).toEqual([{ status: 'failed', codes: ['citation-not-in-run', 'citation-not-in-run'] }]);
  });
  it('a score and a source the run states pass; no proof data says nothing', () => {
    const sourced = frames([answer(`${plain}\n**Confidence:** 92%\n**Source:** MTBS`)]);
    const o = obs(withScenario('plain_text', `${plain}\n**Confidence:** 92%\n**Source:** MTBS`), sourced, [final({ confidence: 0.92, citations: [{ source: 'MTBS', source_type: 'text-source' }] })]);
    expect(checkInventedProof(o, frameFacts(o)).map((x) => [x.requirement, x.status])).toEqual([['PL-CONF-003', 'passed'], ['PL-CIT-003', 'passed']]);
    expect(run(ev(0, { type: 'INSIGHT', content: { summary: plain } }))).toEqual([]);
  });
});

describe('PL-CONF-002: judged whatever else the implementation gets wrong', () => {
  const scenario = withScenario('plain_text', synthesis);
  const fed = frames([answer(synthesis)]);
  const check = (events: EmittedEvent[]) => { const o = obs(scenario, fed, events); return result(checkConfidence(o, frameFacts(o)), 'PL-CONF-002'); };
  const carrying = (confidence: number, extra: Record<string, unknown>) => ev(0, { type: 'INSIGHT', content: { summary: 'briefing', detail: synthesis }, proof_layer: { confidence, reasoning_chain: [], citations: [] }, ...extra });

  it('the first percentage (0.92) does not pass for "Overall Confidence: 90%", with or without a COMPLETE state', () => {
    expect(check([carrying(0.92, { state: 'COMPLETE' })])).toEqual([{ status: 'failed', codes: ['confidence-not-stated-in-text'] }]);
    expect(check([carrying(0.92, { source_agent: 'briefing-service' })])).toEqual([{ status: 'failed', codes: ['confidence-not-stated-in-text'] }]);
  });
  it('the overall score passes on the event that carries the text, whatever its state', () => {
    expect(check([carrying(0.9, {})])).toEqual([{ status: 'passed', codes: [] }]);
  });
});

describe('ABE-ALERT-002: the words of a text decide no type', () => {
  const scenario = withScenario('plain_text', alarm);
  const fed = frames([answer(alarm)]);
  const check = (type: string, fedFrames = fed) => { const o = obs(scenario, fedFrames, [ev(0, { type, state: 'COMPLETE', content: { summary: 'done', detail: alarm } })]); return result(checkAlertWords(o, frameFacts(o)), 'ABE-ALERT-002'); };

  it('"No errors found" as an ALERT fails where nothing failed; as an INSIGHT it passes', () => {
    expect(check('ALERT')).toEqual([{ status: 'failed', codes: ['alert-from-words'] }]);
    expect(check('INSIGHT')).toEqual([{ status: 'passed', codes: [] }]);
  });
  it('is not judged where the frames show a failure (an error frame)', () => {
    expect(check('ALERT', frames([answer(alarm), { error: 'boom' }]))).toEqual([]);
  });
});
