/** Requirements on the audit bridge (seed 000 §2.2A, §7, §8 decision 2), certified for the reference or a team's bridge of either shape (docs/audit-bridge-contract.md). */
import type { Requirement } from '../model.ts';

const ab = (r: Omit<Requirement, 'part'>): Requirement => ({ ...r, part: 'audit-bridge' });

// Retired in 0.1.0 (issue 28): AUD-TRAIL-001 wanted the trail kept until ADK's final event, which
// failed seed 000 §8's own clearing rule (now allowed by AUD-TRAIL-002, judged by AUD-CLEAR-001);
// AUD-MEM-001 wanted the bridge to clear itself on the final event and to take two bounds, which
// seed 000 §2.2A's shape cannot (now AUD-MEM-002).
// Retired by issue 29: AUD-TRAIL-002 wanted the trail "in record order" as a MUST, which the seeds
// do not fix (a trail sorted by timestamp is allowed by AUD-TRAIL-003, judged by AUD-ORDER-001).
export const auditBridgeRequirements: Requirement[] = [
  ab({ id: 'AUD-TRAIL-003', level: 'MUST', title: 'each event with an invocationId carries, as `_audit_metadata`, the audit events recorded for its invocation (in record order, or sorted by their timestamps), since the invocation was last cleared after an event ADK or seed 000 §8 names final', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'SSE stream includes `_audit_metadata` for events with `invocationId`', tags: ['audit'] }),
  ab({ id: 'AUD-KEY-001', level: 'MUST', title: 'an audit event that names its `invocation_id` is filed under it, not under its `correlation_id` (a session or thread id that may span several invocations): the trail of an event is looked up by its invocationId', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'SSE stream includes `_audit_metadata` for events with `invocationId`', tags: ['audit'] }),
  ab({ id: 'AUD-ORDER-001', level: 'SHOULD', title: 'a trail keeps its audit events in the order they were recorded, not sorted by timestamp: agents\' clocks differ, so a sort can put an event before the one that caused it', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'Federal compliance: Full decision chain reconstructable from audit trail', tags: ['audit'] }),
  ab({ id: 'AUD-MEM-002', level: 'MUST', title: 'the bridge holds none of an invocation\'s audit events once the endpoint cleared it, and never more than its bounds (the two it is given; for seed 000 §2.2A\'s shape, which takes none, what its open invocations recorded)', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'Memory usage bounded (no audit event leaks)', tags: ['audit', 'memory'] }),
  ab({ id: 'AUD-EVICT-001', level: 'SHOULD', title: 'a bridge at its invocation bound evicts the invocation recorded to least recently, never the new one or one still being recorded to', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'Memory usage bounded (no audit event leaks)', tags: ['audit', 'memory'] }),
  ab({ id: 'AUD-TRIM-001', level: 'SHOULD', title: 'a trail at its event bound drops its oldest event for a new one: it holds the last maxEventsPerInvocation recorded, in record order', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'Memory usage bounded (no audit event leaks)', tags: ['audit', 'memory'] }),
  ab({ id: 'AUD-CLEAR-001', level: 'SHOULD', title: 'an invocation\'s trail is cleared after its final event only, not after every `partial: false` event as seed 000 §8 writes: streaming ADK marks function-call and metadata-only events `partial: false`, so later events, the final answer included, would lose the trail of the tools called before', source: { doc: 'seed-000', section: '8. Key Trade-offs & Decisions' }, quote: 'if event.partial == False:  # Final event', tags: ['audit', 'streaming'] }),
];
