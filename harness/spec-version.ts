/**
 * The AgentBriefingEvent spec versions a transformer is judged against (docs/versioning.md "Spec
 * versions"). 1.0 is seed 002 §2's schema. 1.1 is the revision deployed transformers emit after it:
 * seed 000 §1.1 names the "Proof Layer Schema (v1.1.0)", and the RANGER Command Console's
 * transformer (jvalenzano/ranger-twin @096f11f, adkEventTransformer.ts) writes
 * `schema_version: '1.1.0'` with lowercase types, `severity`, `ui_binding` and
 * `content.suggested_actions`. The checks speak 1.0's type names; a 1.1 event's type is read
 * through `canonicalType` (insight = INSIGHT, status_update = STATUS ...), so one mapping serves both.
 */
import type { Requirement } from './model.ts';

export const specVersions = ['1.0', '1.1'] as const;
export type SpecVersion = (typeof specVersions)[number];

/** How the run's spec was chosen: `--spec`/config, the events' own `schema_version`, or neither (1.0). */
export type SpecChoice = { version: SpecVersion; how: 'given' | 'detected' | 'default'; detail: string };

export const defaultSpec: SpecVersion = '1.0';

/** The seed 002 type names (1.0), which the checks use, and each version's name for them. */
export const canonicalTypes = ['INSIGHT', 'ALERT', 'ACTION', 'STATUS'] as const;
export type CanonicalType = (typeof canonicalTypes)[number];

const typeNames: Record<SpecVersion, Record<CanonicalType, string>> = {
  '1.0': { INSIGHT: 'INSIGHT', ALERT: 'ALERT', ACTION: 'ACTION', STATUS: 'STATUS' },
  '1.1': { INSIGHT: 'insight', ALERT: 'alert', ACTION: 'action_required', STATUS: 'status_update' },
};

/** The schema (schemas/<name>.schema.json) and the requirement that validates against it, per version. */
export const specSchemas: Record<SpecVersion, { schema: 'agent-briefing-event' | 'agent-briefing-event-1-1'; requirement: string; schemaVersion?: string }> = {
  '1.0': { schema: 'agent-briefing-event', requirement: 'ABE-SCHEMA-001' },
  '1.1': { schema: 'agent-briefing-event-1-1', requirement: 'ABE-SCHEMA-002', schemaVersion: '1.1.0' },
};

export function isSpecVersion(value: unknown): value is SpecVersion {
  return typeof value === 'string' && (specVersions as readonly string[]).includes(value);
}

/** `version`'s name for a 1.0 type (`STATUS` -> `status_update` in 1.1). */
export function typeName(type: CanonicalType, version: SpecVersion): string {
  return typeNames[version][type];
}

/** The 1.0 name of a type as `version` spells it; undefined when `version` has no such type. */
export function canonicalType(type: unknown, version: SpecVersion): CanonicalType | undefined {
  if (typeof type !== 'string') return undefined;
  return canonicalTypes.find((t) => typeNames[version][t] === type);
}

/** The other version that spells this type, when one does (`status_update` is 1.1's, `STATUS` is 1.0's). */
export function versionSpelling(type: unknown, not: SpecVersion): { version: SpecVersion; canonical: CanonicalType } | undefined {
  for (const version of specVersions) {
    if (version === not) continue;
    const canonical = canonicalType(type, version);
    if (canonical) return { version, canonical };
  }
  return undefined;
}

/** Whether a requirement belongs to a version: introduced at or before it, not removed at or before it. */
export function inSpec(r: Pick<Requirement, 'introducedIn' | 'removedIn'>, version: SpecVersion): boolean {
  const rank = (v: SpecVersion) => specVersions.indexOf(v);
  if (r.introducedIn && rank(r.introducedIn) > rank(version)) return false;
  if (r.removedIn && rank(r.removedIn) <= rank(version)) return false;
  return true;
}

/** Why a requirement is not applicable under `version` (undefined when it applies). */
export function outsideSpecReason(r: Pick<Requirement, 'id' | 'introducedIn' | 'removedIn'>, choice: SpecChoice): string | undefined {
  if (inSpec(r, choice.version)) return undefined;
  const which = r.introducedIn && !inSpec({ introducedIn: r.introducedIn }, choice.version) ? `introduced in spec ${r.introducedIn}` : `removed in spec ${r.removedIn ?? ''}`;
  return `not in spec ${choice.version} (${which}); this run is judged against spec ${choice.version} (${describeSpecChoice(choice)})`;
}

/**
 * The version the events declare: the first `schema_version` among them. 1.1.x is 1.1; anything
 * else (none, "1.0.0", an unknown one) is judged against 1.0, and the detail says what was seen.
 */
export function detectSpec(events: readonly unknown[]): SpecChoice {
  const declared = events.map((e) => (typeof e === 'object' && e !== null ? (e as Record<string, unknown>).schema_version : undefined)).find((v) => v !== undefined);
  if (declared === undefined) return { version: defaultSpec, how: 'default', detail: 'its events declare no schema_version' };
  if (typeof declared === 'string' && /^1\.1(\.\d+)?$/.test(declared)) return { version: '1.1', how: 'detected', detail: `its events declare schema_version ${JSON.stringify(declared)}` };
  return { version: defaultSpec, how: 'default', detail: `its events declare schema_version ${JSON.stringify(declared)}, which names no spec the kit knows past 1.0` };
}

/** `given: --spec 1.1`, `detected: its events declare schema_version "1.1.0"`, `default: ...`. */
export function describeSpecChoice(choice: SpecChoice): string {
  return `${choice.how}: ${choice.detail}`;
}

/** One phrase for the verdict line and every report: `spec 1.1, detected: its events declare schema_version "1.1.0"`. */
export function describeSpec(choice: SpecChoice): string {
  return `spec ${choice.version}, ${describeSpecChoice(choice)}`;
}

/** The choice reported for a transformer that emitted nothing to read a version from. */
export const unobservedSpec: SpecChoice = { version: defaultSpec, how: 'default', detail: 'it emitted no event to read a schema_version from' };
