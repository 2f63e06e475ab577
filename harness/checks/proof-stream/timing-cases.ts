/**
 * The cases about when events are applied (seed 000 §4.5's three tiers, seed 002 §4.2's STATUS
 * debounce): each reads the state at the edges of a window, to the virtual millisecond.
 */
import { arr, audit, briefing, finalAnswer, ids, list, statusLabel, step, texts, type Case } from './events.ts';

export const timingCases: Case[] = [
  { requirement: 'PLS-TIER-003', name: 'alert, error and final answer', run(s, clock, fail) {
    s.push(step(1, 'pending reasoning'));
    s.push(briefing('a1', 'ALERT'));
    if (!ids(s.getState().alerts).includes('a1')) fail('/alerts', 'an ALERT is not applied when pushed (tier 1: immediate)', ['a1'], ids(s.getState().alerts));
    clock.advance(50);
    s.push(briefing('e1', 'STATUS', { state: 'ERROR' }));
    if (!ids(s.getState().errors).includes('e1')) fail('/errors', 'a STATUS ERROR is not applied when pushed (tier 1: immediate)', ['e1'], ids(s.getState().errors));
    s.push(finalAnswer('f1'));
    if (s.getState().isComplete !== true) fail('/isComplete', 'the final answer is not applied when pushed (tier 1: immediate)', true, s.getState().isComplete);
  } },
  { requirement: 'PLS-TIER-004', name: 'a final answer after buffered reasoning', run(s, clock, fail) {
    s.push(step(2, 'second'));
    s.push(step(1, 'first'));
    clock.advance(200);
    // An empty reasoning_chain: a chain repeating the steps would put them in the state by itself.
    s.push(finalAnswer('f3'));
    // When the answer lands is PLS-TIER-003's question; this one asks what is beside it the first
    // time it shows, so the clock moves one millisecond at a time until it does.
    for (let waited = 0; waited <= 1500; waited++) {
      const state = s.getState();
      if (state.isComplete === true) {
        const got = texts(state.reasoningSteps);
        if (!got.includes('first') || !got.includes('second')) fail('/reasoningSteps', `the final answer showed ${200 + waited} ms after the reasoning steps pushed at 0 ms, and reasoningSteps held ${list(got)}: tier 1 applies what is still buffered first, in the same batch`, ['first', 'second'], got);
        return;
      }
      clock.advance(1);
    }
    // A final answer that never lands is PLS-TIER-003's and PLS-COMPLETE-001's finding.
  } },
  { requirement: 'PLS-BUF-002', name: 'the 300 ms window', run(s, clock, fail) {
    s.push(step(1, 'first'));
    clock.advance(100);
    s.push(step(2, 'second'));
    clock.advance(199);
    if (texts(s.getState().reasoningSteps).length !== 0) fail('/reasoningSteps', `reasoning steps were applied before 300 ms had passed since the first one buffered (at 299 ms: ${list(texts(s.getState().reasoningSteps))})`, [], texts(s.getState().reasoningSteps));
    clock.advance(1);
    if (texts(s.getState().reasoningSteps).length !== 2) fail('/reasoningSteps', `the buffered reasoning steps were not applied 300 ms after the first one (at 300 ms: ${list(texts(s.getState().reasoningSteps))})`, ['first', 'second'], texts(s.getState().reasoningSteps));
  } },
  { requirement: 'PLS-STATUS-002', name: 'STATUS bursts', run(s, clock, fail) {
    const status = () => s.getState().status;
    const id = () => (status() as Record<string, unknown> | null | undefined)?.event_id ?? null;
    s.push(briefing('s1', 'STATUS', { state: 'THINKING' }));
    clock.advance(299);
    if (id() !== null) { fail('/status', `a STATUS update was applied before 300 ms had passed (at 299 ms status is ${statusLabel(status())})`, null, id()); return; }
    s.push(briefing('s2', 'STATUS', { state: 'EXECUTING' }));
    clock.advance(299);
    // 598 ms: 299 after the second one. A window that is not restarted by s2 has closed at 300.
    if (id() !== null) fail('/status', `a STATUS burst was applied 299 ms after its last update (at 598 ms status is ${statusLabel(status())}): each STATUS restarts the 300 ms debounce`, null, id());
    clock.advance(701);
    if (id() !== 's2') fail('/status', `the latest STATUS was not applied once the updates stopped: status is ${statusLabel(status())}, expected s2 (EXECUTING), the last one pushed`, 's2', id());
  } },
  { requirement: 'PLS-AGG-001', name: 'audit logs', run(s, clock, fail) {
    const applied = () => ids(s.getState().auditLog);
    s.push(audit('t1'));
    clock.advance(599);
    if (arr(s.getState().auditLog).length !== 0) { fail('/auditLog', `an audit event was applied before the 1 s debounce (at 599 ms: ${list(applied())})`, [], applied()); return; }
    clock.advance(1);
    s.push(audit('t2'));
    clock.advance(400);
    // 1,000 ms: 1 s after t1, 400 ms after t2. A fixed window from t1 closes here; a debounce waits for 1,600.
    if (arr(s.getState().auditLog).length !== 0) { fail('/auditLog', `audit events were applied 1 s after the first one although another came at 600 ms (at 1,000 ms: ${list(applied())}): tier 3 is a debounce, each event restarts the 1 s clock`, [], applied()); return; }
    clock.advance(599);
    if (arr(s.getState().auditLog).length !== 0) { fail('/auditLog', `audit events were applied before 1 s had passed since the last one, pushed at 600 ms (at 1,599 ms: ${list(applied())})`, [], applied()); return; }
    clock.advance(1);
    if (arr(s.getState().auditLog).length !== 2) fail('/auditLog', `the audit events were not applied 1 s after the last one (at 1,600 ms: ${list(applied())})`, ['t1', 't2'], applied());
  } },
];
