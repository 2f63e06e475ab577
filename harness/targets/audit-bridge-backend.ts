/**
 * The audit bridge under test behind one asynchronous interface, whichever contract it speaks:
 * the module contract (a factory in the harness's process, docs/harness-normalizer.md "Audit
 * bridge") or the command contract (a child process in NDJSON, docs/audit-bridge-contract.md).
 * The checks and workloads see only BridgeHandle, so the same AUD-* requirements are judged the
 * same way through either. A failure of the bridge rejects with a BridgeFailure whose kind becomes
 * the finding's code; nothing the bridge does throws anything else.
 */
import { auditEventTypes } from '../../reference-impl/audit-bridge.ts';
import type { MemoryBound } from '../checks/audit-bridge/memory.ts';
import { loadAuditBridgeModule, type AuditBridgeFactory } from './audit-bridge-module.ts';
import { BridgeFailure, startBridgeProcess, type BridgeAnswer } from './audit-bridge-process.ts';

export type EntryCount = { invocations: number; events: number };

/** One bridge instance. Every method may be pipelined (called again before the last one settled). */
export type BridgeHandle = {
  record: (event: Record<string, unknown>) => Promise<void>;
  getAuditTrail: (invocationId: string) => Promise<unknown[]>;
  clearInvocation: (invocationId: string) => Promise<void>;
  observeEvent: (adkEvent: unknown) => Promise<void>;
  entryCount: () => Promise<EntryCount>;
  close: () => Promise<void>;
};

export type BridgeBackend = {
  /** e.g. "the bridge command `python3 bridge.py`", for finding messages. */
  label: string;
  /** Load what must be loaded once (a module); a configuration error throws here. */
  load: () => Promise<void>;
  /** A fresh bridge; `bound` for the memory workload, none for the defaults (1000 and 1000). */
  open: (bound: MemoryBound | undefined, limits: { answerMs: number; signal: AbortSignal }) => Promise<BridgeHandle>;
};

function refusal(what: string, error: unknown): BridgeFailure {
  return error instanceof BridgeFailure ? error : new BridgeFailure('refused', `${what} threw: ${error instanceof Error ? error.message : String(error)}`);
}

function countOf(value: unknown, source: string): EntryCount {
  const s = value as Record<string, unknown> | null;
  const ok = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (typeof s !== 'object' || s === null || !ok(s.invocations) || !ok(s.events)) {
    throw new BridgeFailure('answer-malformed', `${source} must give non-negative integers invocations and events, got ${JSON.stringify(value)?.slice(0, 200)}`);
  }
  return { invocations: s.invocations as number, events: s.events as number };
}

function trailOf(value: unknown, source: string): unknown[] {
  if (!Array.isArray(value)) throw new BridgeFailure('answer-malformed', `${source} must be an array of audit events, got ${JSON.stringify(value)?.slice(0, 200)}`);
  return value;
}

/** The module contract; a method may return a promise, which must settle within the answer bound. */
export function moduleBackend(path: string): BridgeBackend {
  let factory: AuditBridgeFactory | undefined;
  return {
    label: `the bridge module ${path} in process`,
    async load() { factory = await loadAuditBridgeModule(path); },
    async open(bound, limits) {
      if (!factory) throw new Error('the audit bridge module was not loaded: the engine calls start() before any scenario');
      let bridge: ReturnType<AuditBridgeFactory>;
      try { bridge = bound ? factory({ ...bound }) : factory(); } catch (error) { throw refusal('createAuditBridge()', error); }
      const call = async <T>(what: string, fn: () => T): Promise<Awaited<T>> => {
        let value: T;
        try { value = fn(); } catch (error) { throw refusal(what, error); }
        if (typeof (value as { then?: unknown } | null)?.then !== 'function') return value as Awaited<T>;
        let timer: NodeJS.Timeout | undefined;
        const hung = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new BridgeFailure('hung', `${what} did not settle within ${limits.answerMs} ms`)), limits.answerMs); });
        try { return await Promise.race([Promise.resolve(value), hung]); } catch (error) { throw refusal(what, error); } finally { clearTimeout(timer); }
      };
      return {
        record: async (event) => { await call('record()', () => bridge.record(structuredClone(event) as Record<string, unknown> & { event_type: string })); },
        // A copy: a bridge handing out its own array must not be able to change what was observed.
        getAuditTrail: async (id) => structuredClone(trailOf(await call('getAuditTrail()', () => bridge.getAuditTrail(id)), 'getAuditTrail()')),
        clearInvocation: async (id) => { await call('clearInvocation()', () => bridge.clearInvocation(id)); },
        observeEvent: async (event) => { await call('observeEvent()', () => bridge.observeEvent(structuredClone(event))); },
        entryCount: async () => countOf(await call('stats()', () => bridge.stats()), 'stats()'),
        close: async () => {},
      };
    },
  };
}

/** The 7 types have an op each (seed 000 §2.2A's record_tool_invocation...); any other type goes through `record`. */
export function recordOp(eventType: unknown): string {
  return typeof eventType === 'string' && (auditEventTypes as readonly string[]).includes(eventType) ? `record_${eventType}` : 'record';
}

/** The command contract: one child process per bridge instance. */
export function commandBackend(command: string): BridgeBackend {
  return {
    label: `the bridge command \`${command}\``,
    async load() {},
    async open(bound, limits) {
      const proc = startBridgeProcess({
        command,
        env: bound ? { ADK_CONFORMANCE_AUDIT_MAX_INVOCATIONS: String(bound.maxInvocations), ADK_CONFORMANCE_AUDIT_MAX_EVENTS_PER_INVOCATION: String(bound.maxEventsPerInvocation) } : {},
        firstAnswerMs: limits.answerMs * 2,
        answerMs: limits.answerMs,
        signal: limits.signal,
      });
      const field = (a: BridgeAnswer, key: string, op: string) => {
        if (!(key in a)) throw new BridgeFailure('answer-malformed', `the answer to ${op} has no "${key}": ${JSON.stringify(a).slice(0, 200)}`);
        return a[key];
      };
      return {
        record: async (event) => { await proc.request(recordOp(event.event_type), { event }); },
        getAuditTrail: async (id) => trailOf(field(await proc.request('get_audit_trail', { invocation_id: id }), 'trail', 'get_audit_trail'), 'the answer\'s "trail" to get_audit_trail'),
        clearInvocation: async (id) => { await proc.request('clear_invocation', { invocation_id: id }); },
        observeEvent: async (event) => { await proc.request('observe_event', { event }); },
        entryCount: async () => countOf(await proc.request('entry_count'), 'the answer to entry_count'),
        close: () => proc.close(),
      };
    },
  };
}
