/** Mutant: any INSIGHT completes the stream (isComplete true too early). Kills PLS-COMPLETE-001. */
import { createProofLayerStream as reference, type ProofLayerStreamConfig } from '../../../../reference-impl/proof-layer-stream.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  return reference({ ...config, isFinal: (e) => e.type === 'INSIGHT' || (e.type === 'STATUS' && e.state === 'ERROR') });
}
