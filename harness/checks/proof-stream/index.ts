/**
 * The proof-layer stream checks (PLS-*): each case pushes events at chosen virtual times and reads
 * `getState()` at the edges of the windows the seeds set (seed 000 §4.2 and §4.5, seed 002 §4.2).
 * A module that throws is a finding of the case's requirement, never a harness crash.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { createVirtualClock } from './clock.ts';
import { eventLabel, type Case, type ProofStream, type ProofStreamFactory } from './events.ts';
import { stateCases } from './state-cases.ts';
import { timingCases } from './timing-cases.ts';

export type { ProofStream, ProofStreamFactory } from './events.ts';

const cases: Case[] = [...timingCases, ...stateCases];

export const proofStreamCaseCount = cases.length;

// Said when a case fails and the module never used the clock it was given: the usual cause is a
// window on the global setTimeout, which the virtual clock cannot move.
const realTimerHint = ' (the module scheduled nothing with the injected setTimeout in this case: if it uses the global setTimeout, use the setTimeout and clearTimeout passed to createProofLayerStream; the harness moves a virtual clock)';

export function checkProofStream(factory: ProofStreamFactory): CheckOutcome[] {
  return cases.map((c) => {
    const findings: Finding[] = [];
    const clock = createVirtualClock();
    const start = clock.now();
    let timersScheduled = 0;
    // What the harness last asked of the module, so an exception names the event it was given.
    let doing = 'createProofLayerStream(config)';
    const at = () => `at ${clock.now() - start} ms`;
    const fail = (path: string, message: string, expected: unknown, actual: unknown) => {
      findings.push({ requirement: c.requirement, code: 'proof-stream-mismatch', path, message: `${c.name}: ${message}${timersScheduled === 0 ? realTimerHint : ''}`, expected, actual });
    };
    let stream: ProofStream | undefined;
    try {
      stream = factory({
        now: clock.now,
        setTimeout(fn, ms) {
          timersScheduled++;
          return clock.setTimeout(() => { doing = `a ${ms} ms timer it scheduled, firing ${at()}`; fn(); }, ms);
        },
        clearTimeout: clock.clearTimeout,
      });
      const module = stream;
      const traced: ProofStream = {
        push(event) { doing = `push(${eventLabel(event)}) ${at()}`; module.push(event); },
        getState() { doing = `getState() ${at()}`; return module.getState(); },
      };
      c.run(traced, clock, fail);
    } catch (error) {
      findings.push({ requirement: c.requirement, code: 'proof-stream-threw', path: '/', message: `${c.name}: the module threw in ${doing}: ${(error as Error)?.message ?? String(error)}`, expected: 'no exception', actual: String(error) });
    } finally {
      try { stream?.dispose?.(); } catch { /* its disposal is not what this case checks */ }
    }
    return { requirement: c.requirement, scenario: 'probe:proof-stream', status: findings.length > 0 ? 'failed' : 'passed', findings };
  });
}
