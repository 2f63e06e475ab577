/** Mutant: a citation the final answer repeats (equal field for field) is listed again. Kills PLS-CITE-001. */
import { createProofLayerStream as reference, type Citation, type ProofLayerStreamConfig, type ProofLayerStreamState } from '../../../../reference-impl/proof-layer-stream.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  const stream = reference(config);
  let repeated: Citation[] = [];
  let seen: ProofLayerStreamState | undefined;
  let view: ProofLayerStreamState = stream.getState();
  return {
    ...stream,
    push(event: unknown) {
      const before = stream.getState().citations.map((c) => JSON.stringify(c));
      stream.push(event);
      // A briefing is applied inside push (tier 1), so the ones the reference just dropped as repeats are known here.
      const proof = (event as { proof_layer?: { citations?: unknown } } | null)?.proof_layer;
      const cited = Array.isArray(proof?.citations) ? (proof.citations as Citation[]) : [];
      repeated = [...repeated, ...cited.filter((c) => before.includes(JSON.stringify(c)))];
    },
    getState() {
      const state = stream.getState();
      // The same view until the reference applies a batch, as a snapshot should be.
      if (state !== seen) { seen = state; view = repeated.length === 0 ? state : { ...state, citations: [...state.citations, ...repeated] }; }
      return view;
    },
  };
}
