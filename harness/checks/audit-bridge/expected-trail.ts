/**
 * The harness's own model of what `_audit_metadata` each event of an enhanced stream may carry
 * (seed 000 §2.2B: the enhanced endpoint injects `get_audit_trail(invocation_id)` into every event
 * with an invocationId), written apart from the reference bridge:
 *
 * - a step's audit events are recorded before the step's frames (the callbacks fire before ADK
 *   emits the events, seed 000 §9 steps 1-4), filed under `invocation_id`, else `correlation_id`,
 *   else the run's invocation (what the enhanced endpoint gives an event naming none);
 * - an event carries the audit events recorded for its invocation since the invocation was last
 *   cleared, in record order;
 * - a clear may follow only an event that ends the invocation: one ADK names final (adk-python
 *   `is_final_response()`, `endsInvocation` below), or one seed 000 §8 decision 2 names final
 *   (`if event.partial == False:  # Final event`). Both are allowed (AUD-TRAIL-003); the kit
 *   believes only the first is right (AUD-CLEAR-001, checks/audit-bridge/clearing.ts).
 *
 * The same model keyed by `correlation_id` first (`byCorrelation`) is what a bridge filing an
 * event under its session or thread id would show: AUD-KEY-001 (key.ts) names that defect.
 */

export type AuditRecordLike = Record<string, unknown>;

/** A clear the seed or ADK allows after one event: where the fresh trail would start. */
export type ClearPoint = {
  /** The frame after which the invocation may be cleared. */
  frame: number;
  /** How many of the invocation's audit events were recorded by then (the fresh trail starts there). */
  at: number;
  /** ADK's final event (is_final_response); otherwise only seed 000 §8's `partial == False` names it final. */
  final: boolean;
};

/** What one event of an invocation may carry. */
export type ExpectedTrail = {
  invocationId: string;
  /** Every audit event recorded for the invocation before this frame, in record order. */
  recorded: AuditRecordLike[];
  /** Clears allowed before this frame, in frame order. */
  clears: ClearPoint[];
};

function obj(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** The audit event as the enhanced endpoint records it: one naming no invocation gets the run's. */
export function asRecorded(event: AuditRecordLike, runInvocationId: string): AuditRecordLike {
  return 'correlation_id' in event || 'invocation_id' in event ? event : { ...event, correlation_id: runInvocationId };
}

/** The invocation an audit event is filed under: `invocation_id` (§2.2A "Key: invocationId"), else `correlation_id` (the §3.2 envelope). */
export function invocationOf(event: AuditRecordLike): string | undefined {
  if (nonEmpty(event.invocation_id)) return event.invocation_id;
  if (nonEmpty(event.correlation_id)) return event.correlation_id;
  return undefined;
}

/** Where a bridge keying by `correlation_id` first would file the event (the defect AUD-KEY-001 names). */
export function byCorrelation(event: AuditRecordLike): string | undefined {
  if (nonEmpty(event.correlation_id)) return event.correlation_id;
  if (nonEmpty(event.invocation_id)) return event.invocation_id;
  return undefined;
}

export type KeyOf = (event: AuditRecordLike) => string | undefined;

/** An invocation's final event (adk-python is_final_response, seed 001 Q2 "finishReason: STOP in final model response"). */
export function endsInvocation(event: unknown): boolean {
  const e = obj(event);
  if (!e || !nonEmpty(e.invocationId) || e.partial === true) return false;
  if (obj(e.actions)?.skipSummarization === true) return true;
  if (Array.isArray(e.longRunningToolIds) && e.longRunningToolIds.length > 0) return true;
  const parts = (Array.isArray(obj(e.content)?.parts) ? (obj(e.content)!.parts as unknown[]) : []).map(obj).filter((p) => p !== undefined);
  if (parts.some((p) => p.functionCall !== undefined || p.functionResponse !== undefined)) return false;
  if (parts.some((p) => typeof p.text === 'string' && p.thought !== true) && typeof e.finishReason === 'string') return true;
  return typeof e.errorCode === 'string';
}

/**
 * Seed 000 §8 decision 2 as written: `if event.partial == False:  # Final event`. In Python an
 * absent `partial` is None, and `None == False` is false: only an explicit `false` counts.
 */
export function seedCallsFinal(event: unknown): boolean {
  const e = obj(event);
  return e !== undefined && nonEmpty(e.invocationId) && e.partial === false;
}

/**
 * One entry per frame: what the frame may carry, or undefined for a frame that is not an event
 * with an invocationId (an error frame, `[DONE]`).
 *
 * @param stepAudits the audit events of each step as recorded, in step order
 * @param stepStarts for each step, the index of the first frame written after its audits were recorded
 * @param keyOf where the bridge files an audit event (the kit's rule by default)
 */
export function expectedTrails(stepAudits: AuditRecordLike[][], stepStarts: number[], frames: unknown[], runInvocationId: string, keyOf: KeyOf = invocationOf): Array<ExpectedTrail | undefined> {
  const recorded = new Map<string, AuditRecordLike[]>();
  const clears = new Map<string, ClearPoint[]>();
  let next = 0;
  const recordUpTo = (frame: number) => {
    while (next < stepAudits.length && (stepStarts[next] ?? Infinity) <= frame) {
      for (const event of stepAudits[next]!) {
        const id = keyOf(asRecorded(event, runInvocationId));
        if (id === undefined) continue;
        recorded.set(id, [...(recorded.get(id) ?? []), asRecorded(event, runInvocationId)]);
      }
      next++;
    }
  };
  return frames.map((frame, k) => {
    recordUpTo(k);
    const e = obj(frame);
    if (!e || !nonEmpty(e.invocationId)) return undefined;
    const id = e.invocationId;
    const expected: ExpectedTrail = { invocationId: id, recorded: structuredClone(recorded.get(id) ?? []), clears: [...(clears.get(id) ?? [])] };
    const final = endsInvocation(e);
    if (final || seedCallsFinal(e)) clears.set(id, [...(clears.get(id) ?? []), { frame: k, at: expected.recorded.length, final }]);
    return expected;
  });
}

/** The trail the kit expects: everything recorded since the last final event (ADK's rule). */
export function kitTrail(want: ExpectedTrail): AuditRecordLike[] {
  return want.recorded.slice(lastFinal(want));
}

/** Where the kit's trail starts: the recorded count at the last final event before this frame. */
export function lastFinal(want: ExpectedTrail): number {
  return want.clears.filter((c) => c.final).reduce((at, c) => Math.max(at, c.at), 0);
}
