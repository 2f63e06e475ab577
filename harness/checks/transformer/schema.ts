/**
 * ABE-SCHEMA-001 (spec 1.0, seed 002 §2 "The following JSON schema defines the mandatory fields for
 * any event destined for the UI") and ABE-SCHEMA-002 (spec 1.1): every output line is one
 * AgentBriefingEvent object, valid against the run's spec's schema
 * (schemas/agent-briefing-event.schema.json, schemas/agent-briefing-event-1-1.schema.json). Every
 * schema error is reported, each at its JSON pointer inside the event; a line that is not a JSON
 * object is reported at its line number. A `type` the other version spells says so, with the flag.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { validate } from '../../../schemas/registry.ts';
import { specSchemas, versionSpelling, type SpecVersion } from '../../spec-version.ts';
import type { TransformerObservation } from './observation.ts';
import { at } from './briefing.ts';
import { finding, judge } from './outcome.ts';

export function checkSchema(obs: TransformerObservation): CheckOutcome[] {
  const spec = obs.spec ?? '1.0';
  const { schema, requirement: id } = specSchemas[spec];
  const findings: Finding[] = [];
  for (const p of obs.run.problems) {
    findings.push(finding(id, 'output-not-an-event', `line ${p.line}`, `output line ${p.line} is not an AgentBriefingEvent object: ${p.reason}`, 'one JSON object per line', p.text.slice(0, 200)));
  }
  if (obs.run.exit.unterminatedLine !== undefined) {
    findings.push(finding(id, 'output-line-unterminated', 'stdout', 'the last output line has no LF terminator (docs/transform-contract.md: each line is terminated by LF)', 'a line ending in \\n', obs.run.exit.unterminatedLine.slice(0, 200)));
  }
  for (const e of obs.run.events) {
    const { errors } = validate(schema, e.value);
    for (const issue of errors) {
      const hint = issue.path === '/type' ? otherSpelling(e.value.type, spec) : '';
      findings.push(finding(id, 'schema-invalid', at(e, issue.path), `event ${e.index} (line ${e.line}): ${issue.path || '/'} ${issue.message} (spec ${spec}, schemas/${schema}.schema.json)${hint}`, issue.keyword === 'enum' ? issue.params.allowedValues : issue.keyword, pointed(e.value, issue.path)));
    }
  }
  return [judge(id, obs.scenario.id, findings)];
}

/** `; "status_update" is spec 1.1's name for STATUS: did you mean --spec 1.1?` when another version spells the type. */
export function otherSpelling(type: unknown, spec: SpecVersion): string {
  const other = versionSpelling(type, spec);
  return other ? `; ${JSON.stringify(type)} is spec ${other.version}'s name for ${other.canonical}: did you mean --spec ${other.version}?` : '';
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
