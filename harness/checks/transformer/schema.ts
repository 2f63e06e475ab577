/**
 * ABE-SCHEMA-001 (seed 002 §2 "The following JSON schema defines the mandatory fields for any event
 * destined for the UI"): every output line is one AgentBriefingEvent object, valid against
 * schemas/agent-briefing-event.schema.json. Every schema error is reported, each at its JSON pointer
 * inside the event; a line that is not a JSON object is reported at its line number.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { validate } from '../../../schemas/registry.ts';
import type { TransformerObservation } from './observation.ts';
import { at } from './briefing.ts';
import { finding, judge } from './outcome.ts';

const id = 'ABE-SCHEMA-001';

export function checkSchema(obs: TransformerObservation): CheckOutcome[] {
  const findings: Finding[] = [];
  for (const p of obs.run.problems) {
    findings.push(finding(id, 'output-not-an-event', `line ${p.line}`, `output line ${p.line} is not an AgentBriefingEvent object: ${p.reason}`, 'one JSON object per line', p.text.slice(0, 200)));
  }
  if (obs.run.exit.unterminatedLine !== undefined) {
    findings.push(finding(id, 'output-line-unterminated', 'stdout', 'the last output line has no LF terminator (docs/transform-contract.md: each line is terminated by LF)', 'a line ending in \\n', obs.run.exit.unterminatedLine.slice(0, 200)));
  }
  for (const e of obs.run.events) {
    const { errors } = validate('agent-briefing-event', e.value);
    for (const issue of errors) {
      findings.push(finding(id, 'schema-invalid', at(e, issue.path), `event ${e.index} (line ${e.line}): ${issue.path || '/'} ${issue.message}`, issue.keyword === 'enum' ? issue.params.allowedValues : issue.keyword, pointed(e.value, issue.path)));
    }
  }
  return [judge(id, obs.scenario.id, findings)];
}

/** The value a JSON pointer names (undefined when it names nothing). */
function pointed(root: unknown, pointer: string): unknown {
  let value = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
