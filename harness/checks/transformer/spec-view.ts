/**
 * The checks read events in spec 1.0's vocabulary (INSIGHT, ALERT, ACTION, STATUS: seed 002 §2).
 * Under spec 1.1 an observation is seen through `canonicalView`, each event's `type` read as its
 * 1.0 name (`status_update` as STATUS), so one set of checks judges both versions; a type 1.1 does
 * not have stays as written, which only ABE-SCHEMA-002 judges. What the checks then say is put back
 * in 1.1's words (`inSpecWords`), so a 1.1 report never names a type its implementation cannot emit.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { canonicalType, canonicalTypes, typeName, type SpecVersion } from '../../spec-version.ts';
import type { EmittedEvent, TransformerObservation, TransformerRun } from './observation.ts';

function canonicalEvent(e: EmittedEvent, spec: SpecVersion): EmittedEvent {
  const type = canonicalType(e.value.type, spec);
  return type === undefined || type === e.value.type ? e : { ...e, value: { ...e.value, type } };
}

function canonicalRun(run: TransformerRun, spec: SpecVersion): TransformerRun {
  return { ...run, events: run.events.map((e) => canonicalEvent(e, spec)) };
}

/** The observation with every run's event types in 1.0's names; 1.0's own observation as it is. */
export function canonicalView(obs: TransformerObservation, spec: SpecVersion): TransformerObservation {
  if (spec === '1.0') return obs;
  return {
    ...obs,
    run: canonicalRun(obs.run, spec),
    ...(obs.repeat ? { repeat: canonicalRun(obs.repeat, spec) } : {}),
    ...(obs.others ? { others: obs.others.map((o) => ({ ...o, run: canonicalRun(o.run, spec) })) } : {}),
  };
}

const typeWord = new RegExp(`\\b(${canonicalTypes.join('|')})\\b`, 'g');

function words(text: string, spec: SpecVersion): string {
  return text.replace(typeWord, (t) => typeName(t as (typeof canonicalTypes)[number], spec));
}

/** A finding's value with every type name in `spec`'s spelling (strings equal to a 1.0 type name). */
function value(v: unknown, spec: SpecVersion): unknown {
  if (typeof v === 'string') return (canonicalTypes as readonly string[]).includes(v) ? typeName(v as (typeof canonicalTypes)[number], spec) : v;
  if (Array.isArray(v)) return v.map((x) => value(x, spec));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value(x, spec)]));
  return v;
}

function localFinding(f: Finding, spec: SpecVersion): Finding {
  return {
    ...f,
    message: words(f.message, spec),
    ...(f.expected !== undefined ? { expected: value(f.expected, spec) } : {}),
    ...(f.actual !== undefined ? { actual: value(f.actual, spec) } : {}),
  };
}

/** Outcomes of the 1.0-vocabulary checks, said in `spec`'s words (the schema check speaks for itself). */
/** `keep`: a reason already in the events' own words (the invalid-output reason quotes what they emitted). */
export function inSpecWords(outcomes: CheckOutcome[], spec: SpecVersion, except: ReadonlySet<string>, keep?: string): CheckOutcome[] {
  if (spec === '1.0') return outcomes;
  return outcomes.map((o) => (except.has(o.requirement) ? o : {
    ...o,
    findings: o.findings.map((f) => localFinding(f, spec)),
    ...(o.reason !== undefined && o.reason !== keep ? { reason: words(o.reason, spec) } : {}),
  }));
}
