/**
 * The proof-layer stream mutants: the reference store with one defect each, run through
 * `--proof-stream-module <file>` as a team's module is; harness/mutants/proof-stream.mutants.test.ts
 * proves each kills exactly the requirement it names.
 */
import { fileURLToPath } from 'node:url';
import type { Mutant } from '../types.ts';

const moduleOf = (id: string): string => fileURLToPath(new URL(`./modules/${id}.ts`, import.meta.url));
const m = (id: string, kills: string[], description: string): Mutant => ({ id, part: 'proof-stream', description, kills, target: { proofStream: { module: moduleOf(id) } } });

export const proofStreamMutants: Mutant[] = [
  m('proof-stream-tier1-delayed', ['PLS-TIER-003'], 'alerts, error states and final answers wait 150 ms like buffered events'),
  m('proof-stream-final-skips-buffer', ['PLS-TIER-004'], 'a final answer is applied without the reasoning still buffered, which follows up to 300 ms later'),
  m('proof-stream-no-buffer', ['PLS-BUF-002'], 'reasoning steps, citations and confidence updates are not held for 300 ms'),
  // Without the sequence number a late step cannot take its place nor a retransmission be told apart: three kills.
  m('proof-stream-arrival-order', ['PLS-ORDER-002', 'PLS-STEPS-003', 'PLS-STEPS-002'], 'buffered proof events are applied in arrival order, not sequence order'),
  m('proof-stream-steps-appended', ['PLS-STEPS-003'], "each batch's reasoning steps are sorted but appended after earlier batches' steps, so a late step lands at the end"),
  // Compared as text, sequence 10 sorts before 2 in a window and before a late step 3 across windows: two kills.
  m('proof-stream-sequence-as-text', ['PLS-ORDER-002', 'PLS-STEPS-003'], 'sequence numbers compared as text ("10" before "2"), within a window and across windows'),
  m('proof-stream-late-step-as-text', ['PLS-STEPS-003'], 'each batch is sorted as numbers, but a step from a later batch is placed by comparing sequences as text, so step 3 lands after step 10'),
  m('proof-stream-keeps-retransmits', ['PLS-STEPS-002'], 'a reasoning step sent again with the same sequence is kept beside the first one'),
  m('proof-stream-status-immediate', ['PLS-STATUS-002'], 'STATUS updates are applied at once, with no debounce'),
  m('proof-stream-no-aggregate-debounce', ['PLS-AGG-001'], 'audit logs and metadata are applied at once, not debounced 1 s'),
  m('proof-stream-fixed-aggregate-window', ['PLS-AGG-001'], 'audit logs and metadata are applied 1 s after the first one, a fixed window that later ones do not restart'),
  m('proof-stream-complete-early', ['PLS-COMPLETE-001'], 'any INSIGHT marks the stream complete'),
  m('proof-stream-drops-zero-confidence', ['PLS-COMPLETE-001'], 'a confidence of 0 is taken for a missing one (`if (!confidence)`): neither a confidence update of 0 nor a proof_layer.confidence of 0 is recorded'),
  m('proof-stream-repeats-citations', ['PLS-CITE-001'], 'a citation the final answer repeats field for field is listed again'),
  m('proof-stream-mutates-state', ['PLS-STATE-002'], 'getState returns one object, overwritten in place after every batch'),
];
