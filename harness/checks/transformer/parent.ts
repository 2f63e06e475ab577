/**
 * ABE-PARENT-001 (seed 002 §2 `"parent_event_id": "ID of the event that triggered this
 * delegation."`):
 * - a parent_event_id that is not null names an event emitted earlier in the run;
 * - the INSIGHT of a specialist's result names the STATUS event that announced the delegation to
 *   that specialist (a STATUS naming it, see briefing.ts `names`), each delegation answering one
 *   result. The n-th result of a specialist is matched with its n-th INSIGHT.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { EmittedEvent, TransformerObservation } from './observation.ts';
import { at, brief, idOf, names, sourceOf, typeOf } from './briefing.ts';
import type { FrameFacts } from './frame-facts.ts';
import { finding, judge, untested } from './outcome.ts';

const id = 'ABE-PARENT-001';

export function checkParents(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const events = obs.run.events;
  const findings: Finding[] = [];
  const position = new Map<string, EmittedEvent>();
  let anyParent = false;
  for (const e of events) {
    const parent = e.value.parent_event_id;
    if (typeof parent === 'string') {
      anyParent = true;
      const target = position.get(parent);
      if (!target) findings.push(finding(id, 'parent-not-earlier', at(e, '/parent_event_id'), `event ${e.index}'s parent_event_id names no earlier event of the run`, 'the event_id of an earlier event', parent));
    }
    const own = idOf(e);
    if (own !== undefined && !position.has(own)) position.set(own, e);
  }

  const specialistResults = facts.results.filter((r) => r.kind === 'specialist' && !r.failure);
  const used = new Set<string>();
  const seen = new Map<string, number>();
  let judged = 0;
  for (const result of specialistResults) {
    const n = seen.get(result.name) ?? 0;
    seen.set(result.name, n + 1);
    const insight = events.filter((e) => typeOf(e) === 'INSIGHT' && sourceOf(e) === result.name)[n];
    if (!insight) continue; // no INSIGHT at all is ABE-LIFE-008's finding
    judged++;
    const parent = insight.value.parent_event_id;
    const target = typeof parent === 'string' ? position.get(parent) : undefined;
    const announces = target && target.index < insight.index && typeOf(target) === 'STATUS' && names(target, result.name);
    if (!announces) {
      findings.push(finding(id, 'insight-parent-not-delegation', at(insight, '/parent_event_id'), `the INSIGHT of ${result.name}'s result (frame ${result.frame}) does not name the STATUS event that delegated to ${result.name}`, `the event_id of an earlier STATUS naming ${result.name}`, target ? brief(target) : parent ?? null));
    } else if (used.has(parent as string)) {
      findings.push(finding(id, 'insight-parent-reused', at(insight, '/parent_event_id'), `the INSIGHT of ${result.name}'s result (frame ${result.frame}) names a delegation another result already answered`, 'the delegation that asked for this result', parent));
    } else used.add(parent as string);
  }
  if (!anyParent && specialistResults.length === 0) return [];
  // A parent that names no earlier event fails wherever it is; a pass needs a specialist's INSIGHT
  // whose parent was judged (issue 28 §2: a transformer that never emits one passed 21 scenarios).
  if (judged === 0 && findings.length === 0) {
    const names = [...new Set(specialistResults.map((r) => r.name))].join(', ');
    return [untested(id, obs.scenario.id, specialistResults.length === 0
      ? 'no specialist returned a result in this run, so no INSIGHT followed a DELEGATING event'
      : `no INSIGHT followed a DELEGATING event: the frames hold ${specialistResults.length} result(s) of ${names}, and the output has no INSIGHT from ${specialistResults.length === 1 ? 'it' : 'them'} whose parent_event_id could be judged`)];
  }
  return [judge(id, obs.scenario.id, findings)];
}
