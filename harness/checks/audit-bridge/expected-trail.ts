/**
 * The harness's own model of what `_audit_metadata` each event of an enhanced stream carries
 * (seed 000 §2.2B: "Inject audit metadata into event ... `_audit_metadata` = the trail of the
 * event's invocation so far"), written apart from the reference bridge:
 *
 * - a step's audit events are recorded before the step's frames (the callbacks fire before ADK
 *   emits the events, seed 000 §9 steps 1-4), filed under `invocation_id`, else `correlation_id`,
 *   else the run's invocation (what the enhanced endpoint gives an event naming none);
 * - an event carries every audit event recorded for its invocation so far, in record order;
 * - the invocation's trail is cleared after its final event (seed 000 §8 decision 2, narrowed to
 *   a final response as docs/design.md "Audit bridge" says), so later events start afresh.
 */

export type AuditRecordLike = Record<string, unknown>;

export type ExpectedTrail = { invocationId: string; trail: AuditRecordLike[] };

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

export function invocationOf(event: AuditRecordLike): string | undefined {
  if (nonEmpty(event.invocation_id)) return event.invocation_id;
  if (nonEmpty(event.correlation_id)) return event.correlation_id;
  return undefined;
}

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
 * One entry per frame: the trail the frame must carry, or undefined for a frame that is not an
 * event with an invocationId (an error frame, `[DONE]`).
 *
 * @param stepAudits the audit events of each step, in step order
 * @param stepStarts for each step, the index of the first frame written after its audits were recorded
 */
export function expectedTrails(stepAudits: AuditRecordLike[][], stepStarts: number[], frames: unknown[], runInvocationId: string): Array<ExpectedTrail | undefined> {
  const trails = new Map<string, AuditRecordLike[]>();
  let next = 0;
  const recordUpTo = (frame: number) => {
    while (next < stepAudits.length && (stepStarts[next] ?? Infinity) <= frame) {
      for (const event of stepAudits[next]!) {
        const recorded = asRecorded(event, runInvocationId);
        const id = invocationOf(recorded);
        if (id === undefined) continue;
        trails.set(id, [...(trails.get(id) ?? []), recorded]);
      }
      next++;
    }
  };
  return frames.map((frame, k) => {
    recordUpTo(k);
    const e = obj(frame);
    if (!e || !nonEmpty(e.invocationId)) return undefined;
    const expected = { invocationId: e.invocationId, trail: structuredClone(trails.get(e.invocationId) ?? []) };
    if (endsInvocation(e)) trails.delete(e.invocationId);
    return expected;
  });
}
