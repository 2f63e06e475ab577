/** Mutant: the bridge takes any event with a finishReason as final, so a streamed chunk, a thought or text beside a call clears the invocation early. */
import { createAuditBridge as reference, type AuditBridge, type AuditBridgeOptions } from '../../../reference-impl/audit-bridge.ts';

export function createAuditBridge(options: AuditBridgeOptions = {}): AuditBridge {
  const bridge = reference(options);
  return {
    ...bridge,
    observeEvent(event) {
      const e = event as { invocationId?: unknown; finishReason?: unknown } | null;
      if (e && typeof e.invocationId === 'string' && e.finishReason !== undefined) return bridge.clearInvocation(e.invocationId);
      return bridge.observeEvent(event);
    },
  };
}
