/**
 * Mutant: at maxInvocations the bridge evicts the invocation opened first, however recently it was
 * recorded to (a FIFO queue of invocations instead of least recently recorded-to): a live
 * invocation still being recorded to loses its trail while a dead one stays.
 */
import { createAuditBridge as reference, invocationIdOf, type AuditBridge, type AuditBridgeOptions } from '../../../reference-impl/audit-bridge.ts';

export function createAuditBridge(options: AuditBridgeOptions = {}): AuditBridge {
  const max = options.maxInvocations ?? 1000;
  const bridge = reference({ ...options, maxInvocations: Number.MAX_SAFE_INTEGER });
  // Invocations in the order they were opened; ones cleared since are dropped when a new one comes.
  let opened: string[] = [];
  return {
    ...bridge,
    record(event) {
      const id = typeof event === 'object' && event !== null ? invocationIdOf(event) : undefined;
      if (id !== undefined && bridge.getAuditTrail(id).length === 0) {
        opened = opened.filter((o) => bridge.getAuditTrail(o).length > 0);
        // The defect: the first opened goes, not the one recorded to least recently.
        while (opened.length >= max) bridge.clearInvocation(opened.shift()!);
        opened.push(id);
      }
      return bridge.record(event);
    },
  };
}
