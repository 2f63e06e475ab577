/**
 * Requirements on the proof layer a transformer builds (seed 000 §3.3 and §7, seed 001 Option A,
 * seed 002 §2.1). Seed 000 §7's success criteria are the MUSTs: they are what the design is for.
 */
import type { Requirement } from '../model.ts';

const pl = (r: Omit<Requirement, 'part'>): Requirement => ({ ...r, part: 'transformer' });

export const proofLayerRequirements: Requirement[] = [
  pl({ id: 'PL-CONF-001', level: 'MUST', title: 'with audit metadata, proof_layer.confidence equals the tool_response confidence', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'Proof layer confidence scores match tool output (no inference)', tags: ['proof-layer', 'audit'] }),
  pl({ id: 'PL-CONF-002', level: 'MUST', title: 'without audit metadata, confidence parsed from the text equals the text\'s percentage', source: { doc: 'seed-001', section: 'Q3: Does coordinator emit `proof_layer` field?' }, quote: '**Must parse text** to extract confidence/sources', tags: ['proof-layer', 'text'] }),
  pl({ id: 'PL-CONF-003', level: 'MUST', title: 'where the data gives no confidence, the event carries none (never an invented number)', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'Proof layer confidence scores match tool output (no inference)', tags: ['proof-layer'] }),
  pl({ id: 'PL-CONF-004', level: 'MUST', title: 'a tool_error gives confidence 0.0', source: { doc: 'seed-000', section: '3.1 Audit Event Types (7 Core Types)' }, quote: '| `tool_error` | Tool failed | `on_tool_error_audit` | confidence=0.0 |', tags: ['proof-layer', 'audit', 'errors'] }),
  pl({ id: 'PL-CIT-001', level: 'MUST', title: 'with audit metadata, citations include the tool\'s data_sources and the data_load/mcp_fetch sources', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'Citations include tool-provided `data_sources`', tags: ['proof-layer', 'audit'] }),
  pl({ id: 'PL-CIT-002', level: 'MUST', title: 'without audit metadata, **Source:** and **Regulatory Basis:** lines become citations', source: { doc: 'seed-001', section: 'Q3: Does coordinator emit `proof_layer` field?' }, quote: '- Regulatory citations in text: `**Regulatory Basis:** 36 CFR 220.6(e)(13)`', tags: ['proof-layer', 'text'] }),
  pl({ id: 'PL-CIT-003', level: 'MUST', title: 'every citation names a source the run states (a tool\'s data_sources, an audit entry, a **Source:** line), never a generic fallback', source: { doc: 'seed-000', section: '1.2 Critical Gaps' }, quote: '3. **Citations are generic** - Not linked to actual data sources', tags: ['proof-layer'] }),
  pl({ id: 'PL-REASON-001', level: 'MUST', title: 'with audit metadata, the reasoning chain is the reasoning_step descriptions and the tool\'s reasoning steps, in order', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'Reasoning chains come directly from skill execution logs', tags: ['proof-layer', 'audit'] }),
  pl({ id: 'PL-LEDGER-001', level: 'SHOULD', title: 'with audit metadata, confidence_ledger lists each data source with its confidence and tier', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'Frontend `AgentBriefingEvent` has populated `confidence_ledger`', tags: ['proof-layer', 'audit'] }),
  pl({ id: 'PL-TIER-002', level: 'SHOULD', title: 'a confidence below 0.90 (tier 2, 3 or 4) comes with a degradation_notice', source: { doc: 'seed-002', section: '2.1 Confidence Tiers (Degraded Mode)' }, quote: 'The `proof_layer.confidence` score indicates the data quality tier:', tags: ['proof-layer', 'tiers'] }),
];
