/**
 * Identity of the run's events (seed 002 §2, §4.2):
 * - ABE-ID-001 `"event_id": "UUID for this specific event."`: each event_id is a UUID (the
 *   8-4-4-4-12 hex form, any version) and no two events share one.
 * - ABE-CORR-001 "The `correlation_id` must persist throughout an entire multi-agent thread.":
 *   every event carries the same non-empty correlation_id. Which value (session id or invocation id)
 *   is the implementation's documented choice (docs/transform-contract.md "Run context").
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation } from './observation.ts';
import { at, idOf } from './briefing.ts';
import { finding, judge, untested } from './outcome.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkEventIds(obs: TransformerObservation): CheckOutcome[] {
  const id = 'ABE-ID-001';
  const findings: Finding[] = [];
  const firstSeen = new Map<string, number>();
  for (const e of obs.run.events) {
    const eventId = idOf(e);
    if (eventId === undefined) continue; // a missing or non-string event_id is ABE-SCHEMA-001's finding
    if (!uuid.test(eventId)) findings.push(finding(id, 'event-id-not-uuid', at(e, '/event_id'), `event ${e.index}'s event_id is not a UUID`, 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (hex)', eventId));
    const first = firstSeen.get(eventId);
    if (first !== undefined) findings.push(finding(id, 'event-id-repeated', at(e, '/event_id'), `event ${e.index} repeats the event_id of event ${first}`, 'a new UUID for every event', eventId));
    else firstSeen.set(eventId, e.index);
  }
  if (firstSeen.size === 0) return [untested(id, obs.scenario.id, 'no event carried a string event_id (ABE-SCHEMA-001 reports the missing field)')];
  return [judge(id, obs.scenario.id, findings)];
}

export function checkCorrelation(obs: TransformerObservation): CheckOutcome[] {
  const id = 'ABE-CORR-001';
  const findings: Finding[] = [];
  let first: { value: string; index: number } | undefined;
  let carried = 0;
  for (const e of obs.run.events) {
    const value = e.value.correlation_id;
    if (typeof value !== 'string') continue; // ABE-SCHEMA-001 reports a missing one
    if (value.trim() === '') { findings.push(finding(id, 'correlation-id-empty', at(e, '/correlation_id'), `event ${e.index} has an empty correlation_id`, 'the run\'s correlation id', value)); continue; }
    if (!first) { first = { value, index: e.index }; continue; }
    if (value !== first.value) findings.push(finding(id, 'correlation-id-changed', at(e, '/correlation_id'), `event ${e.index} changes the correlation_id set by event ${first.index}`, first.value, value));
    carried++;
  }
  // Persisting needs two events to persist across.
  if (carried === 0 && findings.length === 0) return [untested(id, obs.scenario.id, `fewer than two events carried a correlation_id (${first ? 'one did' : 'none did'}), so whether it persists across the run was not observed`)];
  return [judge(id, obs.scenario.id, findings)];
}
