/** Requirements on the audit bridge (seed 000 §2.2A, §8 decision 2), certified for the reference or a team's bridge (docs/audit-bridge-contract.md). */
import type { Requirement } from '../model.ts';

const ab = (r: Omit<Requirement, 'part'>): Requirement => ({ ...r, part: 'audit-bridge' });

export const auditBridgeRequirements: Requirement[] = [
  ab({ id: 'AUD-TRAIL-001', level: 'MUST', title: 'each event of the enhanced stream carries the audit trail recorded so far for its invocation', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'SSE stream includes `_audit_metadata` for events with `invocationId`', tags: ['audit'] }),
  ab({ id: 'AUD-MEM-001', level: 'MUST', title: 'the bridge holds no entries once its invocations have ended, and never more than its bound', source: { doc: 'seed-000', section: '7. Success Criteria' }, quote: 'Memory usage bounded (no audit event leaks)', tags: ['audit', 'memory'] }),
];
