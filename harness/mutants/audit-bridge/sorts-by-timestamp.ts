/**
 * Mutant: getAuditTrail answers the trail sorted by the events' timestamps, not in the order they
 * were recorded: an event stamped by a host whose clock runs behind moves ahead of the call that
 * caused it (allowed by AUD-TRAIL-003, against AUD-ORDER-001).
 */
import { createAuditBridge as reference, type AuditBridge, type AuditBridgeOptions } from '../../../reference-impl/audit-bridge.ts';

const timeOf = (e: Record<string, unknown>) => { const t = Date.parse(String(e.timestamp)); return Number.isFinite(t) ? t : 0; };

export function createAuditBridge(options: AuditBridgeOptions = {}): AuditBridge {
  const bridge = reference(options);
  // Array.prototype.sort is stable: events with the same time keep their record order.
  return { ...bridge, getAuditTrail: (invocationId) => bridge.getAuditTrail(invocationId).sort((a, b) => timeOf(a) - timeOf(b)) };
}
