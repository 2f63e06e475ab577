/** Mutant: tier 2 is not buffered (bufferMs 0): reasoning steps are applied as soon as any timer runs. Kills PLS-BUF-002. */
import { createProofLayerStream as reference, type ProofLayerStreamConfig } from '../../../../reference-impl/proof-layer-stream.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  return reference({ ...config, bufferMs: 0 });
}
