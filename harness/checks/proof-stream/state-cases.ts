/**
 * The cases about what the state holds once events are applied (seed 000 §4.2
 * `ProofLayerStreamState`, docs/proof-layer-stream.md "State"): order, retransmissions, repeated
 * citations, completion, and the snapshot a React hook reads through useSyncExternalStore.
 */
import { briefing, citation, confidence, confidences, finalAnswer, list, referenceIds, step, texts, type Case } from './events.ts';

const inOrder = ['step 1', 'step 2', 'step 3', 'step 10'];
const pushed = [0.92, 0.7, 0, 0, 0.9];
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const stateCases: Case[] = [
  { requirement: 'PLS-ORDER-002', name: 'a burst out of sequence', run(s, clock, fail) {
    // Sequence 10 beside 1 to 3: compared as text ("10" < "2"), or sorted with Array#sort's default comparator, 10 lands second.
    for (const n of [3, 10, 1, 2]) s.push(step(n, `step ${n}`));
    s.push(confidence(11, 0.8));
    clock.advance(300);
    const got = texts(s.getState().reasoningSteps);
    const applied = got.length === 0 ? 'none of them was applied at 300 ms' : `they were applied as ${list(got)}`;
    if (!same(got, inOrder)) fail('/reasoningSteps', `steps pushed as sequence 3, 10, 1, 2 in one window, and ${applied}; in sequence order, as numbers, they are ${list(inOrder)}`, inOrder, got);
  } },
  { requirement: 'PLS-STEPS-003', name: 'a late step in a later window', run(s, clock, fail) {
    s.push(step(2, 'step 2'));
    s.push(step(10, 'step 10'));
    clock.advance(300);
    // 3 goes between 2 and 10 only if sequences compare as numbers; 1 goes first, not after 2 and 10.
    s.push(step(3, 'step 3'));
    s.push(step(1, 'step 1'));
    clock.advance(300);
    const got = texts(s.getState().reasoningSteps);
    if (!same(got, inOrder)) fail('/reasoningSteps', `steps 2 and 10 applied in one window, then 3 and 1 in the next, left reasoningSteps as ${list(got)}: a step applied later takes its place by sequence, as a number (${list(inOrder)}), it is not appended`, inOrder, got);
  } },
  { requirement: 'PLS-STEPS-002', name: 'retransmitted steps', run(s, clock, fail) {
    s.push(step(1, 'one'));
    s.push(step(2, 'two'));
    s.push(step(1, 'one, retransmitted'));
    clock.advance(300);
    s.push(step(2, 'two, retransmitted'));
    clock.advance(300);
    const got = texts(s.getState().reasoningSteps);
    if (!same(got, ['one', 'two'])) fail('/reasoningSteps', `sequences 1 and 2 were each sent again (1 in the same window, 2 in the next), and reasoningSteps is ${list(got)}: a step whose sequence is already there is a retransmission, dropped, and the first one stays`, ['one', 'two'], got);
  } },
  { requirement: 'PLS-CITE-001', name: 'citations the final answer repeats', run(s, clock, fail) {
    const field = { source: 'USFS field assessment', reference_id: 'WL-001', snippet: 'WL-001: TYPE_IV' };
    const severity = { source: 'MTBS burn severity', reference_id: 'cedar-creek-2022', snippet: 'high severity on 41% of the area' };
    s.push(citation(1, field));
    s.push(citation(2, severity));
    clock.advance(300);
    // Seed 000 Decision 3: the final insight carries the full proof layer, so it repeats what was streamed (equal copies, not the same objects).
    s.push(finalAnswer('f4', { citations: [{ ...field }, { ...severity }] }));
    clock.advance(1000);
    const got = referenceIds(s.getState().citations);
    if (!same(got, ['WL-001', 'cedar-creek-2022'])) fail('/citations', `two citations streamed, then repeated field for field by the final answer, left citations as ${list(got)} (by reference_id): each is listed once, the first one stays`, ['WL-001', 'cedar-creek-2022'], got);
  } },
  { requirement: 'PLS-COMPLETE-001', name: 'completion and confidence history', run(s, clock, fail) {
    s.push(briefing('i1', 'INSIGHT', { proof_layer: { confidence: 0.92, citations: [], reasoning_chain: [] } }));
    s.push(confidence(1, 0.7));
    // 0.0 is a confidence (seed 002 §2.1 tier 4 "Failure | 0.00"; seed 000 §3.1 tool_error "confidence=0.0"), not a missing one: a falsy check drops it.
    s.push(confidence(2, 0));
    clock.advance(300);
    if (s.getState().isComplete !== false) fail('/isComplete', 'isComplete is true before the final response', false, s.getState().isComplete);
    s.push(briefing('i2', 'INSIGHT', { content: { summary: 'Unable to answer', detail: 'Unable to answer' }, proof_layer: { confidence: 0, citations: [], reasoning_chain: [] } }));
    s.push(finalAnswer('f2'));
    // How soon is PLS-TIER-003's question; this case only asks that it completes.
    clock.advance(1000);
    if (s.getState().isComplete !== true) fail('/isComplete', 'isComplete is not true once the final response is applied', true, s.getState().isComplete);
    const history = confidences(s.getState().confidenceHistory);
    if (!same(history, pushed)) fail('/confidenceHistory', `the confidence history is ${list(history)}; pushed were 0.92 (an INSIGHT), 0.7 and 0 (confidence updates), 0 (an INSIGHT unable to answer, tier 4) and 0.9 (the final answer), each to be recorded as given, a 0 too, in the order applied`, pushed, history);
  } },
  { requirement: 'PLS-STATE-002', name: 'state snapshots', run(s, clock, fail) {
    const first = s.getState();
    if (s.getState() !== first) fail('/', 'getState returned a new object with no batch applied in between: useSyncExternalStore needs the same snapshot until the state changes', 'the same object', 'a new object');
    const before = JSON.stringify(first);
    s.push(step(1, 'first'));
    clock.advance(300);
    const second = s.getState();
    // No step at 300 ms means no batch to compare across; that is PLS-BUF-002's finding.
    if (!texts(second.reasoningSteps).includes('first')) return;
    if (second === first) fail('/', 'getState returned the same object after a batch was applied (a reasoning step at 300 ms): a hook comparing snapshots sees no change and does not re-render', 'a new object', 'the same object');
    const after = JSON.stringify(first);
    if (after !== before) fail('/', `the state returned before a batch was changed by that batch (its reasoningSteps went from ${list(texts(JSON.parse(before)?.reasoningSteps))} to ${list(texts(first.reasoningSteps))}): a state once returned is never mutated, the next one is a new object`, JSON.parse(before) as unknown, JSON.parse(after) as unknown);
  } },
];
