/**
 * `expect.briefings`: the key AgentBriefingEvents of a scenario, in order, a subsequence of the
 * output. Each entry is matched on type, source_agent and state (proof_layer fields are the PL
 * checks' business, on the matched events). An entry with no match is a finding under the
 * requirement that produces that kind of event:
 * the event exists but from another agent → ABE-SRC-001; a cut stream's ERROR → ABE-TERM-002;
 * COMPLETE → ABE-LIFE-004, ERROR → ABE-LIFE-005, THINKING → ABE-LIFE-001, DELEGATING → ABE-LIFE-007,
 * EXECUTING / SYNTHESIZING → ABE-LIFE-006, ALERT → ABE-ALERT-001, an INSIGHT from a specialist →
 * ABE-LIFE-008, from the agent that gave the final answer → ABE-LIFE-004, from anyone else → ABE-SRC-001.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation } from './observation.ts';
import { brief, sourceOf, stateOf, typeOf } from './briefing.ts';
import type { FrameFacts } from './frame-facts.ts';
import { finding, judgeAll } from './outcome.ts';
import { alignOutline, type Outline } from './proof-sources.ts';

const byState: Record<string, string> = { COMPLETE: 'ABE-LIFE-004', ERROR: 'ABE-LIFE-005', THINKING: 'ABE-LIFE-001', DELEGATING: 'ABE-LIFE-007', EXECUTING: 'ABE-LIFE-006', SYNTHESIZING: 'ABE-LIFE-006' };

function requirementOf(o: Outline, facts: FrameFacts, obs: TransformerObservation): string {
  // The event is there, from another agent: an attribution problem.
  if (o.source_agent !== undefined && obs.run.events.some((e) => typeOf(e) === o.type && (o.state === undefined || stateOf(e) === o.state) && sourceOf(e) !== o.source_agent)
    && !obs.run.events.some((e) => typeOf(e) === o.type && sourceOf(e) === o.source_agent && (o.state === undefined || stateOf(e) === o.state))) return 'ABE-SRC-001';
  // A cut stream's ERROR: its absence means the run was declared complete (or never ended).
  if (o.state === 'ERROR' && obs.scenario.expect.outcome === 'cut') return 'ABE-TERM-002';
  if (o.state && byState[o.state]) return byState[o.state] as string;
  if (o.type === 'ALERT') return 'ABE-ALERT-001';
  if (o.type === 'INSIGHT' && o.source_agent !== undefined) {
    if (facts.final?.author === o.source_agent) return 'ABE-LIFE-004';
    if (facts.results.some((r) => r.kind === 'specialist' && r.name === o.source_agent)) return 'ABE-LIFE-008';
  }
  return 'ABE-SRC-001';
}

export function checkOutline(obs: TransformerObservation, facts: FrameFacts): CheckOutcome[] {
  const outlines = (obs.scenario.expect.briefings ?? []) as Outline[];
  if (outlines.length === 0) return [];
  const matched = new Set(alignOutline(obs).map((m) => m.position));
  const findings: Finding[] = [];
  const exercised = outlines.map((o) => requirementOf(o, facts, obs));
  const words = (o: Outline) => [o.type, o.state, o.source_agent && `from ${o.source_agent}`].filter(Boolean).join(' ');
  // The expectation is hidden in the scenario file: say it in words, and show the whole expected
  // outline (the missing entry marked) beside the whole actual one.
  const expectedOutline = (missing: number) => outlines.map((x, i) => `${i === missing ? '→ missing: ' : matched.has(i) ? '✓ ' : '  '}${words(x)}`);
  const actualOutline = obs.run.events.slice(0, 40).map((e) => [typeOf(e), stateOf(e), `from ${sourceOf(e)}`].filter(Boolean).join(' '));
  outlines.forEach((o, position) => {
    if (matched.has(position)) return;
    const before = outlines.slice(0, position).reverse().find((_, i) => matched.has(position - 1 - i));
    const where = before ? `after the ${words(before)} event` : 'in the run';
    findings.push(finding(requirementOf(o, facts, obs), 'expected-briefing-missing', `expect.briefings[${position}]`,
      `the scenario expects a ${words(o)} event ${where} (key briefing ${position + 1} of ${outlines.length}, in order), and the output has none there; of its ${o.type} events: ${JSON.stringify(obs.run.events.filter((e) => typeOf(e) === o.type).map(brief).slice(0, 3))}`,
      expectedOutline(position), actualOutline));
  });
  return judgeAll(obs.scenario.id, exercised, findings);
}
