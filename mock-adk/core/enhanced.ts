/**
 * `/run_sse_enhanced` (seed 000 §2.2B): every event carries `_audit_metadata`, the audit bridge's
 * trail for its invocation at that moment, and the stream ends with `data: [DONE]`.
 *
 * The renderer records each step's scripted `audit` events into one bridge created per render,
 * before the step's frames (the callbacks fire before ADK emits the events, seed 000 §9 steps
 * 1-4), and shows the bridge every event after it passed: the bridge owns the rule that clears
 * an invocation on its final event (seed 000 §8 Decision 2), so the mock and the reference
 * pipeline share it.
 */
import { createAuditBridge } from '../../reference-impl/audit-bridge.ts';
import type { AuditEventInput } from './dialects/spec.ts';

/** Seed 000 §2.2B: `yield "data: [DONE]\n\n"` after the runner's last event. */
export const DONE_DATA = '[DONE]';

export type AuditInjector = {
  /** Record one step's audit events; an event naming no invocation is given the run's. */
  record: (events: AuditEventInput[]) => void;
  /** The event with `_audit_metadata` appended as its last key. */
  inject: (event: Record<string, unknown>) => Record<string, unknown>;
  /** The event has been written: let the bridge see it (it may clear the invocation). */
  observe: (event: unknown) => void;
};

export function createAuditInjector(invocationId: string): AuditInjector {
  const bridge = createAuditBridge();
  return {
    record(events) {
      for (const e of events) {
        // Audit events find their invocation by correlation_id (seed 000 §3.2) or invocation_id (§2.2A).
        const named = 'correlation_id' in e || 'invocation_id' in e;
        bridge.record(named ? e : { ...e, correlation_id: invocationId });
      }
    },
    inject(event) {
      const id = typeof event.invocationId === 'string' ? event.invocationId : invocationId;
      // A snapshot: the bridge keeps growing, the written event does not.
      const trail: unknown = JSON.parse(JSON.stringify(bridge.getAuditTrail(id)));
      return { ...event, _audit_metadata: trail };
    },
    observe(event) {
      bridge.observeEvent(event);
    },
  };
}
