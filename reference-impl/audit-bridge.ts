/**
 * AuditEventBridge (seed 000 §2.2A): buffers audit events by invocation id so `/run_sse_enhanced`
 * can inject the trail recorded so far into each ADK event as `_audit_metadata` (seed 000 §2.2B),
 * and frees an invocation's buffer when its final event passes (seed 000 §8 decision 2).
 *
 * "Session-scoped" (seed 000 §2.2A): create one bridge per scope that shares invocations (the mock
 * makes one per server; invocation ids are unique per run, so one bridge serves many sessions).
 *
 * Memory is bounded twice, because the final event is not guaranteed to arrive (a cut stream, a
 * client that leaves): at most `maxInvocations` invocations, evicting the one whose latest record
 * is oldest; and at most `maxEventsPerInvocation` events each, dropping that invocation's oldest
 * event. Every dropped event is counted, so `recorded === events + evictions + cleared` always.
 *
 * `record` is on the hot path of every tool callback: it checks only what it needs to file the
 * event (an object, an event_type, an invocation id). Full validation is schemas/audit-event.
 */

/** The 7 core types of seed 000 §3.1. The bridge records any event_type; these are the known ones. */
export const auditEventTypes = ['tool_invocation', 'tool_response', 'tool_error', 'mcp_fetch', 'data_load', 'reasoning_step', 'confidence_calc'] as const;
export type AuditEventType = (typeof auditEventTypes)[number];

/** An audit event as recorded: the seed 000 §3.2 envelope, or the §2.2A / §9 flat form. */
export type AuditRecord = { event_type: string; [key: string]: unknown };

export type AuditBridgeOptions = {
  /** Invocations held at once (default 1000); past it, the least recently recorded-to is evicted. */
  maxInvocations?: number;
  /** Events held per invocation (default 1000); past it, that invocation's oldest event is dropped. */
  maxEventsPerInvocation?: number;
};

export type AuditBridgeStats = {
  /** Invocations currently held. */
  invocations: number;
  /** Audit events currently held, over all invocations. */
  events: number;
  /** Audit events ever recorded. */
  recorded: number;
  /** Audit events dropped by either bound. */
  evictions: number;
  /** Audit events removed by clearInvocation or a final event. */
  cleared: number;
  /** Whole invocations dropped by the invocation bound. */
  evictedInvocations: number;
  /** Invocations removed by clearInvocation or a final event. */
  clearedInvocations: number;
};

export type AuditBridge = {
  /** File an audit event under its invocation; returns that invocation id. Throws a TypeError on a non-object, a missing event_type or a missing id. */
  record: (event: AuditRecord) => string;
  /** The invocation's audit events in record order, as a new array ([] when none). */
  getAuditTrail: (invocationId: string) => AuditRecord[];
  /** Forget the invocation; true when it held events. */
  clearInvocation: (invocationId: string) => boolean;
  /** Feed each ADK event after injecting its trail: clears the invocation when `isFinalEvent(event)`; returns whether it did. Never throws. */
  observeEvent: (adkEvent: unknown) => boolean;
  stats: () => AuditBridgeStats;
};

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`createAuditBridge: ${name} must be a positive integer, got ${String(value)}; omit it for the default of 1000`);
  }
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value;
}

/**
 * The invocation an audit event belongs to: `invocation_id` when present (seed 000 §2.2A dataclasses
 * and the §9 flow form), otherwise `correlation_id` (the §3.2 envelope: "correlation_id": "inv_abc123").
 */
export function invocationIdOf(event: AuditRecord): string | undefined {
  if (typeof event.invocation_id === 'string' && event.invocation_id !== '') return event.invocation_id;
  if (typeof event.correlation_id === 'string' && event.correlation_id !== '') return event.correlation_id;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether an ADK event is its invocation's final one, the moment seed 000 §8 decision 2 clears the
 * buffer (`if event.partial == False: clear_invocation(invocation_id)`). The seed's test alone
 * would clear on every non-partial event (function calls, tool results, adk-js metadata-only
 * events) and never in non-streaming mode (no `partial` at all), so the rule narrows it to a final
 * response, after adk-python's `is_final_response()` (adk-python-facts.md §2.2) and seed 001 Q2:
 *
 * 1. the event has a non-empty string `invocationId`, and `partial !== true`; and
 * 2. either `actions.skipSummarization === true` or `longRunningToolIds` is non-empty
 *    (is_final_response's first branch); or
 * 3. no part is a functionCall or functionResponse, and either it has a non-thought text part and
 *    a `finishReason` (seed 001 Q2: "finishReason: STOP in final model response"; this excludes
 *    adk-js metadata-only events and the split-off text-before-calls event, which has none), or it
 *    carries an `errorCode` (a model error ends the turn, adk-wire-format.md §6).
 *
 * EOF stays the only certain end (adk-wire-format.md §5 Completion): a caller that sees the stream
 * end without a final event calls clearInvocation itself.
 */
export function isFinalEvent(adkEvent: unknown): boolean {
  if (!isObject(adkEvent)) return false;
  if (typeof adkEvent.invocationId !== 'string' || adkEvent.invocationId === '' || adkEvent.partial === true) return false;
  const actions = isObject(adkEvent.actions) ? adkEvent.actions : {};
  if (actions.skipSummarization === true) return true;
  if (Array.isArray(adkEvent.longRunningToolIds) && adkEvent.longRunningToolIds.length > 0) return true;
  const content = isObject(adkEvent.content) ? adkEvent.content : {};
  const parts = Array.isArray(content.parts) ? content.parts.filter(isObject) : [];
  if (parts.some((p) => p.functionCall !== undefined || p.functionResponse !== undefined)) return false;
  const hasText = parts.some((p) => typeof p.text === 'string' && p.thought !== true);
  if (hasText && typeof adkEvent.finishReason === 'string') return true;
  return typeof adkEvent.errorCode === 'string';
}

export function createAuditBridge(options: AuditBridgeOptions = {}): AuditBridge {
  if (!isObject(options)) throw new TypeError(`createAuditBridge: options must be an object such as {maxInvocations: 1000}, got ${describe(options)}`);
  const maxInvocations = positiveInteger('maxInvocations', options.maxInvocations ?? 1000);
  const maxEventsPerInvocation = positiveInteger('maxEventsPerInvocation', options.maxEventsPerInvocation ?? 1000);

  // Map iteration order is insertion order; re-inserting on every record keeps the least
  // recently recorded-to invocation first, so eviction takes the first key.
  const trails = new Map<string, AuditRecord[]>();
  let events = 0;
  let recorded = 0;
  let evictions = 0;
  let cleared = 0;
  let evictedInvocations = 0;
  let clearedInvocations = 0;

  function record(event: AuditRecord): string {
    if (!isObject(event)) throw new TypeError(`audit bridge record(): expected an audit event object (seed 000 §3.2), got ${describe(event)}`);
    if (typeof event.event_type !== 'string' || event.event_type === '') {
      throw new TypeError(`audit bridge record(): the event has no event_type; set it to one of ${auditEventTypes.join(', ')} (seed 000 §3.1)`);
    }
    const invocationId = invocationIdOf(event);
    if (invocationId === undefined) {
      throw new TypeError(`audit bridge record(): the ${event.event_type} event names no invocation; set correlation_id (seed 000 §3.2) or invocation_id (§2.2A) to the ADK invocationId`);
    }
    let trail = trails.get(invocationId);
    if (trail) {
      trails.delete(invocationId);
    } else {
      trail = [];
      if (trails.size >= maxInvocations) evictOldestInvocation();
    }
    trails.set(invocationId, trail);
    trail.push({ ...event });
    events += 1;
    recorded += 1;
    if (trail.length > maxEventsPerInvocation) {
      trail.shift();
      events -= 1;
      evictions += 1;
    }
    return invocationId;
  }

  function evictOldestInvocation(): void {
    const oldest = trails.keys().next();
    if (oldest.done) return;
    const dropped = trails.get(oldest.value)?.length ?? 0;
    trails.delete(oldest.value);
    events -= dropped;
    evictions += dropped;
    evictedInvocations += 1;
  }

  function clearInvocation(invocationId: string): boolean {
    const trail = trails.get(invocationId);
    if (!trail) return false;
    trails.delete(invocationId);
    events -= trail.length;
    cleared += trail.length;
    clearedInvocations += 1;
    return true;
  }

  function observeEvent(adkEvent: unknown): boolean {
    if (!isFinalEvent(adkEvent)) return false;
    clearInvocation((adkEvent as { invocationId: string }).invocationId);
    return true;
  }

  return {
    record,
    getAuditTrail: (invocationId) => trails.get(invocationId)?.slice() ?? [],
    clearInvocation,
    observeEvent,
    stats: () => ({ invocations: trails.size, events, recorded, evictions, cleared, evictedInvocations, clearedInvocations }),
  };
}
