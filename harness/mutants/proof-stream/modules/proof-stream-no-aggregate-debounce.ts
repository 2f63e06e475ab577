/** Mutant: audit logs and metadata are not debounced (aggregateMs 0). Kills PLS-AGG-001. */
import { createProofLayerStream as reference, type ProofLayerStreamConfig } from '../../../../reference-impl/proof-layer-stream.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  return reference({ ...config, aggregateMs: 0 });
}
