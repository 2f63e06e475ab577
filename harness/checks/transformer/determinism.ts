/**
 * ABE-DET-001 (adk-wire-format §7: both servers serialize the same camelCase events): the same run
 * gives the same briefings when it is fed again to a fresh instance, and when it is rendered in
 * each other dialect (every server's bytes, ids and timestamps; a scenario pinned to its own
 * dialect by captured bytes has none). Compared modulo what legitimately differs
 * (docs/transform-contract.md "Output"): `event_id`, `timestamp` and `correlation_id`; across
 * dialects only what the mapping fixes is compared (`fixedPart` below), and only between renderings
 * that mean the same run (`meaning` below); `parent_event_id` is compared as the position of the
 * event it names.
 * Byte splits never reach a stdio transformer (it gets whole data fields), so they need no run.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation, TransformerRun } from './observation.ts';
import { finding, judge, untested } from './outcome.ts';
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
 * What the mapping fixes of one event (docs/briefing-mapping.md "Fields": the rows marked `exact`),
 * read from the mapping itself so the two never drift. Two servers write the same run with other
 * words (`"msg"` against `"ValueError: msg"`, `agentName` against `agent_name` in a transfer's
 * arguments), so across dialects only this is compared; fed the same bytes again, everything is.
 * A field whose row fixes only part of it says which part (its `how`).
 */
const exactFields: readonly string[] = loadMapping().fields.filter((f) => f.compared === 'exact').map((f) => f.field);

const pick = (v: unknown, keys: readonly string[]): unknown => (v !== null && typeof v === 'object' && !Array.isArray(v)
  ? Object.fromEntries(keys.filter((k) => Object.hasOwn(v, k)).map((k) => [k, (v as Record<string, unknown>)[k]]))
  : v);

/** Rows that fix part of a field: "citations count and citationSources; other citation fields free", the ledger's three numbers. */
const partOf: Readonly<Record<string, (v: unknown) => unknown>> = {
  'proof_layer.citations': (v) => (Array.isArray(v) ? v.map((c) => pick(c, ['source'])) : v),
  'proof_layer.confidence_ledger': (v) => {
    const ledger = pick(v, ['inputs', 'analysis_confidence', 'recommendation_confidence']) as Record<string, unknown> | null | undefined;
    if (!ledger || typeof ledger !== 'object' || !Array.isArray(ledger.inputs)) return ledger;
    // Each input's `notes` is free text (seed 000 §3.3 rule 4); its source, confidence and tier are stated.
    return { ...ledger, inputs: ledger.inputs.map((i) => pick(i, ['source', 'confidence', 'tier'])) };
  },
};

/** A dotted path's keys, split once per field: a flood of 70,000 events was split twice per field per event. */
const keysOf = new Map<string, readonly string[]>();
const keys = (path: string): readonly string[] => {
  let k = keysOf.get(path);
  if (!k) { k = path.split('.'); keysOf.set(path, k); }
  return k;
};

function at(value: Record<string, unknown>, path: string): unknown {
  let v: unknown = value;
  for (const key of keys(path)) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

/** Set `path` (dotted) in `out`, so a difference's pointer reads as the event's own (`/proof_layer/confidence`). */
function put(out: Record<string, unknown>, path: string, v: unknown): void {
  const k = keys(path);
  let o = out;
  for (let i = 0; i < k.length - 1; i++) o = (o[k[i] as string] ??= {}) as Record<string, unknown>;
  o[k[k.length - 1] as string] = v;
}

/**
 * An event as the mapping fixes it: its `exact` fields, whether a COMPLETE carries the final text,
 * the position its parent names (the
 * `checked` row: "the announcing STATUS event"), and whether it carries a degradation notice (the
 * `checked` row: "present exactly when the tier asks for it; wording free").
 */
function fixedPart(value: Record<string, unknown>, finalText: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // The `checked` detail row: "the COMPLETE INSIGHT's detail holds the run's final text" (as ABE-LIFE-004 reads it); other wording free.
  if (value.state === 'COMPLETE' && finalText !== undefined) {
    const content = value.content as Record<string, unknown> | undefined;
    put(out, 'content.detail', (content?.detail ?? content?.summary) === finalText ? '(the final text)' : '(not the final text)');
  }
  for (const field of exactFields) {
    const v = at(value, field);
    if (v !== undefined) put(out, field, partOf[field] ? partOf[field](v) : v);
  }
  const notice = at(value, 'content.degradation_notice');
  if (notice !== undefined && notice !== null) put(out, 'content.degradation_notice', '(present)');
  return out;
}

const id = 'ABE-DET-001';

/**
 * Each event of a run as it is compared, made when it is compared: a run's events one pair at a
 * time, not two whole copies first (a transformer that floods its output to the harness's limit
 * wrote some 70,000 events, and the copies were most of the certification's garbage collection).
 */
function comparable(run: TransformerRun, acrossDialects: boolean, finalText: string | undefined): { length: number; event: (i: number) => unknown } {
  const position = new Map<unknown, number>();
  for (const e of run.events) if (!position.has(e.value.event_id)) position.set(e.value.event_id, e.index);
  return {
    length: run.events.length,
    event: (i) => {
      const { event_id: _id, timestamp: _t, correlation_id: _c, parent_event_id: parent, ...rest } = (run.events[i] as TransformerRun['events'][number]).value;
      const out: Record<string, unknown> = acrossDialects ? fixedPart(rest, finalText) : rest;
      if (parent !== undefined) out.parent_event_id = parent === null ? null : position.has(parent) ? `#${position.get(parent)}` : 'dangling';
      return out;
    },
  };
}

/** firstDifference of the two runs' compared events, as if both were arrays: `/i/...`. */
function firstEventDifference(a: ReturnType<typeof comparable>, b: ReturnType<typeof comparable>): { path: string; a: unknown; b: unknown } | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i >= a.length || i >= b.length) return { path: `/${i}`, a: i < a.length ? a.event(i) : undefined, b: i < b.length ? b.event(i) : undefined };
    const d = firstDifference(a.event(i), b.event(i), `/${i}`);
    if (d) return d;
  }
  return undefined;
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

/** The first difference of two runs compared (as a repeat, or across dialects), as `event[i]/path`, long texts cut. */
function eventDifference(base: TransformerRun, other: TransformerRun, acrossDialects: boolean, finalText: string | undefined): { path: string; a: unknown; b: unknown } | undefined {
  const d = firstEventDifference(comparable(base, acrossDialects, finalText), comparable(other, acrossDialects, finalText));
  if (!d) return undefined;
  const m = /^\/(\d+)(.*)$/.exec(d.path);
  const short = (v: unknown) => (typeof v === 'string' && v.length > 200 ? `${v.slice(0, 199)}…` : v === undefined ? '(absent)' : v);
  return { path: m ? `event[${m[1]}]${m[2]}` : 'output', a: short(d.a), b: short(d.b) };
}

/**
 * The first difference between two runs of the same frames, compared as a repeat is (event ids,
 * timestamps and correlation ids free; a parent as the position it names), as `event[i]/path`.
 */
export function runDifference(base: TransformerRun, other: TransformerRun): { path: string; a: unknown; b: unknown } | undefined {
  return eventDifference(base, other, false, undefined);
}

function compare(label: string, base: TransformerRun, other: TransformerRun, finalText: string | undefined): Finding | undefined {
  const d = eventDifference(base, other, label !== 'repeat', finalText);
  if (!d) return undefined;
  return finding(id, label === 'repeat' ? 'briefings-differ-between-runs' : 'briefings-differ-between-dialects', d.path,
    label === 'repeat' ? `feeding the same frames again gives different briefings at ${d.path}` : `the ${label} rendering of the same run gives different briefings at ${d.path}`,
    d.a, d.b);
}

export function checkDeterminism(obs: TransformerObservation): CheckOutcome[] {
  // An output the harness stopped at its limit is no observation of determinism: each run is cut
  // where a read happened to end (ABE-TERM-001 reports the overflow). The runner feeds no second run then.
  const kept = (r: TransformerRun) => !r.exit.overflowed;
  if (!kept(obs.run)) return [untested(id, obs.scenario.id, 'not compared: the judged run wrote more than the harness keeps and was stopped, so no second run was fed')];
  if (!obs.repeat && (obs.others ?? []).length === 0) return [];
  // A run cut short by its time bound shows where the clock stopped, not what the implementation
  // gives: it is no observation of determinism (ABE-TERM-001 reports the hang of the judged run).
  const whole = (r: TransformerRun) => !r.exit.timedOut;
  // Renderings compared mean the same run, so they give the same final answer (`meaning` holds it).
  const finalText = frameFacts(obs).final?.text;
  const findings: Finding[] = [];
  let compared = 0;
  const timedOut: string[] = [];
  const overflowed: string[] = [];
  const against = (label: string, other: TransformerRun) => {
    const name = label === 'repeat' ? 'the repeat run' : `the ${label} run`;
    if (!whole(obs.run) || !whole(other)) { timedOut.push(name); return; }
    if (!kept(obs.run) || !kept(other)) { overflowed.push(name); return; }
    compared++;
    const f = compare(label, obs.run, other, finalText);
    if (f) findings.push(f);
  };
  if (obs.repeat) against('repeat', obs.repeat);
  for (const other of sameRun(obs).same) against(other.dialect, other.run);
  if (compared === 0) {
    return [untested(id, obs.scenario.id, timedOut.length > 0
      ? `timed out: ${!whole(obs.run) ? 'the judged run' : timedOut.join(' and ')} did not finish within its bound, so no two whole runs could be compared`
      : overflowed.length > 0
        ? `not compared: ${overflowed.join(' and ')} wrote more than the harness keeps and was stopped, so no two whole runs could be compared`
        : 'no second run of the same meaning was fed (the other renderings mean other runs), so nothing was compared')];
  }
  return [judge(id, obs.scenario.id, findings)];
}
