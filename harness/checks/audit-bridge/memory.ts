/**
 * AUD-MEM-001: "Memory usage bounded (no audit event leaks)" (seed 000 §7). Judged on entries,
 * never on time or heap size: while invocations run, the bridge never holds more invocations than
 * `maxInvocations`, nor more than `maxEventsPerInvocation` events for one; once they have all
 * ended (final event, error event, or clearInvocation after a cut stream), it holds none.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { outcomeOf } from '../normalizer/outcome.ts';

export type MemoryBound = { maxInvocations: number; maxEventsPerInvocation: number };

/** The highest counts seen in one phase of the workload, with the operation where each was first seen. */
export type MemoryPhase = {
  name: string;
  invocations: number;
  maxInvocationsHeld: { value: number; at: number };
  maxEventsHeld: { value: number; at: number };
  maxTrailLength: { value: number; at: number };
  /** The most entries held right after an invocation ended while no other was open (sequential phase). */
  maxHeldWhenIdle?: { invocations: number; events: number; at: number };
  afterAllEnded: { invocations: number; events: number };
  /** The first invocation a non-final event cleared (its trail held fewer events after it than before). */
  clearedEarly?: { invocation: string; event: string; trail: number; recorded: number; at: number };
  /** The first sample where the entry count was below what one trail showed held (the count is not the bridge's). */
  countBelowTrail?: { count: { invocations: number; events: number }; trail: number; invocation: string; at: number };
};

export type MemoryObservation = {
  bound: MemoryBound;
  phases: MemoryPhase[];
  /** The bridge threw or its stats() had no numeric invocations/events. */
  failure?: string;
  /** How a bridge process failed (docs/audit-bridge-contract.md): the finding's code is `bridge-<kind>` or that kind. */
  failureKind?: string;
};

const requirement = 'AUD-MEM-001';

export function checkBridgeMemory(scenario: string, obs: MemoryObservation): CheckOutcome {
  const findings: Finding[] = [];
  const add = (code: string, path: string, message: string, expected: unknown, actual: unknown) => findings.push({ requirement, code, path, message, expected, actual });
  if (obs.failure) {
    const code = obs.failureKind === undefined ? 'bridge-failed' : obs.failureKind.startsWith('answer-') ? obs.failureKind : `bridge-${obs.failureKind}`;
    add(code, 'workload', `the audit bridge failed under the workload: ${obs.failure}`, 'every operation answered (record, get trail, observe, clear, entry count)', obs.failure);
  }
  const { maxInvocations, maxEventsPerInvocation } = obs.bound;
  for (const p of obs.phases) {
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
    const early = p.clearedEarly;
    if (early) {
      add('cleared-before-final', `${p.name}/op[${early.at}]`, `${p.name}: ${early.event} (not a final event: docs/audit-bridge-contract.md "Cleared on the final event") cleared ${early.invocation}: its trail held ${early.recorded} events before it and ${early.trail} after`, `${early.recorded} events held until the final event`, early.trail);
    }
    const idle = p.maxHeldWhenIdle;
    if (idle && (idle.invocations > 0 || idle.events > 0)) {
      add('entries-left-after-end', `${p.name}/op[${idle.at}]`, `${p.name}: with every invocation so far ended, the bridge still held ${idle.invocations} invocations and ${idle.events} events`, { invocations: 0, events: 0 }, idle);
    }
    if (p.afterAllEnded.invocations > 0 || p.afterAllEnded.events > 0) {
      add('entries-leaked', `${p.name}/end`, `${p.name}: after all ${p.invocations} invocations ended, stats() shows ${p.afterAllEnded.invocations} invocations and ${p.afterAllEnded.events} events held`, { invocations: 0, events: 0 }, p.afterAllEnded);
    }
  }
  return outcomeOf(requirement, scenario, findings);
}
