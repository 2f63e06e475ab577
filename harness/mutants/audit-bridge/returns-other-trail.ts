/** Mutant: getAuditTrail answers with the trail of the invocation recorded to last, whichever was asked for (a shared "current trail"). */
import { createAuditBridge as reference, type AuditBridge, type AuditBridgeOptions } from '../../../reference-impl/audit-bridge.ts';

export function createAuditBridge(options: AuditBridgeOptions = {}): AuditBridge {
  const bridge = reference(options);
  let last: string | undefined;
  return {
    ...bridge,
    record(event) {
      last = bridge.record(event);
      return last;
    },
    getAuditTrail: (invocationId) => bridge.getAuditTrail(last ?? invocationId),
  };
}
