/**
 * Mutant: sequence numbers compared as text ("10" < "2"), as `String(a).localeCompare(String(b))`
 * or Array#sort's default comparator does, within a window and across windows. Kills PLS-ORDER-002
 * and PLS-STEPS-003.
 */
import { createProofLayerStream as reference, type ProofLayerStreamConfig } from '../../../../reference-impl/proof-layer-stream.ts';

/** A number that orders as String(n) does: digit d at place k adds (d + 1) / 11^k, so 1 < 10 < 2. */
const textKey = (n: number): number => [...String(n)].reduce((key, ch, i) => key + (ch.charCodeAt(0) - 47) / 11 ** (i + 1), 0);

export function createProofLayerStream(config: ProofLayerStreamConfig = {}) {
  const stream = reference(config);
  return {
    ...stream,
    push(event: unknown) {
      const e = event as Record<string, unknown> | null;
      if (e?.proof_type !== undefined && typeof e.sequence === 'number') { stream.push({ ...e, sequence: textKey(e.sequence) }); return; }
      stream.push(event);
    },
  };
}
