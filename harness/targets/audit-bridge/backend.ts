/**
 * The audit bridge under test behind one asynchronous interface, whichever contract it speaks
 * (the module contract: a factory in the harness's process; the command contract: a child process
 * in NDJSON, docs/audit-bridge-contract.md) and whichever shape it exposes (shape.ts:
 * the kit's, or seed 000 §2.2A's). The checks and workloads see only BridgeHandle, so the same
 * AUD-* requirements are judged the same way through either. A failure of the bridge rejects with
 * a BridgeFailure whose kind becomes the finding's code; nothing the bridge does throws anything else.
 */
import type { MemoryBound } from '../../checks/audit-bridge/memory.ts';
import { bridgeMethods, loadAuditBridgeModule, type AuditBridgeFactory } from './module.ts';
import { BridgeFailure, startBridgeProcess, type BridgeAnswer } from './process.ts';
import { observeProbeEvent, recordOp, type BridgeShape } from './shape.ts';

export type EntryCount = { invocations: number; events: number };

/** One bridge instance. Every method may be pipelined (called again before the last one settled). */
export type BridgeHandle = {
  shape: BridgeShape;
  /** Whether the bridge has a clearing step of its own (observe_event); the kit's shape always has. */
  observes: boolean;
  /** What the bridge said of itself in the handshake (issue 30 §1), e.g. `my-bridge 1.2.0 (python)`; absent: no handshake. */
  implementation?: string;
  /**
   * Only an event of a type the shape has a recorder for (canRecord). `handOver`: the caller keeps no
   * reference to `event`, so a module bridge is given the object itself, not a copy (the memory workload's
   * tens of thousands of events).
   */
  record: (event: Record<string, unknown>, handOver?: boolean) => Promise<void>;
  /** `owners`: the caller reads only each entry's invocation_id and correlation_id, so only those are copied from a module's answer. */
  getAuditTrail: (invocationId: string, owners?: boolean) => Promise<unknown[]>;
  clearInvocation: (invocationId: string) => Promise<void>;
  /** Only when `observes`. `handOver` as for record. */
  observeEvent: (adkEvent: unknown, handOver?: boolean) => Promise<void>;
  /** Only for the kit's shape (seed 000 §2.2A has no count). */
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

/** A trail's owners as they are now: each entry's invocation_id and correlation_id (an entry that is no object stays as it is). */
function ownersOf(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((e: unknown) => {
    if (typeof e !== 'object' || e === null) return e;
    const r = e as Record<string, unknown>;
    return { invocation_id: r['invocation_id'], correlation_id: r['correlation_id'] };
  });
}

const noCount = (): Promise<EntryCount> => Promise.reject(new Error('entryCount: a bridge of seed 000 §2.2A\'s shape has no count; the memory workload judges it through get_audit_trail'));

/** The module contract; a method may return a promise, which must settle within the answer bound. */
export function moduleBackend(path: string): BridgeBackend {
  let factory: AuditBridgeFactory | undefined;
  return {
    label: `the bridge module ${path} in process`,
    async load() { factory = await loadAuditBridgeModule(path); },
    async open(bound, limits) {
      if (!factory) throw new Error('the audit bridge module was not loaded: the engine calls start() before any scenario');
      let instance: unknown;
      try { instance = bound ? factory({ ...bound }) : factory(); } catch (error) { throw refusal('createAuditBridge()', error); }
      const bridge = bridgeMethods(instance);
      if (!bridge) throw new BridgeFailure('refused', 'createAuditBridge() returned a bridge of neither shape (docs/audit-bridge-contract.md "Two shapes")');
      // `snapshot` copies an answer the moment it is had: a bridge handing out its own array would
      // otherwise be read after the harness's next pipelined records landed in it (calibration 9).
      const call = async <T>(what: string, fn: () => T, snapshot: (v: unknown) => unknown = (v) => v): Promise<Awaited<T>> => {
        let value: T;
        try { value = fn(); } catch (error) { throw refusal(what, error); }
        if (typeof (value as { then?: unknown } | null)?.then !== 'function') return snapshot(value) as Awaited<T>;
        let timer: NodeJS.Timeout | undefined;
        const hung = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new BridgeFailure('hung', `${what} did not settle within ${limits.answerMs} ms`)), limits.answerMs); });
        try { return snapshot(await Promise.race([Promise.resolve(value), hung])) as Awaited<T>; } catch (error) { throw refusal(what, error); } finally { clearTimeout(timer); }
      };
      const seed = bridge.shape === 'seed';
      const observe = bridge.observeEvent;
      const stats = bridge.stats;
      return {
        shape: bridge.shape,
        observes: observe !== undefined,
        record: async (event, handOver) => { await call(seed ? `${event.event_type === 'tool_response' ? 'record_tool_response' : 'record_tool_invocation'}()` : 'record()', () => bridge.record(handOver ? event : structuredClone(event))); },
        // A copy: a bridge handing out its own array must not be able to change what was observed.
        getAuditTrail: async (id, owners) => trailOf(await call(seed ? 'get_audit_trail()' : 'getAuditTrail()', () => bridge.getAuditTrail(id), owners ? ownersOf : (v) => structuredClone(v)), seed ? 'get_audit_trail()' : 'getAuditTrail()'),
        clearInvocation: async (id) => { await call(seed ? 'clear_invocation()' : 'clearInvocation()', () => bridge.clearInvocation(id)); },
        observeEvent: async (event, handOver) => { if (observe) await call(seed ? 'observe_event()' : 'observeEvent()', () => observe(handOver ? event : structuredClone(event))); },
        entryCount: stats ? async () => countOf(await call('stats()', () => stats()), 'stats()') : noCount,
        close: async () => {},
      };
    },
  };
}

/** The handshake's `implementation` as one phrase; an answer without one is malformed. */
function describeImplementation(answer: BridgeAnswer): string {
  const i = answer.implementation as Record<string, unknown> | undefined;
  const text = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  if (!i || typeof i !== 'object' || !text(i.name) || !text(i.version) || !text(i.language)) {
    throw new BridgeFailure('answer-malformed', `the answer to start has no "implementation" with non-empty "name", "version" and "language": ${JSON.stringify(answer).slice(0, 200)}`);
  }
  return `${String(i.name)} ${String(i.version)} (${String(i.language)})`;
}

/**
 * The command contract: one child process per bridge instance. Its first request names the shape:
 * `entry_count` answered is the kit's; refused, seed 000 §2.2A's, and then an `observe_event` of a
 * harmless event says whether it has a clearing step of its own.
 */
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
        // The split-line check is the scenarios' (AUD-TRAIL-003): a memory verdict never depends on how one read fell.
        ...(bound ? { splitIds: [] } : {}),
      });
      const refused = (error: unknown) => error instanceof BridgeFailure && error.kind === 'refused';
      let shape: BridgeShape = 'kit';
      let observes = true;
      // The handshake (docs/audit-bridge-contract.md "Handshake"): optional, so a bridge without it
      // refuses an op it does not know and goes on as before. Its answer is the first one, whose
      // bound holds the start-up: every later request has the plain answer bound.
      let implementation: string | undefined;
      try {
        implementation = describeImplementation(await proc.request('start', { protocol: 1, part: 'audit-bridge' }));
      } catch (error) {
        if (!refused(error)) { await proc.close(); throw error; }
      }
      try {
        countOf(await proc.request('entry_count'), 'the answer to entry_count');
      } catch (error) {
        if (!refused(error)) { await proc.close(); throw error; }
        shape = 'seed';
        try { await proc.request('observe_event', { event: observeProbeEvent }); } catch (e) {
          if (!refused(e)) { await proc.close(); throw e; }
          observes = false;
        }
      }
      const field = (a: BridgeAnswer, key: string, op: string) => {
        if (!(key in a)) throw new BridgeFailure('answer-malformed', `the answer to ${op} has no "${key}": ${JSON.stringify(a).slice(0, 200)}`);
        return a[key];
      };
      return {
        shape,
        observes,
        ...(implementation ? { implementation } : {}),
        record: async (event) => { await proc.request(recordOp(event.event_type), { event }); },
        getAuditTrail: async (id) => trailOf(field(await proc.request('get_audit_trail', { invocation_id: id }), 'trail', 'get_audit_trail'), 'the answer\'s "trail" to get_audit_trail'),
        clearInvocation: async (id) => { await proc.request('clear_invocation', { invocation_id: id }); },
        observeEvent: async (event) => { if (observes) await proc.request('observe_event', { event }); },
        entryCount: shape === 'kit' ? async () => countOf(await proc.request('entry_count'), 'the answer to entry_count') : noCount,
        close: () => proc.close(),
      };
    },
  };
}
