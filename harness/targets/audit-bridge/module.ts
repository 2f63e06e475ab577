/**
 * The module contract of an audit bridge under test (docs/audit-bridge-contract.md "Module
 * contract"): an ES module exporting `createAuditBridge(options?)` that returns a bridge of either
 * shape (shape.ts): the kit's `{record, getAuditTrail, clearInvocation, observeEvent,
 * stats}`, as reference-impl/audit-bridge.ts does, or seed 000 §2.2A's `{record_tool_invocation,
 * record_tool_response, get_audit_trail, clear_invocation}` (camelCase spellings accepted, an
 * `observe_event` optional). A module that exports no factory, or whose bridge has neither shape,
 * is a configuration error, thrown at once.
 */
import { kitModule } from '../../../core/package-root.ts';
import type { BridgeShape } from './shape.ts';
import { importModule } from '../load-module.ts';

type Method = (...args: unknown[]) => unknown;

/** The bridge's methods, whichever shape and spelling it uses. */
export type AuditBridgeMethods = {
  shape: BridgeShape;
  /** kit: record(event); seed: the recorder of the event's type. */
  record: (event: Record<string, unknown>) => unknown;
  getAuditTrail: (invocationId: string) => unknown;
  clearInvocation: (invocationId: string) => unknown;
  /** The bridge's own clearing step, when it has one. */
  observeEvent?: (adkEvent: unknown) => unknown;
  /** kit only: what it holds now. */
  stats?: () => unknown;
};

export type AuditBridgeFactory = (options?: { maxInvocations?: number; maxEventsPerInvocation?: number }) => unknown;

export const referenceAuditBridgeModule = kitModule('reference-impl/audit-bridge.ts');

const kitShape = 'createAuditBridge(options) returning {record, getAuditTrail, clearInvocation, observeEvent, stats} (the kit\'s shape) or {record_tool_invocation, record_tool_response, get_audit_trail, clear_invocation} (seed 000 §2.2A\'s shape)';

function method(bridge: Record<string, unknown>, ...names: string[]): Method | undefined {
  for (const name of names) {
    const fn = bridge[name];
    if (typeof fn === 'function') return (...args: unknown[]) => (fn as Method).apply(bridge, args);
  }
  return undefined;
}

/** Which shape a bridge object exposes; undefined when neither (the caller says what to export). */
export function bridgeMethods(bridge: unknown): AuditBridgeMethods | undefined {
  if (typeof bridge !== 'object' || bridge === null) return undefined;
  const b = bridge as Record<string, unknown>;
  const [record, getAuditTrail, clearInvocation, observeEvent, stats] = ['record', 'getAuditTrail', 'clearInvocation', 'observeEvent', 'stats'].map((n) => method(b, n));
  if (record && getAuditTrail && clearInvocation && observeEvent && stats) return { shape: 'kit', record, getAuditTrail, clearInvocation, observeEvent, stats };
  const invocation = method(b, 'record_tool_invocation', 'recordToolInvocation');
  const response = method(b, 'record_tool_response', 'recordToolResponse');
  const trail = method(b, 'get_audit_trail', 'getAuditTrail');
  const clear = method(b, 'clear_invocation', 'clearInvocation');
  if (!invocation || !response || !trail || !clear) return undefined;
  const observe = method(b, 'observe_event', 'observeEvent');
  return {
    shape: 'seed',
    // The harness gives a seed-shaped bridge only the two types it has a recorder for.
    record: (event) => (event.event_type === 'tool_response' ? response(event) : invocation(event)),
    getAuditTrail: trail,
    clearInvocation: clear,
    ...(observe ? { observeEvent: observe } : {}),
  };
}

export async function loadAuditBridgeModule(path: string): Promise<AuditBridgeFactory> {
  let loaded: Record<string, unknown>;
  try {
    loaded = await importModule(path);
  } catch (error) {
    throw new Error(`audit bridge module ${path} cannot be imported: ${(error as Error).message}`);
  }
  if (typeof loaded.createAuditBridge !== 'function') {
    throw new Error(`audit bridge module ${path} exports no createAuditBridge function (it exports: ${Object.keys(loaded).join(', ') || 'nothing'}); export ${kitShape}`);
  }
  const factory = loaded.createAuditBridge as AuditBridgeFactory;
  // One instance, to name a bridge of neither shape before anything runs (a throwing factory is judged per scenario).
  let sample: unknown;
  try { sample = factory(); } catch { return factory; }
  if (!bridgeMethods(sample)) {
    const proto = typeof sample === 'object' && sample !== null ? Object.getPrototypeOf(sample) as object | null : null;
    // A class instance's methods are on its prototype; a plain object's prototype names nothing of the bridge's.
    const has = typeof sample === 'object' && sample !== null ? Object.keys(sample as object).concat(proto && proto !== Object.prototype ? Object.getOwnPropertyNames(proto).filter((k) => k !== 'constructor') : []) : [];
    throw new Error(`audit bridge module ${path}: createAuditBridge() returned ${typeof sample === 'object' && sample !== null ? `an object with ${has.join(', ') || 'no methods'}` : typeof sample}; export ${kitShape}`);
  }
  return factory;
}
