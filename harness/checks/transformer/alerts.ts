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
import { names, sourceOf, typeOf } from './briefing.ts';
import type { FrameFacts } from './frame-facts.ts';
import { finding, judge } from './outcome.ts';

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
