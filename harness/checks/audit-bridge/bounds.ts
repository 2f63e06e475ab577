/**
 * What a bridge of the kit's shape drops at its bounds (docs/audit-bridge-contract.md "Bounded
 * memory"): AUD-EVICT-001, at `maxInvocations` a new invocation evicts the one recorded to least
 * recently; AUD-TRIM-001, at `maxEventsPerInvocation` a new event drops the trail's oldest. Both
 * SHOULD: the seeds give the bridge no bound, the kit's contract does (audit-bridge-basis.ts).
 *
 * A bridge that holds more than its bound dropped nothing: that is AUD-MEM-002's finding (the
 * memory probe), so these two are then `untested`, never a second finding of the same defect.
 * Seed 000 §2.2A's shape takes no bound: both are `untested` for it.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { outcomeOf } from '../normalizer/outcome.ts';
import type { MemoryBound } from './memory.ts';

export type EvictionObservation = {
  /** Invocations opened to fill the bridge (maxInvocations), then one more. */
  filled: number;
  /** The first one opened, recorded to again before the new one: it must be held (2 events). */
  touched: { id: string; trail: number };
  /** The second one opened, now the least recently recorded-to: it must be gone. */
  oldest: { id: string; trail: number };
  /** The one opened last, past the bound: it must be held (1 event). */
  fresh: { id: string; trail: number };
  /** How many of all the invocations opened still hold events. */
  held: number;
};

export type TrimObservation = {
  invocation: string;
  /** The event ids recorded, in record order (maxEventsPerInvocation + a few). */
  recorded: string[];
  /** The event ids of the trail afterwards, as the bridge answered it; `exact` whether each entry was the event as received. */
  trail: string[];
  exact: boolean;
};

export type BoundsObservation = {
  shape: 'kit' | 'seed';
  bound: MemoryBound;
  eviction?: EvictionObservation;
  trim?: TrimObservation;
  /** The bridge failed during one of the two steps (the other may still have run). */
  failure?: { step: 'eviction' | 'trim'; message: string; kind?: string };
};

const noBound = 'seed 000 §2.2A\'s shape takes no bound (the seed gives it none; the endpoint\'s clear frees each invocation), so what a full bridge drops never arises';

function failed(requirement: string, scenario: string, obs: BoundsObservation): CheckOutcome {
  const f = obs.failure!;
  const code = f.kind === undefined ? 'bridge-failed' : f.kind === 'refused' ? 'bridge-threw' : f.kind.startsWith('answer-') ? f.kind : `bridge-${f.kind}`;
  return outcomeOf(requirement, scenario, [{ requirement, code, path: f.step, message: `the audit bridge failed in the ${f.step} step: ${f.message}`, expected: 'every operation answered (docs/audit-bridge-contract.md)', actual: f.message }]);
}

export function checkEviction(scenario: string, obs: BoundsObservation): CheckOutcome {
  const requirement = 'AUD-EVICT-001';
  if (obs.shape === 'seed') return { requirement, scenario, status: 'untested', findings: [], reason: noBound };
  if (obs.failure?.step === 'eviction') return failed(requirement, scenario, obs);
  const e = obs.eviction;
  if (!e) return { requirement, scenario, status: 'untested', findings: [], reason: 'the eviction step did not run' };
  const max = obs.bound.maxInvocations;
  if (e.held > max) return { requirement, scenario, status: 'untested', findings: [], reason: `the bridge held ${e.held} of the ${e.filled} invocations opened, more than maxInvocations = ${max}: it evicted none (AUD-MEM-002 judges the bound)` };
  const findings: Finding[] = [];
  const add = (code: string, message: string, expected: unknown, actual: unknown, path: string) => findings.push({ requirement, code, path, message, expected, actual });
  const setup = `with ${max} invocations held (maxInvocations = ${max}), ${e.touched.id} (opened first) was recorded to again, then ${e.fresh.id} was opened`;
  if (e.fresh.trail === 0) add('new-invocation-refused', `${setup}: ${e.fresh.id} holds nothing; a full bridge makes room for a new invocation by evicting the one recorded to least recently (${e.oldest.id})`, 1, e.fresh.trail, `eviction/${e.fresh.id}`);
  if (e.touched.trail === 0) add('recent-invocation-evicted', `${setup}: ${e.touched.id} was evicted although it had just been recorded to; the one recorded to least recently was ${e.oldest.id} (evicting by age of opening drops a live invocation's trail)`, 2, e.touched.trail, `eviction/${e.touched.id}`);
  if (e.fresh.trail > 0 && e.touched.trail > 0 && e.oldest.trail > 0) add('oldest-invocation-kept', `${setup}: ${e.oldest.id}, the invocation recorded to least recently, is still held; another was evicted in its place`, 0, e.oldest.trail, `eviction/${e.oldest.id}`);
  return outcomeOf(requirement, scenario, findings);
}

export function checkTrim(scenario: string, obs: BoundsObservation): CheckOutcome {
  const requirement = 'AUD-TRIM-001';
  if (obs.shape === 'seed') return { requirement, scenario, status: 'untested', findings: [], reason: noBound };
  if (obs.failure?.step === 'trim') return failed(requirement, scenario, obs);
  const t = obs.trim;
  if (!t) return { requirement, scenario, status: 'untested', findings: [], reason: obs.failure ? `the trim step did not run: the bridge failed in the ${obs.failure.step} step` : 'the trim step did not run' };
  const max = obs.bound.maxEventsPerInvocation;
  if (t.trail.length > max) return { requirement, scenario, status: 'untested', findings: [], reason: `the trail of ${t.invocation} held ${t.trail.length} events, more than maxEventsPerInvocation = ${max}: it dropped none (AUD-MEM-002 judges the bound)` };
  const want = t.recorded.slice(-max);
  const same = t.exact && t.trail.length === want.length && t.trail.every((id, i) => id === want[i]);
  if (same) return outcomeOf(requirement, scenario, []);
  const keptFirst = t.trail.length === max && t.trail.every((id, i) => id === t.recorded[i]);
  return outcomeOf(requirement, scenario, [{
    requirement, code: keptFirst ? 'newest-events-refused' : 'trail-trimmed-wrong', path: `trim/${t.invocation}`,
    message: `after ${t.recorded.length} events recorded into ${t.invocation} (maxEventsPerInvocation = ${max}), its trail holds ${keptFirst ? `the first ${max}: new events were refused, so the trail stops changing and the last events (the answer's confidence and sources) never reach it` : `${t.trail.length} events, not the last ${max} in record order${t.exact ? '' : ' (or not as received)'}`}`,
    expected: `${want[0]} .. ${want[want.length - 1]}`, actual: t.trail.length ? `${t.trail[0]} .. ${t.trail[t.trail.length - 1]}` : '(empty)',
  }]);
}
