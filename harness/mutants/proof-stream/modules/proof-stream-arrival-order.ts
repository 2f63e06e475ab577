/** Mutant: buffered proof events keep their arrival order (the sequence number is dropped). Kills PLS-ORDER-002. */
import { createProofLayerStream as reference, type ProofLayerStreamConfig } from '../../../../reference-impl/proof-layer-stream.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  const stream = reference(config);
  return {
    ...stream,
    push(event: unknown) {
      if (typeof event === 'object' && event !== null && 'proof_type' in event) {
        const { sequence: _dropped, ...rest } = event as Record<string, unknown>;
        stream.push(rest);
        return;
      }
      stream.push(event);
    },
  };
}
