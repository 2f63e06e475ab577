/**
 * ABE-LIFE-006 (seed 002 §4.1, "| **SYNTHESIZING** | `STATUS` | Aggregating final response |"):
 * each agent's states follow THINKING → (DELEGATING | EXECUTING)* → SYNTHESIZING → COMPLETE.
 * Steps may be skipped (an answer without calls has no DELEGATING), and an agent may start another
 * round of calls after it presented an answer. What is out of order, per source_agent:
 * - THINKING after any other state of the same agent ("parsing intent" comes first);
 * - DELEGATING or EXECUTING after SYNTHESIZING with no INSIGHT of that agent in between (it
 *   announced the aggregation of its final response, then went back to calling).
 * That the terminal event is last is ABE-TERM-001's concern.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation } from './observation.ts';
import { at, sourceOf, stateOf, typeOf } from './briefing.ts';
import { finding, judge } from './outcome.ts';

const id = 'ABE-LIFE-006';

/** States shown in a finding: the last few before the offending one (an endless output must not make each finding carry all). */
const shown = 6;

export function checkStateOrder(obs: TransformerObservation): CheckOutcome[] {
  const findings: Finding[] = [];
  const seen = new Map<string, string[]>();
  const synthesizing = new Set<string>();
  let exercised = false;
  for (const e of obs.run.events) {
    const agent = sourceOf(e);
    if (agent === undefined) continue;
    const state = stateOf(e);
    if (typeOf(e) === 'INSIGHT') synthesizing.delete(agent);
    if (!state) continue;
    exercised = true;
    const before = seen.get(agent) ?? [];
    const history = () => [...before.slice(-shown), state];
    if (state === 'THINKING' && before.length > 0) {
      findings.push(finding(id, 'thinking-after-activity', at(e), `${agent} is THINKING after its ${before[before.length - 1]} event`, 'THINKING before any other state of the agent', history()));
    }
    if ((state === 'DELEGATING' || state === 'EXECUTING') && synthesizing.has(agent)) {
      findings.push(finding(id, 'call-after-synthesis', at(e), `${agent} is ${state} after SYNTHESIZING without presenting an insight in between`, 'SYNTHESIZING after the calls of the round', history()));
    }
    if (state === 'SYNTHESIZING') synthesizing.add(agent);
    before.push(state);
    seen.set(agent, before);
  }
  return exercised ? [judge(id, obs.scenario.id, findings)] : [];
}
