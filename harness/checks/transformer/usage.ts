/**
 * ABE-USAGE-001, token usage is copied, never invented (adk-js #645: in SSE streaming a turn that
 * ends in a function call reached the wire without usageMetadata, and "no usage reported" and
 * "usage reported as zero" are the same value once a number reaches a cost gate; seed 001 "Event
 * Type 1": "`usageMetadata`: Token counts"). A briefing may report a model event's token usage as
 * `usage: {prompt_token_count, candidates_token_count, total_token_count}` (docs/briefing-mapping.md;
 * the reference does on the first DELEGATING/EXECUTING event of a call turn and on answer INSIGHTs).
 * Where a briefing carries `usage`, it is null or that object, and each count equals the count the
 * model event it stands for reported: null where that event reported none (`usage-absent-reported-as-zero`
 * for a 0, `usage-invented` for another number), the reported number where it did (`usage-not-copied`,
 * `usage-dropped`). The event a briefing stands for: the call event of the announced call (the n-th
 * announcement of a target is its n-th call), the model event whose text an INSIGHT's body is, the
 * errorCode event of an ERROR or ALERT. An implementation that reports no usage passes.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { EmittedEvent, TransformerObservation } from './observation.ts';
import { at, bodyOf, isRecord, sourceOf, typeOf } from './briefing.ts';
import { announcedTarget, isAnnouncement } from './calls-once.ts';
import type { FrameFacts } from './frame-facts.ts';
import type { FrameTexts, FrameUsage } from './frame-texts.ts';
import { finding, judge, untested } from './outcome.ts';

const id = 'ABE-USAGE-001';
const counts = ['prompt_token_count', 'candidates_token_count', 'total_token_count'] as const;

type Attribution = { calls: FrameFacts['calls']; ambiguous: Set<string>; announced: Map<string, number>; used: Set<number> };

function frameOf(e: EmittedEvent, facts: FrameFacts, texts: FrameTexts, a: Attribution): number | undefined {
  if (isAnnouncement(e)) {
    const target = announcedTarget(e, a.calls);
    const n = a.announced.get(target) ?? 0;
    a.announced.set(target, n + 1);
    // More announcements than calls (ABE-CALL-001's finding): which call each stands for is unknown.
    return a.ambiguous.has(target) ? undefined : facts.calls.filter((c) => c.target === target)[n]?.frame;
  }
  if (typeOf(e) === 'INSIGHT') {
    const body = bodyOf(e)?.trim();
    const match = (author?: string) => texts.texts.find((t) => !a.used.has(t.frame) && t.text.trim() === body && (author === undefined || t.author === author));
    const t = match(sourceOf(e)) ?? match();
    if (t) a.used.add(t.frame);
    return t?.frame;
  }
  const error = isRecord(e.value.error) ? e.value.error : undefined;
  const code = typeof error?.code === 'string' ? error.code : undefined;
  return code === undefined ? undefined : facts.errorCodes.find((c) => c.code === code && c.author === sourceOf(e))?.frame;
}

export function checkUsage(obs: TransformerObservation, facts: FrameFacts, texts: FrameTexts): CheckOutcome[] {
  if (texts.usage.size === 0) return [];
  const findings: Finding[] = [];
  const targets = facts.calls.map((c) => c.target);
  const count = (list: string[]) => list.reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map<string, number>());
  const calls = count(targets);
  const announcedTargets = count(obs.run.events.filter(isAnnouncement).map((e) => announcedTarget(e, facts.calls)));
  const ambiguous = new Set([...announcedTargets].filter(([t, n]) => n > (calls.get(t) ?? 0)).map(([t]) => t));
  const a: Attribution = { calls: facts.calls, ambiguous, announced: new Map(), used: new Set() };
  let judged = 0;
  for (const e of obs.run.events) {
    const reported = Object.hasOwn(e.value, 'usage');
    // Attribution walks every event in order, so the n-th announcement is matched whether or not earlier ones report usage.
    const frame = frameOf(e, facts, texts, a);
    if (!reported) continue;
    const u = e.value.usage;
    if (u !== null && !(isRecord(u) && counts.every((k) => u[k] === null || (typeof u[k] === 'number' && Number.isInteger(u[k]) && (u[k] as number) >= 0)))) {
      findings.push(finding(id, 'usage-malformed', at(e, '/usage'), 'usage is neither null nor {prompt_token_count, candidates_token_count, total_token_count} with integer or null counts', 'null or the three counts', u));
      continue;
    }
    if (frame === undefined || !texts.usage.has(frame)) continue;
    judged++;
    const expected: FrameUsage = texts.usage.get(frame) ?? null;
    for (const k of counts) {
      const want = expected?.[k] ?? null;
      const got = u === null ? null : (u[k] as number | null);
      if (want === got) continue;
      const path = at(e, u === null ? '/usage' : `/usage/${k}`);
      const source = `frame[${frame}]`;
      if (want === null) findings.push(finding(id, got === 0 ? 'usage-absent-reported-as-zero' : 'usage-invented', path, `${source} reported no ${k.replace(/_/g, ' ')}${expected === null ? ' (it carries no usageMetadata)' : ''}, but event ${e.index} reports ${got}: an absent count is null, never ${got === 0 ? '0' : 'a number'}`, null, got));
      else findings.push(finding(id, got === null ? 'usage-dropped' : 'usage-not-copied', path, `${source} reported ${k.replace(/_/g, ' ')} ${want}, but event ${e.index} reports ${got}`, want, got));
    }
  }
  // Reporting no usage is free (rule MAP-FIELD-004), and then nothing was copied to be judged (issue 28 §2).
  if (judged === 0 && findings.length === 0) {
    const reporting = obs.run.events.filter((e) => Object.hasOwn(e.value, 'usage')).length;
    return [untested(id, obs.scenario.id, reporting === 0
      ? `no briefing reported token usage (no \`usage\` field), so no copy of the counts of the ${texts.usage.size} complete model event(s) was observed (reporting usage is optional, rule MAP-FIELD-004: a transformer that never reports it says so in its profile, capabilities {"token-usage": false} with a reason, and this requirement is then not applicable)`
      : `${reporting} briefing(s) report \`usage\`, but none stands for a model event of the frames (an announced call, an answer's text, an errorCode), so no copied count could be compared`)];
  }
  return [judge(id, obs.scenario.id, findings)];
}
