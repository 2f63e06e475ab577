/**
 * ABE-ATOMIC-001 (seed 002 §4.2 rule 2: "`AgentBriefingEvent` objects are delivered as **complete
 * JSON blocks** once an intermediate reasoning step is completed"):
 * - no event's body (its detail, else its summary) is a streamed chunk, or the running
 *   concatenation of an agent's chunks, that no complete event confirmed as a whole text
 *   (adk-wire-format §5b: chunks are replaced by the `partial:false` text); a complete text is any
 *   `partial:false` event's, the narration beside function calls included (adk-js's "Delegating to
 *   all four specialists." rides with its four calls: a whole text, not a chunk);
 * - no text is emitted twice: an INSIGHT body appears in more INSIGHTs than the frames hold it as a
 *   complete text (adk-js streaming repeats every chunk in the aggregated final; Python's artifact
 *   split repeats an event's content under the same id).
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation } from './observation.ts';
import { at, detailOf, summaryOf, typeOf } from './briefing.ts';
import type { FrameFacts } from './frame-facts.ts';
import { finding, judge, untested } from './outcome.ts';

const id = 'ABE-ATOMIC-001';

export function checkAtomicity(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const complete = new Map<string, number>();
  for (const t of [...facts.completeTexts.map((a) => a.text), ...facts.results.flatMap((r) => (r.text !== undefined ? [r.text] : []))]) {
    complete.set(t.trim(), (complete.get(t.trim()) ?? 0) + 1);
  }
  // Every chunk and every running concatenation of one author's chunks, unless it is a whole text.
  const partial = new Map<string, number>();
  const running = new Map<string, string>();
  for (const c of facts.chunks) {
    const sum = (running.get(c.author) ?? '') + c.text;
    running.set(c.author, sum);
    for (const t of [c.text.trim(), sum.trim()]) if (t && !complete.has(t) && !partial.has(t)) partial.set(t, c.frame);
  }
  const findings: Finding[] = [];
  const emitted = new Map<string, number[]>();
  let bodies = 0;
  for (const e of obs.run.events) {
    const body = (detailOf(e) ?? summaryOf(e))?.trim();
    if (!body) continue;
    bodies++;
    const frame = partial.get(body);
    if (frame !== undefined) findings.push(finding(id, 'partial-chunk-emitted', at(e, '/content'), `event ${e.index} carries streamed text that no complete event confirmed (chunks up to frame[${frame}])`, 'only the complete (partial:false) text', body.slice(0, 200)));
    if (typeOf(e) === 'INSIGHT') emitted.set(body, [...(emitted.get(body) ?? []), e.index]);
  }
  for (const [body, indexes] of emitted) {
    const allowed = Math.max(1, complete.get(body) ?? 0);
    if (indexes.length > allowed) {
      findings.push(finding(id, 'text-emitted-twice', `event[${indexes[allowed]}]/content`, `the same text is emitted in ${indexes.length} INSIGHTs (events ${indexes.join(', ')}) but the frames hold it ${allowed === 1 ? 'once' : `${allowed} times`}`, allowed, indexes.length));
    }
  }
  const exercised = facts.chunks.length > 0 || obs.run.events.some((e) => typeOf(e) === 'INSIGHT');
  if (!exercised) return [];
  return bodies > 0 ? [judge(id, obs.scenario.id, findings)] : [untested(id, obs.scenario.id, 'no event carried a body (content.detail or content.summary) to judge')];
}
