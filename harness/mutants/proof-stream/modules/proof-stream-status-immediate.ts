/** Mutant: STATUS updates are applied at once (flushed after every push), no debounce. Kills PLS-STATUS-002. */
import { createProofLayerStream as reference, type ProofLayerStreamConfig } from '../../../../reference-impl/proof-layer-stream.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  const stream = reference(config);
  return {
    ...stream,
    push(event: unknown) {
      stream.push(event);
      if ((event as Record<string, unknown> | null)?.type === 'STATUS') stream.flush();
    },
  };
}
