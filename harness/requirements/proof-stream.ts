/**
 * Requirements on the proof-layer stream store (seed 000 §4.2 `useProofLayerStream`, §4.5's three
 * update tiers; seed 002 §4.2's STATUS debounce), certified through the module contract
 * (docs/proof-stream-contract.md) in virtual time.
 */
import type { Requirement } from '../model.ts';

const ps = (r: Omit<Requirement, 'part'>): Requirement => ({ ...r, part: 'proof-stream' });

export const proofStreamRequirements: Requirement[] = [
  ps({ id: 'PLS-TIER-003', level: 'SHOULD', title: 'critical alerts, error states and final responses are applied when pushed, before any timer runs', source: { doc: 'seed-000', section: '4.5 Update Strategy (Three Tiers)' }, quote: '**Tier 1: Immediate (< 100ms)**', tags: ['proof-stream', 'tiers'] }),
  ps({ id: 'PLS-TIER-004', level: 'SHOULD', title: 'the final response applies the reasoning still buffered first: it never shows without the steps pushed before it', source: { doc: 'seed-000', section: 'Decision 3: Progressive vs. Batch Updates' }, quote: '**UX Benefit:** Users see thinking process without final data incompleteness', tags: ['proof-stream', 'tiers', 'order'] }),
  ps({ id: 'PLS-BUF-002', level: 'SHOULD', title: 'reasoning steps, citations and confidence updates are held 300 ms from the first one buffered, then applied together', source: { doc: 'seed-000', section: '4.2 New Hook: useProofLayerStream' }, quote: 'bufferMs?: number;  // Default: 300ms', tags: ['proof-stream', 'tiers'] }),
  ps({ id: 'PLS-ORDER-002', level: 'SHOULD', title: 'buffered proof events are applied in sequence order, whatever order they arrived in', source: { doc: 'seed-000', section: '4.2 New Hook: useProofLayerStream' }, quote: '// Process buffered events in sequence order', tags: ['proof-stream', 'order'] }),
  ps({ id: 'PLS-STEPS-003', level: 'SHOULD', title: 'reasoningSteps stays sorted by sequence across batches: a step applied in a later window takes its place by sequence', source: { doc: 'seed-000', section: '4.2 New Hook: useProofLayerStream' }, quote: '// Process buffered events in sequence order', tags: ['proof-stream', 'order'] }),
  ps({ id: 'PLS-STEPS-002', level: 'SHOULD', title: 'a reasoning step whose sequence is already applied is a retransmission: it is dropped and the first one stays', source: { doc: 'seed-000', section: '4.3 Enhanced Event Types' }, quote: 'sequence: number;', tags: ['proof-stream', 'order'] }),
  ps({ id: 'PLS-STATUS-002', level: 'SHOULD', title: 'STATUS updates are debounced at least 300 ms, and the latest one is applied once they stop', source: { doc: 'seed-002', section: '4.2 Streaming Semantics' }, quote: 'The Command Console debounces `STATUS` updates (min 300ms) to prevent visual flickering during high-speed tool execution.', tags: ['proof-stream', 'tiers'] }),
  ps({ id: 'PLS-AGG-001', level: 'SHOULD', title: 'audit logs and metadata are debounced 1 s and applied once they stop', source: { doc: 'seed-000', section: '4.5 Update Strategy (Three Tiers)' }, quote: '**Tier 3: Debounced Aggregate (1s)**', tags: ['proof-stream', 'tiers'] }),
  ps({ id: 'PLS-COMPLETE-001', level: 'MUST', title: 'isComplete stays false until the final response is applied, then true; the confidence history records each confidence in order', source: { doc: 'seed-000', section: '4.2 New Hook: useProofLayerStream' }, quote: 'isComplete: boolean;', tags: ['proof-stream'] }),
  ps({ id: 'PLS-CITE-001', level: 'SHOULD', title: 'a citation the final response repeats (every field equal to one already applied) is listed once: the first one stays', source: { doc: 'seed-000', section: 'Decision 3: Progressive vs. Batch Updates' }, quote: 'Buffer complete `insight` with full proof layer (on completion)', tags: ['proof-stream'] }),
  ps({ id: 'PLS-STATE-002', level: 'SHOULD', title: 'getState returns the same object until a batch is applied, then a new one; a state once returned is never changed', source: { doc: 'seed-000', section: '4.2 New Hook: useProofLayerStream' }, quote: 'setState(prev => applyEvents(prev, events));', tags: ['proof-stream'] }),
];
