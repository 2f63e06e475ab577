/** Mutant: the bridge ignores maxInvocations and maxEventsPerInvocation and keeps everything until an invocation ends. */
import { createAuditBridge as reference, type AuditBridge, type AuditBridgeOptions } from '../../../reference-impl/audit-bridge.ts';

export function createAuditBridge(options: AuditBridgeOptions = {}): AuditBridge {
  void options;
  return reference({ maxInvocations: Number.MAX_SAFE_INTEGER, maxEventsPerInvocation: Number.MAX_SAFE_INTEGER });
}
