/**
 * The basis of each proof-layer stream requirement (seed 000 §4, seed 002 §4.2). Seed 000 §4 is a
 * design sketch: its hook's declared state (`ProofLayerStreamState`) is an interface, the update
 * tiers, the buffering code and the debounce are a strategy described, not stated as rules; by
 * the rules of basis-rules.ts they support SHOULD.
 */
import type { BasisTable } from './basis.ts';
import { seed } from './basis-sources.ts';

const hook = (quote: string, binding?: string) => seed('seed-000', '4.2 New Hook: useProofLayerStream', quote, binding);
const tiers = (quote: string) => seed('seed-000', '4.5 Update Strategy (Three Tiers)', quote);
const stateInterface = 'export interface ProofLayerStreamState {';

export const proofStreamBasis: BasisTable = {
  'PLS-TIER-003': { evidence: [tiers('**Tier 1: Immediate (< 100ms)**')], supports: 'SHOULD', why: 'seed 000 §4.5 describes an update strategy; it states no rule, and no field report needs it', allows: ['applying them within 100 ms by a timer (the seed says "< 100ms", not "synchronously")'] },
  'PLS-TIER-004': { evidence: [seed('seed-000', 'Decision 3: Progressive vs. Batch Updates', '**UX Benefit:** Users see thinking process without final data incompleteness')], supports: 'SHOULD', why: 'seed 000 §8 gives this as a UX benefit of its chosen design, not as a rule', allows: ['the buffered steps and the final response applied in one batch'] },
  'PLS-BUF-002': { evidence: [hook('bufferMs?: number;  // Default: 300ms'), tiers('**Tier 2: Buffered Progressive (300ms)**')], supports: 'SHOULD', why: '300 ms is the default of the sketch\'s hook options and the strategy\'s tier 2; no sentence makes it a rule', allows: ['another window when the caller passes `bufferMs`', 'the seed\'s own sketch, which restarts the 300 ms timer on every event (a debounce, not a window from the first one)'] },
  'PLS-ORDER-002': { evidence: [hook('// Process buffered events in sequence order')], supports: 'SHOULD', why: 'a comment in the sketch\'s hook code; no sentence makes sequence order a rule', allows: ['events without `sequence` applied in arrival order (`sequence?` is optional in seed 000 §4.3)'] },
  'PLS-STEPS-003': { evidence: [hook('// Process buffered events in sequence order'), seed('seed-000', '4.3 Enhanced Event Types', 'sequence: number;')], supports: 'SHOULD', why: 'a comment in the sketch\'s hook code; no sentence makes sequence order a rule', allows: ['steps with equal sequence kept in arrival order'] },
  'PLS-STEPS-002': { evidence: [seed('seed-000', '4.3 Enhanced Event Types', 'sequence: number;')], supports: 'SHOULD', why: 'the sketch keeps no rule for a retransmitted step; dropping it follows from `sequence` identifying a step', allows: ['a retransmitted step that differs in text replacing nothing'] },
  'PLS-STATUS-002': { evidence: [seed('seed-002', '4.2 Streaming Semantics', 'The Command Console debounces `STATUS` updates (min 300ms) to prevent visual flickering during high-speed tool execution.')], supports: 'SHOULD', why: 'seed 002 describes what the Command Console does ("debounces ... (min 300ms)"); it states no rule for a store', allows: ['a longer debounce than 300 ms', 'STATUS updates batched with tier 3 ones'] },
  'PLS-AGG-001': { evidence: [tiers('**Tier 3: Debounced Aggregate (1s)**')], supports: 'SHOULD', why: 'seed 000 §4.5 describes an update strategy; it states no rule', allows: ['audit logs left out when not opted in (seed 000: "Audit logs (opt-in)")'] },
  'PLS-COMPLETE-001': { evidence: [hook('isComplete: boolean;', stateInterface), hook('confidenceHistory: ConfidenceUpdate[];', stateInterface), seed('seed-002', '2.1 Confidence Tiers (Degraded Mode)', '| **4. Failure** | 0.00 | Unable to answer | N/A |')], supports: 'MUST', allows: ['confidence history entries with timestamps or without'] },
  'PLS-CITE-001': { evidence: [seed('seed-000', 'Decision 3: Progressive vs. Batch Updates', 'Buffer complete `insight` with full proof layer (on completion)')], supports: 'SHOULD', why: 'the sketch says nothing of citations repeated by the final response', allows: ['two citations that differ in any field both listed'] },
  'PLS-STATE-002': { evidence: [hook('setState(prev => applyEvents(prev, events));')], supports: 'SHOULD', why: 'the sketch\'s `setState(prev => applyEvents(prev, events))` shows React\'s immutable update; the seed states no rule on the returned object', allows: ['a new object per applied batch, however many events it holds'] },
};
