/**
 * The two shapes an audit bridge under test may expose (docs/audit-bridge-contract.md "Two
 * shapes"), and what each can be asked:
 *
 * - `kit`: the kit's contract, a recorder for every audit event type (the 7 of seed 000 §3.1 and
 *   `record` for any other), `observe_event` (the bridge's own clearing rule) and `entry_count`
 *   (what it holds, for the bounds it is given);
 * - `seed`: exactly seed 000 §2.2A's `AuditEventBridge`: `record_tool_invocation`,
 *   `record_tool_response`, `get_audit_trail`, `clear_invocation`; optionally `observe_event`, the
 *   step seed 000 §8 puts in the endpoint after each event (`if event.partial == False: ...`).
 *
 * The harness judges each shape on what the seed promises: it records only what the bridge has a
 * recorder for, and judges memory through `entry_count` when there is one, else through
 * `get_audit_trail`.
 */
import { auditEventTypes } from '../../../reference-impl/audit-bridge.ts';
import { invocationOf, type AuditRecordLike } from '../../checks/audit-bridge/expected-trail.ts';

export type BridgeShape = 'kit' | 'seed';

/** Seed 000 §2.2A has a recorder for these two types only. */
export const seedRecordedTypes = ['tool_invocation', 'tool_response'] as const;

export function canRecord(shape: BridgeShape, eventType: unknown): boolean {
  return shape === 'kit' || (seedRecordedTypes as readonly unknown[]).includes(eventType);
}

/**
 * The event as the harness records it. Seed 000 §2.2A's dataclasses key an event by
 * `invocation_id`; the §3.2 envelope names it `correlation_id`, so a seed-shaped bridge is given
 * both (the same id), as an endpoint filling the dataclass from the envelope would.
 */
export function recordedForm(shape: BridgeShape, event: AuditRecordLike): AuditRecordLike {
  if (shape === 'kit' || typeof event.invocation_id === 'string') return event;
  const id = invocationOf(event);
  return id === undefined ? event : { ...event, invocation_id: id };
}

/** The kit's command op for an event type: the 7 types have an op each (seed 000 §2.2A's record_tool_invocation...); any other type goes through `record`. */
export function recordOp(eventType: unknown): string {
  return typeof eventType === 'string' && (auditEventTypes as readonly string[]).includes(eventType) ? `record_${eventType}` : 'record';
}

/** A harmless event for asking a seed-shaped command bridge whether it has `observe_event`: `partial: true` ends nothing under any rule. */
export const observeProbeEvent = { invocationId: 'adk-conformance-shape-probe', author: 'adk-conformance', partial: true };

export function describeShape(shape: BridgeShape, observes: boolean): string {
  if (shape === 'kit') return 'the kit\'s shape (a recorder per audit event type, observe_event, entry_count)';
  return `seed 000 §2.2A's shape (record_tool_invocation, record_tool_response, get_audit_trail, clear_invocation${observes ? ', and observe_event: its own clearing step' : '; the endpoint clears when the stream ends'})`;
}
