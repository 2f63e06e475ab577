/** Mutant: audit logs and metadata are applied 1 s after the first one, a fixed window, not a debounce. Kills PLS-AGG-001. */
import type { ProofLayerStreamConfig } from '../../../../reference-impl/proof-layer-stream.ts';
import { holdInFixedWindow } from '../hold.ts';

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  return holdInFixedWindow(config, (e) => e.event_type !== undefined || Array.isArray(e._audit_metadata), 1000);
}
