/**
 * The module contract of an audit bridge under test (docs/harness-normalizer.md, "Audit bridge"):
 * an ES module exporting `createAuditBridge({maxInvocations, maxEventsPerInvocation})` that returns
 * `{record, getAuditTrail, clearInvocation, observeEvent, stats}` as reference-impl/audit-bridge.ts
 * does. A module that does not export it is a configuration error, thrown at once.
 */
import { kitModule } from '../../core/package-root.ts';
import { pathToFileURL } from 'node:url';

export type AuditBridgeLike = {
  record: (event: Record<string, unknown> & { event_type: string }) => unknown;
  getAuditTrail: (invocationId: string) => Array<Record<string, unknown>>;
  clearInvocation: (invocationId: string) => unknown;
  observeEvent: (adkEvent: unknown) => unknown;
  stats: () => { invocations: number; events: number };
};

export type AuditBridgeFactory = (options?: { maxInvocations?: number; maxEventsPerInvocation?: number }) => AuditBridgeLike;

export const referenceAuditBridgeModule = kitModule('reference-impl/audit-bridge.ts');

export async function loadAuditBridgeModule(path: string): Promise<AuditBridgeFactory> {
  let loaded: Record<string, unknown>;
  try {
    loaded = await import(pathToFileURL(path).href) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`audit bridge module ${path} cannot be imported: ${(error as Error).message}`);
  }
  if (typeof loaded.createAuditBridge !== 'function') {
    throw new Error(`audit bridge module ${path} exports no createAuditBridge function (it exports: ${Object.keys(loaded).join(', ') || 'nothing'}); export createAuditBridge(options) returning {record, getAuditTrail, clearInvocation, observeEvent, stats}`);
  }
  return loaded.createAuditBridge as AuditBridgeFactory;
}
