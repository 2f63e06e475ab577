/**
 * Audit bridge mutants. The bridge has no target flag (it is certified for the reference only),
 * so a mutant names its module in `module` and leaves `target` empty; the mutation test gives
 * that module to createAuditBridgeRunner({module}). Proven by harness/mutants/audit-bridge.mutants.test.ts.
 */
import { fileURLToPath } from 'node:url';
import type { Mutant } from '../types.ts';

export type AuditBridgeMutant = Mutant & { module: string };

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export const auditBridgeMutants: AuditBridgeMutant[] = [
  { id: 'audit-bridge-never-clears', part: 'audit-bridge', description: 'the bridge ignores final events and clearInvocation, so ended invocations stay until the bound evicts them', kills: ['AUD-MEM-001'], target: {}, module: here('./never-clears.ts') },
  { id: 'audit-bridge-ignores-bound', part: 'audit-bridge', description: 'the bridge ignores maxInvocations and maxEventsPerInvocation', kills: ['AUD-MEM-001'], target: {}, module: here('./ignores-bound.ts') },
  { id: 'audit-bridge-returns-other-trail', part: 'audit-bridge', description: 'getAuditTrail returns the trail of the invocation recorded to last instead of the one asked for', kills: ['AUD-TRAIL-001'], target: {}, module: here('./returns-other-trail.ts') },
];
