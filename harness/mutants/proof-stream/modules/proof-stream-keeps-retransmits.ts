/** Mutant: a reasoning step sent again with the same sequence is kept beside the first one. Kills PLS-STEPS-002. */
import { createProofLayerStream as reference, type ProofLayerStreamConfig } from '../../../../reference-impl/proof-layer-stream.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  const stream = reference(config);
  const seen = new Set<unknown>();
  return {
    ...stream,
    push(event: unknown) {
      const e = event as Record<string, unknown> | null;
      if (e?.proof_type === 'reasoning_step' && typeof e.sequence === 'number') {
        // A sequence the reference has not seen, just after the original: the retransmission survives.
        const sequence = seen.has(e.sequence) ? e.sequence + 0.5 : e.sequence;
        seen.add(e.sequence);
        stream.push({ ...e, sequence });
        return;
      }
      stream.push(event);
    },
  };
}
