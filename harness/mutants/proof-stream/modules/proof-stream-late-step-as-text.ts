/**
 * Mutant: each batch's reasoning steps are sorted as numbers, but a step from a later batch is
 * placed among the earlier ones by comparing sequences as text (`String(r.sequence) > String(s)`),
 * so step 3 lands after step 10. Kills PLS-STEPS-003.
 */
import { createProofLayerStream as reference, type ProofLayerStreamConfig, type ProofLayerStreamState, type ReasoningStep } from '../../../../reference-impl/proof-layer-stream.ts';

function insertAsText(steps: ReasoningStep[], step: ReasoningStep): ReasoningStep[] {
  const at = steps.findIndex((r) => String(r.sequence) > String(step.sequence));
  return at === -1 ? [...steps, step] : [...steps.slice(0, at), step, ...steps.slice(at)];
}

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  const stream = reference(config);
  let steps: ReasoningStep[] = [];
  let view: ProofLayerStreamState = stream.getState();
  // One notification per applied batch: the first batch is taken as the reference sorted it, later steps are placed as text.
  stream.subscribe((state) => {
    const fresh = state.reasoningSteps.filter((r) => !steps.includes(r));
    steps = steps.length === 0 ? fresh : fresh.reduce(insertAsText, steps);
    view = { ...state, reasoningSteps: steps };
  });
  return { ...stream, getState: () => view };
}
