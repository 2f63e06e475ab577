/**
 * Why an output gave the checks nothing to judge when it had events: none of them is a valid
 * AgentBriefingEvent of the run's spec. A module that emitted 372 events whose `type` differed from
 * the schema's only in case was told it "emitted no AgentBriefingEvent" (issue 28 §4); a transformer
 * of spec 1.1 judged against 1.0 was told the same (issue 31 §2). The reason names the real cause
 * first: the other spec version its types belong to, with the flag that selects it; then what was
 * emitted and the schema problem most of the events share, so the fix is one line away.
 */
import { validate } from '../../../schemas/registry.ts';
import { specSchemas, typeName, versionSpelling, type SpecVersion } from '../../spec-version.ts';
import type { TransformerRun } from './observation.ts';

/** A reason when no emitted event is valid; undefined when one is (or none was emitted). */
export function invalidOutputReason(run: TransformerRun, spec: SpecVersion = '1.0'): string | undefined {
  if (run.events.length === 0) return undefined;
  const { schema } = specSchemas[spec];
  const problems = new Map<string, number>();
  for (const e of run.events) {
    const { valid, errors } = validate(schema, e.value);
    if (valid) return undefined;
    for (const text of new Set(errors.map((i) => describe(i.path, i.message, i.keyword === 'enum' ? i.params.allowedValues : undefined, e.value)))) problems.set(text, (problems.get(text) ?? 0) + 1);
  }
  const [problem, count] = [...problems].sort((a, b) => b[1] - a[1])[0] ?? ['no detail', 0];
  const n = run.events.length;
  return `${versionHint(run, spec)}the implementation emitted ${n} event${n === 1 ? '' : 's'} and none is a valid AgentBriefingEvent of spec ${spec} (schemas/${schema}.schema.json), so nothing could be judged; the most common problem, in ${count} of them: ${problem} (${specSchemas[spec].requirement} lists every one)`;
}

/**
 * "its events' `type` is `status_update`: spec 1.0 has STATUS; did you mean `--spec 1.1`? " when
 * the events' types are another version's spelling (the most common such type is named).
 */
export function versionHint(run: TransformerRun, spec: SpecVersion): string {
  const seen = new Map<string, { type: string; version: SpecVersion; canonical: string; n: number }>();
  for (const e of run.events) {
    const other = versionSpelling(e.value.type, spec);
    if (!other) continue;
    const type = String(e.value.type);
    const entry = seen.get(type) ?? { type, ...other, n: 0 };
    entry.n++;
    seen.set(type, entry);
  }
  const top = [...seen.values()].sort((a, b) => b.n - a.n)[0];
  if (!top) return '';
  const declared = run.events.map((e) => e.value.schema_version).find((v) => v !== undefined);
  return `its events' \`type\` is \`${top.type}\`: spec ${spec} has ${typeName(top.canonical as never, spec)}; did you mean \`--spec ${top.version}\`?${declared !== undefined ? ` (they declare schema_version ${JSON.stringify(declared)})` : ''} `;
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
