/**
 * Why an output gave the checks nothing to judge when it had events: none of them is a valid
 * AgentBriefingEvent. A module that emitted 372 events whose `type` differed from the schema's
 * only in case was told it "emitted no AgentBriefingEvent" (issue 28 §4); the reason names what
 * was emitted and the schema problem most of the events share, so the fix is one line away.
 */
import { validate } from '../../../schemas/registry.ts';
import type { TransformerRun } from './observation.ts';

/** A reason when no emitted event is valid; undefined when one is (or none was emitted). */
export function invalidOutputReason(run: TransformerRun): string | undefined {
  if (run.events.length === 0) return undefined;
  const problems = new Map<string, number>();
  for (const e of run.events) {
    const { valid, errors } = validate('agent-briefing-event', e.value);
    if (valid) return undefined;
    for (const text of new Set(errors.map((i) => describe(i.path, i.message, i.keyword === 'enum' ? i.params.allowedValues : undefined, e.value)))) problems.set(text, (problems.get(text) ?? 0) + 1);
  }
  const [problem, count] = [...problems].sort((a, b) => b[1] - a[1])[0] ?? ['no detail', 0];
  const n = run.events.length;
  return `the implementation emitted ${n} event${n === 1 ? '' : 's'} and none is a valid AgentBriefingEvent (schemas/agent-briefing-event.schema.json), so nothing could be judged; the most common problem, in ${count} of them: ${problem} (ABE-SCHEMA-001 lists every one)`;
}

function describe(path: string, message: string, allowed: unknown, event: Record<string, unknown>): string {
  const where = path || '(root)';
  if (!Array.isArray(allowed)) return `${where} ${message}`;
  const value = pointed(event, path);
  const cased = typeof value === 'string' ? allowed.find((a) => typeof a === 'string' && a.toLowerCase() === value.toLowerCase() && a !== value) : undefined;
  return `${where} must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}${cased !== undefined ? `; ${JSON.stringify(value)} differs from ${JSON.stringify(cased)} only in case` : ''}`;
}

function pointed(root: unknown, pointer: string): unknown {
  let value = root;
  for (const raw of pointer.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}
