/** Mutant: getState always returns one object, overwritten in place after every batch. Kills PLS-STATE-002. */
import { createProofLayerStream as reference, type ProofLayerStreamConfig } from '../../../../reference-impl/proof-layer-stream.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  const stream = reference(config);
  const state = { ...stream.getState() };
  stream.subscribe((next) => { Object.assign(state, next); });
  return { ...stream, getState: () => state };
}
