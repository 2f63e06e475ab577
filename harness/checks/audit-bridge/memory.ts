/**
 * AUD-MEM-002: "Memory usage bounded (no audit event leaks)" (seed 000 §7), with seed 000 §8's
 * "Per-invocation lifecycle with explicit cleanup": once the endpoint cleared an invocation (its
 * stream ended, however), the bridge holds none of its audit events; and it never holds more than
 * its bounds. Judged on entries, never on time or heap size:
 *
 * - a bridge of the kit's shape is given two bounds and counts what it holds (`entry_count`):
 *   never more than `maxInvocations` invocations, nor more than `maxEventsPerInvocation` events
 *   for one, nothing once all ended, and a count consistent with the trails it answers;
 * - a bridge of seed 000 §2.2A's shape takes no bound and has no count: its bound is what its open
 *   invocations recorded, judged through `get_audit_trail` (no trail longer than what was recorded
 *   for it, and an empty trail for every invocation once cleared).
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { outcomeOf } from '../normalizer/outcome.ts';

export type MemoryBound = { maxInvocations: number; maxEventsPerInvocation: number };

/** The highest counts seen in one phase of the workload, with the operation where each was first seen. */
export type MemoryPhase = {
  name: string;
  invocations: number;
  /** Kit shape only (from entry_count). */
  maxInvocationsHeld: { value: number; at: number };
  maxEventsHeld: { value: number; at: number };
  maxTrailLength: { value: number; at: number };
  /** The most entries held right after an invocation ended while no other was open (sequential phase, kit shape). */
  maxHeldWhenIdle?: { invocations: number; events: number; at: number };
  /** Kit shape: what entry_count said once every invocation had ended. */
  afterAllEnded: { invocations: number; events: number };
  /** The first invocation whose trail was not empty after the endpoint cleared it. */
  heldAfterClear?: { invocation: string; trail: number; at: number };
  /** How many cleared invocations were asked for their trail at the end of the phase, and how many still held events. */
  trailsAfterEnd?: { asked: number; holding: number; first?: string; events: number };
  /** The first trail longer than what had been recorded for its invocation (seed shape's bound). */
  trailAboveRecorded?: { invocation: string; trail: number; recorded: number; at: number };
  /** The first sample where the entry count was below what one trail showed held (the count is not the bridge's). */
  countBelowTrail?: { count: { invocations: number; events: number }; trail: number; invocation: string; at: number };
};

export type MemoryObservation = {
  shape: 'kit' | 'seed';
  /** The bounds the bridge was given; judged for the kit's shape only. */
  bound: MemoryBound;
  phases: MemoryPhase[];
  /** The bridge threw or its stats() had no numeric invocations/events. */
  failure?: string;
  /** How a bridge process failed (docs/audit-bridge-contract.md): the finding's code is `bridge-<kind>` or that kind. */
  failureKind?: string;
};

const requirement = 'AUD-MEM-002';

export function checkBridgeMemory(scenario: string, obs: MemoryObservation): CheckOutcome {
  const findings: Finding[] = [];
  const add = (code: string, path: string, message: string, expected: unknown, actual: unknown) => findings.push({ requirement, code, path, message, expected, actual });
  if (obs.failure) {
    const code = obs.failureKind === undefined ? 'bridge-failed' : obs.failureKind.startsWith('answer-') ? obs.failureKind : `bridge-${obs.failureKind}`;
    add(code, 'workload', `the audit bridge failed under the workload: ${obs.failure}`, 'every operation answered (record, get trail, observe, clear, entry count)', obs.failure);
  }
  const { maxInvocations, maxEventsPerInvocation } = obs.bound;
  for (const p of obs.phases) {
    if (obs.shape === 'kit') {
      if (p.maxInvocationsHeld.value > maxInvocations) {
        add('invocation-bound-exceeded', `${p.name}/op[${p.maxInvocationsHeld.at}]`, `${p.name}: the bridge held ${p.maxInvocationsHeld.value} invocations at once; its bound is maxInvocations = ${maxInvocations}`, `<= ${maxInvocations}`, p.maxInvocationsHeld.value);
      }
      if (p.maxEventsHeld.value > maxInvocations * maxEventsPerInvocation) {
        add('event-bound-exceeded', `${p.name}/op[${p.maxEventsHeld.at}]`, `${p.name}: the bridge held ${p.maxEventsHeld.value} audit events; at most ${maxInvocations} invocations x ${maxEventsPerInvocation} events fit its bounds`, `<= ${maxInvocations * maxEventsPerInvocation}`, p.maxEventsHeld.value);
      }
      if (p.maxTrailLength.value > maxEventsPerInvocation) {
        add('trail-bound-exceeded', `${p.name}/op[${p.maxTrailLength.at}]`, `${p.name}: one invocation's trail held ${p.maxTrailLength.value} events; its bound is maxEventsPerInvocation = ${maxEventsPerInvocation}`, `<= ${maxEventsPerInvocation}`, p.maxTrailLength.value);
      }
      const low = p.countBelowTrail;
      if (low) {
        add('entry-count-inconsistent', `${p.name}/op[${low.at}]`, `${p.name}: the entry count said ${low.count.invocations} invocations and ${low.count.events} events held while the trail of ${low.invocation} held ${low.trail}; the count must be the bridge's own, or the bounds below cannot be judged`, `>= 1 invocation and >= ${low.trail} events`, low.count);
      }
      const idle = p.maxHeldWhenIdle;
      if (idle && (idle.invocations > 0 || idle.events > 0)) {
        add('entries-left-after-end', `${p.name}/op[${idle.at}]`, `${p.name}: with every invocation so far ended, the bridge still held ${idle.invocations} invocations and ${idle.events} events`, { invocations: 0, events: 0 }, idle);
      }
      if (p.afterAllEnded.invocations > 0 || p.afterAllEnded.events > 0) {
        add('entries-leaked', `${p.name}/end`, `${p.name}: after all ${p.invocations} invocations ended, the entry count shows ${p.afterAllEnded.invocations} invocations and ${p.afterAllEnded.events} events held`, { invocations: 0, events: 0 }, p.afterAllEnded);
      }
    }
    const above = p.trailAboveRecorded;
    if (above) {
      add('trail-above-recorded', `${p.name}/op[${above.at}]`, `${p.name}: the trail of ${above.invocation} held ${above.trail} events, more than the ${above.recorded} recorded for it`, `<= ${above.recorded}`, above.trail);
    }
    const held = p.heldAfterClear;
    if (held) {
      add('trail-held-after-clear', `${p.name}/op[${held.at}]`, `${p.name}: after the endpoint cleared ${held.invocation} (clear_invocation, its stream ended), its trail still held ${held.trail} events`, 0, held.trail);
    }
    const end = p.trailsAfterEnd;
    if (end && end.holding > 0) {
      add('trails-leaked', `${p.name}/end`, `${p.name}: after all ${p.invocations} invocations ended (each cleared by the endpoint), ${end.holding} of the ${end.asked} asked still held ${end.events} audit events (the first: ${end.first})`, 0, end.holding);
    }
  }
  return outcomeOf(requirement, scenario, findings);
}
