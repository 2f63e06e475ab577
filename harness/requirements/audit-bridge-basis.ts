/** The basis of each audit bridge requirement (seed 000 §7 success criteria; §8's clearing rule is what the note corrects). */
import type { BasisTable } from './basis.ts';
import { seed } from './basis-sources.ts';

const criteria = (quote: string) => seed('seed-000', '7. Success Criteria', quote, '7. Success Criteria');

export const auditBridgeBasis: BasisTable = {
  'AUD-TRAIL-001': { evidence: [criteria('SSE stream includes `_audit_metadata` for events with `invocationId`')], supports: 'MUST', allows: ['a bridge shaped as seed 000 §2.2A (`record_tool_invocation`, `record_tool_response`, `get_audit_trail`, `clear_invocation`)', 'an empty trail for an invocation nothing was recorded for yet'] },
  'AUD-MEM-001': { evidence: [criteria('Memory usage bounded (no audit event leaks)')], supports: 'MUST', allows: ['entries kept while their invocation is still open', 'clearing at the end of the enhanced stream, by a bound, or by age'], note: { seedRule: 'seed 000 §8 Decision 2: `if event.partial == False:  # Final event` then `clear_invocation(invocation_id)`', judges: 'the bounded memory the seed promises (§7 "Memory usage bounded") and the trail on every event (AUD-TRAIL-001). Without streaming `partial` is absent (None), never == False, so nothing is cleared and memory grows; with streaming the first non-partial event (a functionCall) clears the trail the later events of the invocation should carry', scenario: 'cedar_creek_briefing_streaming', mutant: 'audit-bridge-cmd-clears-when-not-partial' } },
};
