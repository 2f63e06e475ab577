/**
 * What a failing proof-layer stream module is told: each message shows what was observed beside
 * what was expected, and names the event or timer behind an exception. (Which requirement each
 * defect fails is harness/mutants/proof-stream.mutants.test.ts's question.)
 */
import { describe, expect, it } from 'vitest';
import { createProofLayerStream as reference } from '../../../reference-impl/proof-layer-stream.ts';
import { createProofLayerStream as arrivalOrder } from '../../mutants/proof-stream/modules/proof-stream-arrival-order.ts';
import { createProofLayerStream as dropsZero } from '../../mutants/proof-stream/modules/proof-stream-drops-zero-confidence.ts';
import { createProofLayerStream as sequenceAsText } from '../../mutants/proof-stream/modules/proof-stream-sequence-as-text.ts';
import { checkProofStream, proofStreamCaseCount, type ProofStreamFactory } from './index.ts';

const messages = (factory: ProofStreamFactory, requirement: string): string[] =>
  checkProofStream(factory).filter((o) => o.requirement === requirement).flatMap((o) => o.findings.map((f) => f.message));

/** The reference with every event passed through `edit` first (undefined: not pushed). */
const editing = (edit: (e: Record<string, unknown>) => Record<string, unknown> | undefined): ProofStreamFactory => (config) => {
  const stream = reference(config as Parameters<typeof reference>[0]);
  return { ...stream, push(event) { const next = edit(event as Record<string, unknown>); if (next) stream.push(next); } };
};

describe('checkProofStream', () => {
  it('passes the reference store in every case', () => {
    const outcomes = checkProofStream(reference as ProofStreamFactory);
    expect(outcomes).toHaveLength(proofStreamCaseCount);
    expect(outcomes.filter((o) => o.status !== 'passed')).toEqual([]);
  });

  it('shows the order the steps were applied in', () => {
    expect(messages(arrivalOrder as ProofStreamFactory, 'PLS-ORDER-002')).toEqual([
      'a burst out of sequence: steps pushed as sequence 3, 10, 1, 2 in one window, and they were applied as "step 3", "step 10", "step 1", "step 2"; in sequence order, as numbers, they are "step 1", "step 2", "step 3", "step 10"',
    ]);
  });

  it('names the STATUS that was applied when the first of a burst wins', () => {
    // Later STATUS events never reach the store, so it also applies s1 at 300 ms: a second finding, not this test's.
    let statuses = 0;
    const firstWins = editing((e) => (e.type === 'STATUS' && e.state !== 'ERROR' && statuses++ > 0 ? undefined : e));
    expect(messages(firstWins, 'PLS-STATUS-002')).toContain('STATUS bursts: the latest STATUS was not applied once the updates stopped: status is s1 (THINKING), expected s2 (EXECUTING), the last one pushed');
  });

  it('shows the confidences recorded beside the ones pushed', () => {
    const round = (v: unknown) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v);
    const rounding = editing((e) => {
      const data = e.proof_data as Record<string, unknown> | undefined;
      const proof = e.proof_layer as Record<string, unknown> | undefined;
      if (data?.confidence !== undefined) return { ...e, proof_data: { ...data, confidence: round(data.confidence) } };
      if (proof?.confidence !== undefined) return { ...e, proof_layer: { ...proof, confidence: round(proof.confidence) } };
      return e;
    });
    expect(messages(rounding, 'PLS-COMPLETE-001')).toEqual([expect.stringMatching(/^completion and confidence history: the confidence history is 0\.9, 0\.7, 0, 0, 0\.9; pushed were 0\.92 \(an INSIGHT\)/)]);
  });

  it('shows steps compared as text beside their order as numbers', () => {
    expect(messages(sequenceAsText as ProofStreamFactory, 'PLS-ORDER-002')).toEqual([
      'a burst out of sequence: steps pushed as sequence 3, 10, 1, 2 in one window, and they were applied as "step 1", "step 10", "step 2", "step 3"; in sequence order, as numbers, they are "step 1", "step 2", "step 3", "step 10"',
    ]);
  });

  it('shows a confidence of 0 missing from the history', () => {
    expect(messages(dropsZero as ProofStreamFactory, 'PLS-COMPLETE-001')).toEqual([expect.stringMatching(/^completion and confidence history: the confidence history is 0\.92, 0\.7, 0\.9; pushed were 0\.92 \(an INSIGHT\), 0\.7 and 0 \(confidence updates\), 0 \(an INSIGHT unable to answer, tier 4\)/)]);
  });

  it('tells a module that scheduled nothing on the injected clock to use its setTimeout', () => {
    // Timers that never fire stand for the global setTimeout, which the virtual clock cannot move.
    const ownTimers: ProofStreamFactory = (config) => reference({ now: config.now, setTimeout: (() => 0) as never, clearTimeout: () => undefined });
    const buffer = messages(ownTimers, 'PLS-BUF-002');
    expect(buffer).toHaveLength(1);
    expect(buffer[0]).toMatch(/not applied 300 ms after the first one \(at 300 ms: none\) \(the module scheduled nothing with the injected setTimeout in this case: .*use the setTimeout and clearTimeout passed to createProofLayerStream/);
  });

  it('says no more about timers when the module used the injected clock', () => {
    expect(checkProofStream(arrivalOrder as ProofStreamFactory).flatMap((o) => o.findings).filter((f) => /injected setTimeout/.test(f.message))).toEqual([]);
  });

  it('names the event a module threw on, and when', () => {
    const throwing = editing((e) => { if (e.type === 'STATUS' && e.state === 'ERROR') throw new TypeError('cannot read state of undefined'); return e; });
    const outcome = checkProofStream(throwing).find((o) => o.requirement === 'PLS-TIER-003');
    expect(outcome?.findings).toEqual([{ requirement: 'PLS-TIER-003', code: 'proof-stream-threw', path: '/', message: 'alert, error and final answer: the module threw in push(STATUS e1 (state ERROR)) at 50 ms: cannot read state of undefined', expected: 'no exception', actual: 'TypeError: cannot read state of undefined' }]);
  });

  it('names the timer a module threw in', () => {
    const failingTimer: ProofStreamFactory = (config) => reference({ ...config, setTimeout: ((fn: () => void, ms: number) => config.setTimeout(() => { if (ms === 300) throw new Error('flush failed'); fn(); }, ms)) as never });
    expect(messages(failingTimer, 'PLS-BUF-002')).toEqual(['the 300 ms window: the module threw in a 300 ms timer it scheduled, firing at 300 ms: flush failed']);
  });
});
