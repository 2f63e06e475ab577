/**
 * ABE-DET-001 (adk-wire-format §7: both servers serialize the same camelCase events): the same run
 * gives the same briefings when it is fed again to a fresh instance, and when it is rendered in
 * each other dialect (every server's bytes, ids and timestamps; a scenario pinned to its own
 * dialect by captured bytes has none). Compared modulo what legitimately differs
 * (docs/transform-contract.md "Output"): `event_id`, `timestamp` and `correlation_id`, and across
 * dialects also the fields the mapping leaves free, and only between renderings that mean the same
 * run (`meaning` below); `parent_event_id` is compared as the position
 * of the event it names.
 * Byte splits never reach a stdio transformer (it gets whole data fields), so they need no run.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation, TransformerRun } from './observation.ts';
import { finding, judge } from './outcome.ts';
import { loadMapping } from '../../mapping/index.ts';
import { frameFacts } from './frame-facts.ts';
import type { DialectRun } from './observation.ts';

/**
 * What a rendering means, free of how its server wrote it: who called what, which results and
 * failures came back, the answers, errors, refusals, audit entries and the final answer; not ids,
 * frame positions, timestamps or how text was split into chunks. Servers behave differently on
 * some runs (adk-js calls a coordinator again after a transfer, Python splits an artifact
 * change into its own event): there the renderings mean other runs and their briefings may differ.
 */
function meaning(obs: Pick<TransformerObservation, 'frames' | 'scenario'>): string {
  const f = frameFacts(obs);
  return JSON.stringify({
    calls: f.calls.map((c) => [c.author, c.name, c.kind, c.target]),
    results: f.results.map((r) => [r.author, r.name, r.kind, r.failure ?? null, r.text ?? null, r.structuredConfidence ?? null, r.skipSummarization]),
    answers: f.answers.map((a) => [a.author, a.text]),
    errors: f.errorCodes.map((e) => [e.author, e.code]),
    blocked: f.blocked.map((b) => [b.author, b.code]),
    audit: f.audit.map((a) => [a.type, a.agent ?? null, a.tool ?? null, a.confidence ?? null, a.dataSources, a.steps]),
    final: f.final ?? null,
  });
}

/** The other renderings that mean the same run as the main one (the only ones whose briefings must match). */
export function sameRun(obs: TransformerObservation): { same: DialectRun[]; other: DialectRun[] } {
  const main = meaning(obs);
  const same: DialectRun[] = [];
  const other: DialectRun[] = [];
  for (const run of obs.others ?? []) (meaning({ frames: run.frames, scenario: obs.scenario }) === main ? same : other).push(run);
  return { same, other };
}

/**
 * Fields the mapping leaves free (docs/briefing-mapping.md "Fields": their wording is the
 * implementation's). Two servers word the same failure differently (`"msg"` against `"ValueError:
 * msg"`), so across dialects these are not compared; fed the same bytes again, everything is.
 */
const freeFields: readonly string[] = loadMapping().fields.filter((f) => f.compared === 'free').map((f) => f.field);

function withoutFree(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = structuredClone(value);
  for (const field of freeFields) {
    const path = field.split('.');
    let at: unknown = out;
    for (const key of path.slice(0, -1)) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
    if (at !== null && typeof at === 'object') delete (at as Record<string, unknown>)[path[path.length - 1]!];
  }
  return out;
}

const id = 'ABE-DET-001';

function comparable(run: TransformerRun, acrossDialects = false): unknown[] {
  const position = new Map<unknown, number>();
  for (const e of run.events) if (!position.has(e.value.event_id)) position.set(e.value.event_id, e.index);
  return run.events.map(({ value }) => {
    const { event_id: _id, timestamp: _t, correlation_id: _c, parent_event_id: parent, ...rest } = value;
    const out: Record<string, unknown> = acrossDialects ? withoutFree(rest) : { ...rest };
    if (parent !== undefined) out.parent_event_id = parent === null ? null : position.has(parent) ? `#${position.get(parent)}` : 'dangling';
    return out;
  });
}

/** The JSON pointer of the first difference between two JSON values, or undefined when equal. */
export function firstDifference(a: unknown, b: unknown, path = ''): { path: string; a: unknown; b: unknown } | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return { path, a, b };
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) return { path: `${path}/${i}`, a: a[i], b: b[i] };
      const d = firstDifference(a[i], b[i], `${path}/${i}`);
      if (d) return d;
    }
    return undefined;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort()) {
    const d = firstDifference(ra[key], rb[key], `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (d) return d;
  }
  return undefined;
}

function compare(label: string, base: TransformerRun, other: TransformerRun): Finding | undefined {
  const across = label !== 'repeat';
  const d = firstDifference(comparable(base, across), comparable(other, across));
  if (!d) return undefined;
  const m = /^\/(\d+)(.*)$/.exec(d.path);
  const path = m ? `event[${m[1]}]${m[2]}` : 'output';
  const short = (v: unknown) => (typeof v === 'string' && v.length > 200 ? `${v.slice(0, 199)}…` : v === undefined ? '(absent)' : v);
  return finding(id, label === 'repeat' ? 'briefings-differ-between-runs' : 'briefings-differ-between-dialects', path,
    label === 'repeat' ? `feeding the same frames again gives different briefings at ${path}` : `the ${label} rendering of the same run gives different briefings at ${path}`,
    short(d.a), short(d.b));
}

export function checkDeterminism(obs: TransformerObservation): CheckOutcome[] {
  if (!obs.repeat && (obs.others ?? []).length === 0) return [];
  const findings: Finding[] = [];
  if (obs.repeat) { const f = compare('repeat', obs.run, obs.repeat); if (f) findings.push(f); }
  for (const other of sameRun(obs).same) { const f = compare(other.dialect, obs.run, other.run); if (f) findings.push(f); }
  return [judge(id, obs.scenario.id, findings)];
}
