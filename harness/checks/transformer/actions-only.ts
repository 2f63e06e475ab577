/**
 * ABE-FINAL-001, an actions-only event is no final response (adk-python #2992, #7078, PR #7095;
 * seed 001 "What Frontend Must Do": completion is `finishReason: "STOP"` + a `text` part). A
 * before/after-agent callback that only changes state makes ADK send an event with nothing but
 * `actions.stateDelta`; adk-python's `is_final_response()` calls it final, so a consumer that
 * takes final responses for answers shows an empty answer or ends the turn before the reply. For
 * each actions-only frame (frame-texts.ts) of agent A:
 * - `actions-only-taken-for-answer`: an INSIGHT from A carries no text of the frames (no model
 *   text, no tool result): it stands for the actions-only event, the only thing A sent without
 *   text. The COMPLETE insight is an INSIGHT, so an empty COMPLETE is this finding too;
 * - `actions-only-ended-run`: a terminal event arrived after that frame was written and before the
 *   next one was (the run was declared over on it).
 * Free: whether the state change is shown at all (the reference shows nothing).
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation } from './observation.ts';
import { at, bodyOf, brief, isTerminal, sourceOf, stateOf, typeOf } from './briefing.ts';
import type { FrameTexts } from './frame-texts.ts';
import { finding, judge, untested } from './outcome.ts';

const id = 'ABE-FINAL-001';

export function checkActionsOnly(obs: TransformerObservation, texts: FrameTexts): CheckOutcome[] {
  if (texts.actionsOnly.length === 0) return [];
  const backing = [...texts.texts.map((t) => t.text), ...texts.dataTexts].map((s) => s.trim()).filter(Boolean);
  const backed = (body: string | undefined): boolean => {
    const b = body?.trim();
    // A body made of a text of the frames, or holding one (a few characters could be there by chance).
    return !!b && backing.some((s) => s.includes(b) || (s.length >= 4 && b.includes(s)));
  };
  const findings: Finding[] = [];
  for (const a of texts.actionsOnly) {
    const what = `frame[${a.frame}] (only actions.${a.actions.join(', actions.')})`;
    for (const e of obs.run.events) {
      if (typeOf(e) !== 'INSIGHT' || sourceOf(e) !== a.author || backed(bodyOf(e))) continue;
      findings.push(finding(id, 'actions-only-taken-for-answer', at(e, '/content'), `event ${e.index} is ${stateOf(e) === 'COMPLETE' ? 'the COMPLETE' : 'an'} INSIGHT from ${a.author} with no text of the frames: it stands for the actions-only event ${what}, which is no final response`, `no INSIGHT for ${what}`, brief(e)));
    }
    const written = obs.frames.find((f) => f.index === a.frame)?.at;
    const next = obs.frames.find((f) => f.index === a.frame + 1)?.at;
    if (written === undefined || next === undefined) continue;
    for (const e of obs.run.events.filter((x) => isTerminal(x) && x.at >= written && x.at < next)) {
      findings.push(finding(id, 'actions-only-ended-run', at(e), `the run was declared ${stateOf(e)} after the actions-only event ${what} and before frame[${a.frame + 1}] was written`, `no terminal event on ${what}`, brief(e)));
    }
  }
  // Judged on an INSIGHT of an agent that sent an actions-only event, or on a terminal event: with neither, nothing was.
  const authors = new Set(texts.actionsOnly.map((a) => a.author));
  if (findings.length === 0 && !obs.run.events.some((e) => isTerminal(e) || (typeOf(e) === 'INSIGHT' && authors.has(sourceOf(e) ?? '')))) {
    return [untested(id, obs.scenario.id, `no INSIGHT from ${[...authors].join(', ')} and no terminal event was emitted, so whether the actions-only event was taken for an answer or for the end of the run was not observed`)];
  }
  const seen = new Set<string>();
  return [judge(id, obs.scenario.id, findings.filter((f) => { const k = `${f.code}:${f.path}`; if (seen.has(k)) return false; seen.add(k); return true; }))];
}
