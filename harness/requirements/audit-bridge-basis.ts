/** The basis of each audit bridge requirement (seed 000 §7 success criteria; §8's clearing rule is what the note corrects). */
import type { BasisTable } from './basis.ts';
import { seed } from './basis-sources.ts';

const criteria = (quote: string) => seed('seed-000', '7. Success Criteria', quote, '7. Success Criteria');
const includesMetadata = criteria('SSE stream includes `_audit_metadata` for events with `invocationId`');
const bounded = criteria('Memory usage bounded (no audit event leaks)');
const byInvocation = seed('seed-000', 'A. AuditEventBridge (New - Python)', 'Buffers audit events by invocationId for SSE injection.');

export const auditBridgeBasis: BasisTable = {
  'AUD-TRAIL-003': { evidence: [includesMetadata], supports: 'MUST', allows: ['clearing after an event ADK calls final (adk-python `is_final_response`) or one seed 000 §8 calls final (`partial == False`)', 'never clearing (the endpoint clears at the end of the stream)', 'a bridge shaped as seed 000 §2.2A (`record_tool_invocation`, `record_tool_response`, `get_audit_trail`, `clear_invocation`)', 'an empty trail for an invocation nothing was recorded for yet', 'the trail in record order or sorted by the events\' timestamps (the seeds fix no order; AUD-ORDER-001 judges it)'] },
  'AUD-KEY-001': {
    evidence: [includesMetadata, byInvocation, seed('seed-000', 'Decision 1: Unified vs. Separate SSE Stream', 'Guaranteed correlation via `invocationId`'), seed('seed-002', '4.2 Streaming Semantics', 'The `correlation_id` must persist throughout an entire multi-agent thread.')],
    supports: 'MUST',
    allows: ['an audit event naming no `invocation_id` filed under its `correlation_id` (the §3.2 envelope, whose example names the invocation: "inv_abc123")', 'the stored event kept as received, `correlation_id` included', 'a bridge that ignores `correlation_id` altogether'],
  },
  'AUD-ORDER-001': {
    evidence: [criteria('Federal compliance: Full decision chain reconstructable from audit trail'), seed('seed-000', '9. Appendix: Event Flow Example', '→ Published to `AuditEventBridge`')],
    supports: 'SHOULD',
    why: 'no seed sentence fixes the order of a trail: §2.2A says only that the bridge buffers events, and §9 lists the events in the order they were published, which there is also their timestamp order; the kit recommends record order because timestamps come from each agent\'s clock (or a tool\'s own), so a sort can put a response before the call that caused it and the chain §7 asks for is no longer reconstructable in order',
    allows: ['record order (the order the callbacks published the events)', 'timestamps that are not increasing in the trail'],
  },
  'AUD-MEM-002': { evidence: [bounded], supports: 'MUST', allows: ['entries kept while their invocation is still open', 'clearing at the end of the enhanced stream, by a bound, or by age'] },
  'AUD-EVICT-001': {
    evidence: [bounded],
    supports: 'SHOULD',
    why: 'the seeds give the bridge no bound (the endpoint\'s clear frees each invocation); the two bounds are the kit\'s contract, which guards against a final event that never comes (a cut stream), so which invocation goes first is the kit\'s recommendation: the one recorded to least recently is the likeliest dead, while evicting a live one loses the trail its next events carry (§7 "Full decision chain reconstructable from audit trail")',
    allows: ['a bridge of seed 000 §2.2A\'s shape, which has no bound (the check is then untested)', 'eviction by age of the last record rather than by order of records'],
  },
  'AUD-TRIM-001': {
    evidence: [bounded],
    supports: 'SHOULD',
    why: 'the seeds give the bridge no event bound; the kit\'s contract does, and says the oldest event is dropped: a trail that refuses new events stops changing, so the events that carry the final confidence and sources of the answer (§7 "Proof layer confidence scores match tool output") never reach it; the seeds name no rule, so this is the kit\'s recommendation',
    allows: ['a bridge of seed 000 §2.2A\'s shape, which has no bound (the check is then untested)'],
  },
  'AUD-CLEAR-001': { evidence: [seed('seed-000', '8. Key Trade-offs & Decisions', 'if event.partial == False:  # Final event')], supports: 'SHOULD', why: 'seed 000 §8 itself prescribes clearing on every `partial == False` event, so a bridge that follows it cannot fail a MUST; the kit judges the outcome §7 promises instead and reports the rule\'s failure mode as this SHOULD', allows: ['never clearing before the stream ends (the endpoint clears then)', 'clearing after the event ADK calls final (adk-python `is_final_response`)'], note: { seedRule: 'seed 000 §8 Decision 2: `if event.partial == False:  # Final event` then `clear_invocation(invocation_id)`', judges: 'that the trail survives until the invocation\'s final event: with streaming, function-call and metadata-only events are `partial: false` (adk-wire-format §4), so §8\'s rule clears the first tool\'s trail when the second tool is called and the final answer loses it, against §9 step 5 and §7 "Full decision chain reconstructable from audit trail"', scenario: 'audit_two_tools_streaming', mutant: 'audit-bridge-cmd-seed-section-8' } },
};
