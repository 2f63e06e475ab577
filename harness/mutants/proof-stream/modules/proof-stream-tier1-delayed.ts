/** Mutant: alerts, errors and final answers wait 150 ms (treated as buffered). Kills PLS-TIER-003. */
import { createProofLayerStream as reference, type ProofLayerStreamConfig } from '../../../../reference-impl/proof-layer-stream.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  const stream = reference(config);
  const later = config.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  return {
    ...stream,
    push(event: unknown) {
      const e = event as Record<string, unknown> | null;
      const tier1 = e?.type === 'ALERT' || (e?.type === 'STATUS' && e.state === 'ERROR') || (e?.type === 'INSIGHT' && e.state === 'COMPLETE');
      if (tier1) later(() => stream.push(event), 150);
      else stream.push(event);
    },
  };
}
