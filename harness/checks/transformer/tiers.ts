/**
 * PL-TIER-002 (seed 002 §2.1 "The `proof_layer.confidence` score indicates the data quality tier",
 * and §2 `"degradation_notice": "Explanation if data quality is degraded (Tier 2/3)."`): an event
 * whose confidence is below 0.90 (tier 2, 3 or 4) carries a non-empty content.degradation_notice.
 * An outline entry's `degraded` says whether the notice is there, exactly.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation } from './observation.ts';
import { at, confidenceOf, noticeOf } from './briefing.ts';
import { finding, judge } from './outcome.ts';
import { alignOutline, tierOf } from './proof-sources.ts';

const id = 'PL-TIER-002';

export function checkTiers(obs: TransformerObservation): CheckOutcome[] {
  const findings: Finding[] = [];
  let exercised = false;
  for (const e of obs.run.events) {
    const c = confidenceOf(e);
    if (c === undefined || c >= 0.9) continue;
    exercised = true;
    if (!noticeOf(e)?.trim()) findings.push(finding(id, 'degradation-notice-missing', at(e, '/content/degradation_notice'), `event ${e.index} has confidence ${c} (tier ${tierOf(c)}) but no degradation_notice`, 'a non-empty degradation_notice', null));
  }
  for (const { outline, event, position } of alignOutline(obs)) {
    if (outline.degraded === undefined) continue;
    exercised = true;
    const has = Boolean(noticeOf(event)?.trim());
    if (has !== outline.degraded) findings.push(finding(id, 'degradation-not-expected', at(event, '/content/degradation_notice'), `expect.briefings[${position}] expects ${outline.degraded ? 'a' : 'no'} degradation_notice`, outline.degraded, noticeOf(event) ?? null));
  }
  return exercised ? [judge(id, obs.scenario.id, findings)] : [];
}
