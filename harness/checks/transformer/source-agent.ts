/**
 * ABE-SRC-001 (seed 002 §2 `"source_agent": "The Agent (Coordinator or Specialist) emitting the
 * event."`): source_agent names the agent the data came from.
 * - The COMPLETE insight comes from the agent that gave the final answer: the author of the answer
 *   event carrying `expect.finalText` (the coordinator for a synthesis, the target after a
 *   transfer), or the specialist whose result ends the run under skipSummarization.
 * - A DELEGATING or EXECUTING status comes from an agent that made a call (a functionCall author).
 * - A THINKING status comes from an agent that wrote events (an ADK `author`).
 * - No event, of any type or state, names a tool as its source: a function a complete event called
 *   that is no specialist (AgentTool) and no author is neither a coordinator nor a specialist
 *   (`source-is-tool`, reported instead of the state's own finding: one defect, one finding).
 * Specialist INSIGHTs are ABE-LIFE-008's concern ("an INSIGHT from that specialist").
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation } from './observation.ts';
import { at, brief, sourceOf, stateOf, typeOf } from './briefing.ts';
import type { FrameFacts } from './frame-facts.ts';
import { finding, judge } from './outcome.ts';

const id = 'ABE-SRC-001';

export function checkSourceAgents(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const findings: Finding[] = [];
  const callers = new Set(facts.calls.map((c) => c.author));
  const authors = new Set(obs.frames.flatMap((f) => (f.kind === 'event' && typeof f.json?.author === 'string' ? [f.json.author] : [])));
  const tools = new Set(facts.calls.filter((c) => c.kind !== 'specialist' && !authors.has(c.name)).map((c) => c.name));
  let exercised = false;
  for (const e of obs.run.events) {
    const state = stateOf(e);
    const source = sourceOf(e);
    if (source === undefined) continue; // ABE-SCHEMA-001
    if (tools.size > 0) exercised = true;
    if (tools.has(source)) {
      findings.push(finding(id, 'source-is-tool', at(e, '/source_agent'), `event ${e.index} (${typeOf(e) ?? 'no type'}${state ? `, state ${state}` : ''}) is attributed to ${source}, a function the run called, not an agent: source_agent names the coordinator or specialist emitting the event`, [...authors], brief(e)));
      continue;
    }
    if (state === 'COMPLETE' && facts.final) {
      exercised = true;
      if (source !== facts.final.author) findings.push(finding(id, 'complete-wrong-agent', at(e, '/source_agent'), `the COMPLETE insight is attributed to ${source}, but ${facts.final.author} gave the final answer`, facts.final.author, source));
    }
    if ((state === 'DELEGATING' || state === 'EXECUTING') && callers.size > 0) {
      exercised = true;
      if (!callers.has(source)) findings.push(finding(id, 'call-status-wrong-agent', at(e, '/source_agent'), `event ${e.index} (${typeOf(e) ?? 'no type'}, state ${state}) is attributed to ${source}, which made no call in this run; ${state === 'DELEGATING' ? 'a DELEGATING' : 'an EXECUTING'} event comes from an agent that made a call`, [...callers], brief(e)));
    }
    if (state === 'THINKING' && authors.size > 0) {
      exercised = true;
      if (!authors.has(source)) findings.push(finding(id, 'thinking-wrong-agent', at(e, '/source_agent'), `a THINKING status is attributed to ${source}, which wrote no event in this run`, [...authors], source));
    }
  }
  return exercised ? [judge(id, obs.scenario.id, findings)] : [];
}
