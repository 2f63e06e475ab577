/** Mutant: the bridge never frees an invocation: final events and clearInvocation are ignored (only the bound evicts). */
import { createAuditBridge as reference, type AuditBridge, type AuditBridgeOptions } from '../../../reference-impl/audit-bridge.ts';

export function createAuditBridge(options: AuditBridgeOptions = {}): AuditBridge {
  const bridge = reference(options);
  return { ...bridge, clearInvocation: () => false, observeEvent: () => false };
}
