/**
 * The communication lifecycle (seed 002 §3) and the state machine's events (§4.1), derived from the
 * frames: every specialist call is announced, every specialist result is an insight, the run ends
 * with the final answer or an error. How a state is carried: briefing.ts `stateOf`.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation } from './observation.ts';
import { at, bodyOf, brief, detailOf, names, sourceOf, stateOf, suggestionOf, summaryOf, typeOf } from './briefing.ts';
import type { FrameFacts } from './frame-facts.ts';
import { finding, judge, untested } from './outcome.ts';

function countBy<T>(items: T[], key: (t: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  return m;
}

/** ABE-LIFE-001 "| **THINKING** | `STATUS` | Agent is parsing intent |": the first lifecycle event is a THINKING STATUS. */
export function checkThinkingFirst(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const id = 'ABE-LIFE-001';
  if (!facts.modelActivity) return []; // no agent parsed anything (an error frame alone)
  const first = obs.run.events.find((e) => stateOf(e) !== undefined);
  const findings: Finding[] = [];
  if (!first) findings.push(finding(id, 'thinking-missing', 'output', 'the model was active but no event carries a lifecycle state', 'a STATUS THINKING event first', 'no state'));
  else if (stateOf(first) !== 'THINKING') findings.push(finding(id, 'thinking-not-first', at(first), `the first lifecycle event is ${stateOf(first)}, not THINKING`, 'STATUS THINKING', brief(first)));
  else if (typeOf(first) !== 'STATUS') findings.push(finding(id, 'thinking-not-status', at(first, '/type'), 'the THINKING event is not a STATUS event', 'STATUS', typeOf(first)));
  return [judge(id, obs.scenario.id, findings)];
}

/** ABE-LIFE-007 "C->>S: Delegate (AgentBriefingEvent: STATUS)": one DELEGATING STATUS naming the specialist per call. */
export function checkDelegations(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const id = 'ABE-LIFE-007';
  const calls = facts.calls.filter((c) => c.kind === 'specialist');
  if (calls.length === 0) return [];
  const delegating = obs.run.events.filter((e) => stateOf(e) === 'DELEGATING' && typeOf(e) === 'STATUS');
  const findings: Finding[] = [];
  for (const [name, count] of countBy(calls, (c) => c.name)) {
    const announced = delegating.filter((e) => names(e, name)).length;
    if (announced < count) {
      const where = calls.filter((c) => c.name === name).map((c) => `frame[${c.frame}]`).join(', ');
      findings.push(finding(id, 'delegation-missing', where, `${count} call(s) to specialist ${name} but ${announced} STATUS DELEGATING event(s) naming it`, count, announced));
    }
  }
  return [judge(id, obs.scenario.id, findings)];
}

/** ABE-LIFE-008 "S-->>C: Return Analysis (AgentBriefingEvent: INSIGHT)": one INSIGHT from the specialist per result. */
export function checkSpecialistInsights(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const id = 'ABE-LIFE-008';
  const results = facts.results.filter((r) => r.kind === 'specialist' && !r.failure);
  if (results.length === 0) return [];
  const findings: Finding[] = [];
  for (const [name, count] of countBy(results, (r) => r.name)) {
    const insights = obs.run.events.filter((e) => typeOf(e) === 'INSIGHT' && sourceOf(e) === name).length;
    if (insights < count) {
      const where = results.filter((r) => r.name === name).map((r) => `frame[${r.frame}]`).join(', ');
      findings.push(finding(id, 'specialist-insight-missing', where, `${count} result(s) from specialist ${name} but ${insights} INSIGHT(s) with source_agent ${name}`, count, insights));
    }
  }
  return [judge(id, obs.scenario.id, findings)];
}

/** ABE-LIFE-004 "| **COMPLETE** | `INSIGHT` | Final data payload delivered |": one COMPLETE INSIGHT with the final text. */
export function checkComplete(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const id = 'ABE-LIFE-004';
  const outcome = obs.scenario.expect.outcome;
  if (outcome !== 'complete' && outcome !== 'hold-open') return [];
  const completes = obs.run.events.filter((e) => stateOf(e) === 'COMPLETE');
  const findings: Finding[] = [];
  const text = obs.scenario.expect.finalText ?? facts.final?.text;
  if (completes.length === 0) findings.push(finding(id, 'complete-missing', 'output', 'the run gave a final answer but no event has state COMPLETE', 'one INSIGHT COMPLETE', obs.run.events.map(brief).slice(-3)));
  if (completes.length > 1) findings.push(finding(id, 'complete-repeated', at(completes[1]!), `${completes.length} events have state COMPLETE`, 1, completes.length));
  const complete = completes[0];
  if (complete && typeOf(complete) !== 'INSIGHT') findings.push(finding(id, 'complete-not-insight', at(complete, '/type'), `the COMPLETE event is a ${typeOf(complete)}, not an INSIGHT`, 'INSIGHT', typeOf(complete)));
  if (complete && text !== undefined) {
    const carried = detailOf(complete) ?? summaryOf(complete);
    if (carried !== text) findings.push(finding(id, 'complete-text-mismatch', at(complete, detailOf(complete) !== undefined ? '/content/detail' : '/content/summary'), 'the COMPLETE insight does not carry the final answer\'s text', text, bodyOf(complete)));
  }
  return [judge(id, obs.scenario.id, findings)];
}

/** ABE-LIFE-005 "| **ERROR** | `STATUS` | Recovery failure | Red highlight; Suggestion chip |". */
export function checkErrors(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const id = 'ABE-LIFE-005';
  const errorInput = obs.frames.some((f) => f.kind === 'error') || facts.errorCodes.length > 0;
  if (!errorInput) return [];
  const errors = obs.run.events.filter((e) => stateOf(e) === 'ERROR');
  const findings: Finding[] = [];
  if (obs.scenario.expect.outcome === 'error' && errors.length === 0) {
    findings.push(finding(id, 'error-missing', 'output', 'the run ended with an error frame or errorCode event but no event has state ERROR', 'a STATUS ERROR event', obs.run.events.map(brief).slice(-3)));
  }
  // An error mid-run the run recovered from asks for no ERROR; with none emitted nothing was judged.
  if (errors.length === 0 && findings.length === 0) return [untested(id, obs.scenario.id, 'the frames hold an error that did not end the run, and the output has no ERROR event to judge')];
  for (const e of errors) {
    if (typeOf(e) !== 'STATUS') findings.push(finding(id, 'error-not-status', at(e, '/type'), `the ERROR event is a ${typeOf(e)}, not a STATUS`, 'STATUS', typeOf(e)));
    if (suggestionOf(e) === undefined) findings.push(finding(id, 'error-without-suggestion', at(e, '/content'), 'the ERROR event carries no suggestion (content.detail, content.suggestion or suggestion)', 'a non-empty suggestion', brief(e)));
  }
  return [judge(id, obs.scenario.id, findings)];
}
