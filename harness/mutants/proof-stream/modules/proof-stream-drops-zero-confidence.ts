/**
 * Mutant: a confidence of 0 is taken for a missing one (`if (!confidence)`): a confidence update of
 * 0 is dropped, and a briefing's `proof_layer.confidence: 0` is not recorded. Kills PLS-COMPLETE-001.
 */
import { createProofLayerStream as reference, type ProofLayerStreamConfig } from '../../../../reference-impl/proof-layer-stream.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  const stream = reference(config);
  return {
    ...stream,
    push(event: unknown) {
      const e = event as Record<string, unknown> | null;
      const data = e?.proof_data as Record<string, unknown> | undefined;
      if (e?.proof_type === 'confidence_update' && !data?.confidence) return;
      const proof = e?.proof_layer as Record<string, unknown> | undefined;
      if (typeof proof === 'object' && proof !== null && 'confidence' in proof && !proof.confidence) {
        const { confidence: _dropped, ...rest } = proof;
        stream.push({ ...e, proof_layer: rest });
        return;
      }
      stream.push(event);
    },
  };
}
