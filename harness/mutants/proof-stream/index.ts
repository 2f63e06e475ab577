/**
 * The proof-layer stream mutants: the reference store with one defect each, run through
 * `--proof-stream-module <file>` as a team's module is; harness/mutants/proof-stream.mutants.test.ts
 * proves each kills exactly the requirement it names.
 */
import { fileURLToPath } from 'node:url';
import type { Mutant } from '../types.ts';

const moduleOf = (id: string): string => fileURLToPath(new URL(`./modules/${id}.ts`, import.meta.url));
const m = (id: string, kills: string[], description: string): Mutant => ({ id, part: 'proof-stream', description, kills, target: { proofStream: { module: moduleOf(id) } } });

export const proofStreamMutants: Mutant[] = [
  m('proof-stream-tier1-delayed', ['PLS-TIER-001'], 'alerts, error states and final answers wait 150 ms like buffered events'),
  m('proof-stream-no-buffer', ['PLS-BUF-001'], 'reasoning steps, citations and confidence updates are not held for 300 ms'),
  m('proof-stream-arrival-order', ['PLS-ORDER-001'], 'buffered proof events are applied in arrival order, not sequence order'),
  m('proof-stream-status-immediate', ['PLS-STATUS-001'], 'STATUS updates are applied at once, with no debounce'),
  m('proof-stream-no-aggregate-debounce', ['PLS-AGG-001'], 'audit logs and metadata are applied at once, not debounced 1 s'),
  m('proof-stream-complete-early', ['PLS-COMPLETE-001'], 'any INSIGHT marks the stream complete'),
];
