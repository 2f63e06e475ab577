/**
 * ABE-ALERT-001 (seed 002 §2 `"type": ... "Determines UI rendering priority."`): a failed tool or
 * a refused response is surfaced as an ALERT, not buried in an INSIGHT or dropped.
 * - A tool failure is a functionResponse with `{"error": ...}` (adk-wire-format §6 "tool throws")
 *   or a `tool_error` audit entry (seed 000 §3.1); an ALERT must name the tool.
 * - A refusal is an errorCode or finishReason SAFETY, PROHIBITED_CONTENT, BLOCKLIST, SPII,
 *   IMAGE_SAFETY or RECITATION; an ALERT must come from that agent or name the code.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation } from './observation.ts';
import { at, brief, names, sourceOf, stateOf, typeOf } from './briefing.ts';
import type { FrameFacts } from './frame-facts.ts';
import { finding, judge } from './outcome.ts';
import { carriesText } from './proof-sources.ts';

const id = 'ABE-ALERT-001';

export function checkAlerts(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const failed = new Map<string, string>();
  for (const r of facts.results) if (r.failure) failed.set(r.name, `frame[${r.frame}]`);
  for (const a of facts.audit) if (a.type === 'tool_error' && a.tool && !failed.has(a.tool)) failed.set(a.tool, `frame[${a.frame}]/_audit_metadata`);
  if (failed.size === 0 && facts.blocked.length === 0) return [];
  const alerts = obs.run.events.filter((e) => typeOf(e) === 'ALERT');
  const findings: Finding[] = [];
  for (const [tool, where] of failed) {
    if (!alerts.some((e) => names(e, tool))) findings.push(finding(id, 'tool-failure-not-alerted', where, `tool ${tool} failed but no ALERT names it`, `an ALERT naming ${tool}`, alerts.length));
  }
  for (const b of facts.blocked) {
    if (!alerts.some((e) => sourceOf(e) === b.author || names(e, b.code))) findings.push(finding(id, 'refusal-not-alerted', `frame[${b.frame}]`, `${b.author}'s response was refused (${b.code}) but no ALERT reports it`, `an ALERT from ${b.author} or naming ${b.code}`, alerts.length));
  }
  return [judge(id, obs.scenario.id, findings)];
}

/** Words a text may hold that say nothing about the run's events ("No errors found", "failed culverts: none"). */
const alarmWords = /\b(errors?|fail(?:ed|ure|ures|s)?|warnings?|alerts?|critical)\b/i;

/**
 * ABE-ALERT-002 (issue 29 §1: "No errors found" became an ALERT): where the frames show no failure
 * (no failed tool, tool_error, errorCode, refusal, error or unreadable frame, cut), an event that
 * carries a text holding alarm words is no ALERT and no ERROR: the type follows the events.
 */
export function checkAlertWords(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const id = 'ABE-ALERT-002';
  const failing = facts.results.some((r) => r.failure) || facts.audit.some((a) => a.type === 'tool_error') || facts.errorCodes.length > 0 || facts.blocked.length > 0
    || obs.frames.some((f) => f.kind === 'error' || f.kind === 'invalid') || obs.ending === 'cut';
  if (failing) return [];
  const texts = [...facts.answers.map((a) => ({ text: a.text, where: `frame[${a.frame}]` })), ...facts.results.filter((r) => r.text !== undefined).map((r) => ({ text: r.text as string, where: `frame[${r.frame}]` }))]
    .filter((t) => alarmWords.test(t.text));
  const findings: Finding[] = [];
  let exercised = false;
  for (const t of texts) {
    for (const e of obs.run.events.filter((x) => carriesText(x, t.text))) {
      exercised = true;
      if (typeOf(e) === 'ALERT' || stateOf(e) === 'ERROR') findings.push(finding(id, 'alert-from-words', at(e, '/type'), `event ${e.index} carries the text of ${t.where}, which says "${alarmWords.exec(t.text)?.[0] ?? ''}", as ${typeOf(e)}${stateOf(e) ? ` ${stateOf(e)}` : ''}, yet no frame of the run shows a failure`, 'INSIGHT', brief(e)));
    }
  }
  return exercised ? [judge(id, obs.scenario.id, findings)] : [];
}
