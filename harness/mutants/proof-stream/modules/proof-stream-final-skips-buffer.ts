/** Mutant: a final answer does not flush the buffered reasoning first; the steps follow up to 300 ms later. Kills PLS-TIER-004. */
import type { ProofLayerStreamConfig } from '../../../../reference-impl/proof-layer-stream.ts';
import { holdInFixedWindow } from '../hold.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  // Tier-2 events wait in a window of their own (300 ms, fixed as the reference's), out of reach of tier 1's flush.
  return holdInFixedWindow(config, (e) => e.proof_type !== undefined, 300);
}
