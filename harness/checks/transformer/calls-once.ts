/**
 * ABE-CALL-001, one announcement per logical call (ag-ui #968, ag-ui PR #1920, adk-python #4609 and
 * #5064; seed 002 §4.1 "| **DELEGATING** | `STATUS` | Coordinator calling Specialist |"). The
 * logical calls are the functionCall parts of complete (`partial: false`) events, one per (event id,
 * content) (frame-facts.ts): calls run only from those (adk-python-facts §3.2 "Skip partial function
 * call events"). adk-python 1.22 to 2.4 sends a partial preview of a call under one `adk-` id and
 * runs it under another, so a consumer that announces previews and de-duplicates by call id
 * announces the call twice. Per call target (the tool or specialist name, the transfer's agent),
 * the DELEGATING and EXECUTING STATUS events that announce it number at most its calls:
 * `call-announced-twice`, or `call-announced-without-call` for a target no complete event called
 * (a preview of a turn that never completed). At least one announcement per specialist call is
 * ABE-LIFE-007's; what the announcement says is free.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { EmittedEvent, TransformerObservation } from './observation.ts';
import { at, brief, names, stateOf, typeOf } from './briefing.ts';
import type { CallFact, FrameFacts } from './frame-facts.ts';
import { finding, judge, untested } from './outcome.ts';

const id = 'ABE-CALL-001';

export const isAnnouncement = (e: EmittedEvent): boolean => typeOf(e) === 'STATUS' && (stateOf(e) === 'DELEGATING' || stateOf(e) === 'EXECUTING');

/**
 * The call target an announcement names: a target field when it is a called target, else the
 * longest called target it names, else the function it names when that function's calls go to one
 * target (`Calling transfer_to_agent` is the transfer it names, seed 002 §4.1 leaves the wording
 * free); a function whose calls go to several targets is returned as `fn:<name>`, a pool of them.
 */
export function announcedTarget(e: EmittedEvent, calls: readonly Pick<CallFact, 'name' | 'target'>[]): string {
  const called = [...new Set(calls.map((c) => c.target))];
  const fields = [e.value.delegate_to, e.value.target, e.value.target_agent, e.value.skill_id].filter((v): v is string => typeof v === 'string');
  const direct = fields.find((f) => called.includes(f));
  if (direct) return direct;
  const named = called.filter((t) => names(e, t)).sort((a, b) => b.length - a.length)[0];
  if (named) return named;
  const fn = [...new Set(calls.filter((c) => c.name !== c.target).map((c) => c.name))].filter((n) => names(e, n)).sort((a, b) => b.length - a.length)[0];
  if (fn) {
    const targets = [...new Set(calls.filter((c) => c.name === fn).map((c) => c.target))];
    return targets.length === 1 ? (targets[0] as string) : `fn:${fn}`;
  }
  return fields[0] ?? '(unnamed)';
}

export function checkCallsOnce(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const announcements = obs.run.events.filter(isAnnouncement);
  if (facts.calls.length === 0 && announcements.length === 0) return [];
  // "At most one announcement" holds of none: with nothing announced nothing was judged (issue 28 §2).
  if (announcements.length === 0) return [untested(id, obs.scenario.id, `no DELEGATING or EXECUTING event announced any of the ${facts.calls.length} call(s) of the frames (${[...new Set(facts.calls.map((c) => c.target))].join(', ')}), so whether each is announced at most once was not observed`)];
  const called = new Map<string, number>();
  for (const c of facts.calls) called.set(c.target, (called.get(c.target) ?? 0) + 1);
  const byTarget = new Map<string, EmittedEvent[]>();
  for (const e of announcements) {
    const target = announcedTarget(e, facts.calls);
    byTarget.set(target, [...(byTarget.get(target) ?? []), e]);
  }
  // A pool `fn:<name>` stands for that function's calls not announced by their own target.
  for (const key of byTarget.keys()) {
    if (!key.startsWith('fn:')) continue;
    const pooled = [...new Set(facts.calls.filter((c) => c.name === key.slice(3)).map((c) => c.target))];
    called.set(key, pooled.reduce((n, t) => n + Math.max(0, (called.get(t) ?? 0) - (byTarget.get(t)?.length ?? 0)), 0));
  }
  const findings: Finding[] = [];
  for (const [target, events] of byTarget) {
    const calls = called.get(target) ?? 0;
    if (events.length <= calls) continue;
    const extra = events[calls] as EmittedEvent;
    const where = facts.calls.filter((c) => c.target === target || `fn:${c.name}` === target).map((c) => `frame[${c.frame}]`).join(', ');
    findings.push(calls === 0 && !target.startsWith('fn:')
      ? finding(id, 'call-announced-without-call', at(extra), `event ${extra.index} announces a call to ${target}, but no complete (partial:false) event calls it: a partial preview is not a call`, 0, brief(extra))
      : finding(id, 'call-announced-twice', at(extra), `${events.length} DELEGATING/EXECUTING events (events ${events.map((e) => e.index).join(', ')}) announce ${target}, which the complete events call ${calls === 1 ? 'once' : `${calls} times`} (${where}); a preview resent under a fresh id is the same call`, calls, events.length));
  }
  return [judge(id, obs.scenario.id, findings)];
}
