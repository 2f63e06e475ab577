/**
 * Mutant: each batch's reasoning steps are sorted, but appended after those of earlier batches, so
 * a late step lands at the end instead of in its place. Kills PLS-STEPS-003.
 */
import { createProofLayerStream as reference, type ProofLayerStreamConfig, type ProofLayerStreamState, type ReasoningStep } from '../../../../reference-impl/proof-layer-stream.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  const stream = reference(config);
  let steps: ReasoningStep[] = [];
  let view: ProofLayerStreamState = stream.getState();
  // One notification per applied batch: the steps new in it (already sorted by the reference) go last.
  stream.subscribe((state) => {
    steps = [...steps, ...state.reasoningSteps.filter((r) => !steps.includes(r))];
    view = { ...state, reasoningSteps: steps };
  });
  return { ...stream, getState: () => view };
}
