/**
 * AUD-CLEAR-001 (SHOULD): an invocation's trail is cleared after its final event only, not after
 * every event marked `partial: false` as seed 000 §8 decision 2 writes it
 * (`if event.partial == False:  # Final event`). The kit believes the seed's rule is wrong: in
 * streaming mode ADK marks every aggregated model event `partial: false`, function calls and
 * metadata-only events included (adk-wire-format §4), so a run that calls a second tool clears the
 * first tool's trail before the final answer, and the answer's proof layer loses it; seed 000 §9
 * step 5 shows the response event carrying the tool_invocation and tool_response, and §7 asks for
 * the "Full decision chain reconstructable from audit trail".
 *
 * Judged on the outcome, on the trails AUD-TRAIL-003 accepted: a trail that starts after the
 * invocation's last final event lost what was recorded before a non-final event. A scenario
 * exercises it only where that could happen: an event follows a non-final `partial: false` event
 * of its invocation that had a trail to lose.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { outcomeOf } from '../normalizer/outcome.ts';
import { lastFinal, type ExpectedTrail } from './expected-trail.ts';
import type { TrailStarts } from './trail.ts';

const requirement = 'AUD-CLEAR-001';

function describeEvent(frame: unknown): string {
  const e = (typeof frame === 'object' && frame !== null ? frame : {}) as Record<string, unknown>;
  const parts = Array.isArray((e.content as { parts?: unknown } | undefined)?.parts) ? ((e.content as { parts: Array<Record<string, unknown>> }).parts) : [];
  const kinds = parts.map((p) => (p.functionCall ? 'functionCall' : p.functionResponse ? 'functionResponse' : typeof p.text === 'string' ? (p.thought === true ? 'thought' : 'text') : 'part'));
  return kinds.length ? `a ${[...new Set(kinds)].join(' + ')} event` : 'an event without content';
}

export function checkTrailClearing(scenario: string, label: string, frames: unknown[], expected: Array<ExpectedTrail | undefined>, starts: TrailStarts): CheckOutcome {
  const findings: Finding[] = [];
  let exercised = false;
  expected.forEach((want, k) => {
    if (!want) return;
    const final = lastFinal(want);
    // A non-final `partial: false` event with a trail to lose came before this event.
    const risky = want.clears.filter((c) => !c.final && c.at > final);
    const start = starts[k];
    // A trail AUD-TRAIL-003 refused says nothing about where the bridge cleared.
    if (risky.length === 0 || start === undefined) return;
    exercised = true;
    if (start <= final) return;
    const at = risky.find((c) => c.at === start) ?? risky[risky.length - 1]!;
    findings.push({
      requirement, code: 'trail-cleared-before-final', path: `frame[${k}]/_audit_metadata`,
      message: `${label}: event ${k} of invocation ${want.invocationId} carries ${want.recorded.length - start} audit events; the ${start - final} recorded before event ${at.frame} (${describeEvent(frames[at.frame])} marked \`partial: false\`, not the invocation's final event) were cleared, so this event and the final answer lose them (seed 000 §8's \`if event.partial == False\`; the kit clears after the final event only)`,
      expected: want.recorded.length - final, actual: want.recorded.length - start,
    });
  });
  if (!exercised) return { requirement, scenario, status: 'untested', findings: [], reason: `${label}: no event followed a non-final \`partial: false\` event of its invocation that had an audit trail to lose` };
  return outcomeOf(requirement, scenario, findings);
}
