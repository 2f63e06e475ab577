/**
 * The client checks (CLI-*): what the client reported for one byte stream against what the kit's
 * own reader and completion rule expect (expected.ts). A difference is attributed to the
 * requirement it shows broken, so a defect fails its own requirement wherever it shows: a kept
 * leading space is CLI-SPLIT-001 on any stream (every server writes `data: `) and CLI-DATA-004 on the
 * one-space case, an event dispatched from inside an unfinished one is CLI-EOF-001; a difference
 * nothing more specific explains fails the case's own requirements.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { finding, judge, untested } from '../transformer/outcome.ts';
import { isCompletedEnd, type EndName, type EndRecord, type EventRecord, type Expected } from './expected.ts';

/** One line the client wrote (command) or one record it reported (module), in order. */
export type ReportedRecord = { line: number; value: unknown };

export type ClientCase = {
  /** Outcome scenario: the scenario id, or `probe:<id>`. */
  scenario: string;
  /** Names the stream in messages (the scenario id, or the probe's case). */
  label: string;
  /** The requirements this stream exercises besides the end and the record format. */
  requirements: readonly string[];
  expected: Expected;
  /**
   * Requirements this client already met on the same content written whole (the byte probe's
   * earlier cases): a difference of that kind on this stream is the split's doing, so it fails
   * the case's own requirement (CLI-CHUNK-001) instead.
   */
  metWhole?: readonly string[];
  /**
   * `parsed`: the client reports each event's data as the value it parses to (`{"value": ...}`),
   * as libraries that yield event objects do (issue 31 §3). Events are then compared as values;
   * what only raw text shows is not judged (parsedFormBlind).
   */
  form?: 'raw' | 'parsed';
  /**
   * Parsed form: the positions (in the raw expected events) of data that parses to no object (a
   * legacy error line, `[DONE]`, text). What a library makes of them is its own: a record there may
   * hold any value, or be absent.
   */
  freeSlots?: readonly number[];
};

/** What a client that reports parsed values cannot show: differences JSON.parse erases. */
export const parsedFormBlind: Readonly<Record<string, string>> = {
  'CLI-DATA-003': 'the client reports parsed values (recordForm "parsed"): whether the data lines of an event were joined with LF is erased by JSON.parse, so it is judged on raw text only',
  'CLI-DATA-004': 'the client reports parsed values (recordForm "parsed"): a space kept or lost after the colon is erased by JSON.parse, so it is judged on raw text only',
};

export type ClientOutput = {
  records: ReportedRecord[];
  /** Lines that are no JSON at all (command mode), with the reason. */
  problems: Array<{ line: number; text: string; reason: string }>;
  /** Nothing could be observed (not started, threw at once): every requirement is untested. */
  unusable?: string;
  /**
   * The client did not end the run by itself within the bound: it hung (no end record at all), or
   * on a held-open connection it ended only once the harness closed its stdin. Says which bound.
   */
  hang?: string;
  /** At the bound its process was still working, not waiting on its input: an overrun, named as one. */
  overran?: true;
};

const endNames: ReadonlySet<string> = new Set<EndName>(['eof', 'done-sentinel', 'final-rule', 'idle', 'error-frame', 'cut', 'http-error', 'aborted']);

export const endRequirement = (end: EndName): string => (end === 'error-frame' ? 'CLI-END-002' : end === 'cut' ? 'CLI-END-003' : end === 'http-error' ? 'CLI-HTTP-001' : 'CLI-END-001');

const clip = (s: string, n = 160): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parse the reported records into events and the end, with a finding per malformed one (CLI-OUT-001). */
function parseRecords(c: ClientCase, out: ClientOutput): { events: EventRecord[]; ends: Array<{ index: number; end: EndRecord }>; findings: Finding[] } {
  const parsedForm = c.form === 'parsed';
  const events: EventRecord[] = [];
  const ends: Array<{ index: number; end: EndRecord }> = [];
  const findings: Finding[] = out.problems.map((p) => finding('CLI-OUT-001', 'not-json', `line ${p.line}`, `${c.label}: output line ${p.line} is not a record: ${p.reason}`, 'one JSON object per line', clip(p.text)));
  out.records.forEach((r, index) => {
    const v = r.value;
    const bad = (why: string) => findings.push(finding('CLI-OUT-001', 'invalid-record', `line ${r.line}`, `${c.label}: record ${r.line} ${why}`, `${parsedForm ? '{"value": <the parsed data>' : '{"data": string'}, "event"?: string, "id"?: string} or {"end": ..., "completed": boolean}`, clip(JSON.stringify(v) ?? String(v))));
    if (!isRecord(v)) { bad('is not a JSON object'); return; }
    if ('end' in v) {
      if (typeof v.end !== 'string' || !endNames.has(v.end)) { bad(`names an unknown end ${JSON.stringify(v.end)}`); return; }
      if (typeof v.completed !== 'boolean') { bad('has no boolean "completed"'); return; }
      if (v.completed !== isCompletedEnd(v.end as EndName)) { bad(`says completed ${String(v.completed)} for end ${v.end}, which is ${isCompletedEnd(v.end as EndName) ? '' : 'not '}a completed run`); return; }
      ends.push({ index, end: { end: v.end as EndName, completed: v.completed, ...(typeof v.status === 'number' ? { status: v.status } : {}), ...(typeof v.error === 'string' ? { error: v.error } : {}) } });
      return;
    }
    if (parsedForm) {
      if (!('value' in v)) { bad('has no "value" (the client declared recordForm "parsed")'); return; }
    } else if (typeof v.data !== 'string') { bad('has no string "data"'); return; }
    if (v.event !== undefined && typeof v.event !== 'string') { bad('has an "event" that is not a string'); return; }
    if (v.id !== undefined && typeof v.id !== 'string') { bad('has an "id" that is not a string'); return; }
    if (ends.length > 0) findings.push(finding('CLI-OUT-001', 'event-after-end', `line ${r.line}`, `${c.label}: an event record follows the end record`, 'the end record last', clip(JSON.stringify(v))));
    // A parsed value is compared as its canonical JSON; one that is no object or array (a `[DONE]`
    // or a text event reported as a string) stands for data that parses to no event object.
    if (parsedForm && !isStructured(v.value)) return;
    events.push({ data: parsedForm ? canonical(v.value) : (v.data as string), ...(typeof v.event === 'string' ? { event: v.event } : {}), ...(typeof v.id === 'string' ? { id: v.id } : {}) });
  });
  // A hang is judged as one, against the end (checkClient): not also as a missing record.
  if (ends.length === 0 && out.hang === undefined) findings.push(finding('CLI-OUT-001', 'no-end-record', 'end', `${c.label}: no end record; the client must report how the run ended, last`, '{"end": ..., "completed": ...}', 'nothing'));
  if (ends.length > 1) findings.push(finding('CLI-OUT-001', 'several-end-records', 'end', `${c.label}: ${ends.length} end records; exactly one is reported`, 1, ends.length));
  return { events, ends, findings };
}

/**
 * Whether `actual` is an id the client may report for expected event `i`: the event's own `id:`;
 * for an event without one, none or the last event ID still in effect (WHATWG keeps the buffer
 * until the next `id:`, eventsource-parser reports each event's own); an empty id may be left out.
 */
function idAllowed(actual: string | undefined, expected: Expected, i: number): boolean {
  const own = expected.events[i]?.id;
  return actual === (own ?? expected.lastEventIds?.[i]) || (actual === undefined && (own === undefined || own === ''));
}

/** Event `i` as reported matches the expected one (`e`, from `x`). */
const matches = (a: EventRecord, x: Expected, i: number): boolean => {
  const e = x.events[i];
  return e !== undefined && a.data === e.data && a.event === e.event && idAllowed(a.id, x, i);
};
const prefixEqual = (a: readonly EventRecord[], x: Expected, n: number): boolean => a.length === n && a.every((r, i) => matches(r, x, i));
const sameContent = (a: readonly EventRecord[], e: readonly EventRecord[]): boolean => a.length === e.length && a.every((r, i) => r.data === e[i]?.data && r.event === e[i]?.event);

/** Every differing value is the expected one with one more leading space on some line. */
function keptSpace(actual: string | undefined, expected: string | undefined): boolean {
  if (actual === expected) return true;
  if (actual === undefined || expected === undefined) return false;
  const a = actual.split('\n');
  const e = expected.split('\n');
  return a.length === e.length && a.every((line, i) => line === e[i] || line === ` ${e[i]}`);
}

/** The dispatch differences, each attributed to the requirement it breaks. */
function compareEvents(c: ClientCase, actual: EventRecord[], reported?: EndRecord): Finding[] {
  const expected = c.expected.events;
  if (prefixEqual(actual, c.expected, expected.length)) return [];
  // The final-answer rule applied too soon (a sub-agent's answer taken for the root's): the events
  // are right as far as they go, and the run was ended before the rest came.
  if (c.expected.end.end === 'final-rule' && reported?.end === 'final-rule' && actual.length < expected.length && prefixEqual(actual, c.expected, actual.length)) {
    const show = expected[actual.length];
    // Its grace ran out before the rest came: a busy machine's doing as well as a wrong root, so repeated alone first.
    return [{ ...finding('CLI-END-001', 'ended-before-root-answer', `event[${actual.length}]`, `${c.label}: the client ended the held-open run by the final-answer rule after ${actual.length} event(s), ${expected.length - actual.length} before the root agent's own final answer; only the root agent's answer (the run's first author) ends the run with the short grace, a sub-agent's waits the idle window`, show === undefined ? 'nothing' : { ...show, data: clip(show.data) }, 'the run ended'), timing: true as const }];
  }
  // `[DONE]` is a marker, not an event a handler gets: a client may report it as a record or not.
  const last = expected[expected.length - 1];
  if (c.expected.end.end === 'done-sentinel' && last?.data.trim() === '[DONE]' && prefixEqual(actual, c.expected, expected.length - 1)) return [];
  const own = c.requirements.filter((r) => r.startsWith('CLI-') && !r.startsWith('CLI-END') && !r.startsWith('CLI-OUT'));
  const mine = (code: string, path: string, message: string, exp?: unknown, act?: unknown): Finding[] => (own.length > 0 ? own : ['CLI-SPLIT-001']).map((id) => finding(id, code, path, `${c.label}: ${message}`, exp, act));
  const show = (e: EventRecord | undefined) => (e === undefined ? 'nothing' : { ...e, data: clip(e.data) });
  if (actual.length !== expected.length) {
    const nonEmpty = (list: readonly EventRecord[]) => list.filter((e) => e.data !== '' || e.event !== undefined);
    if (actual.length > expected.length && sameContent(nonEmpty(actual), nonEmpty(expected))) {
      // A block with only a `retry:` field is not blank; on the retry case the extra event is its.
      const owner = c.requirements.includes('CLI-RETRY-001') ? 'CLI-RETRY-001' : 'CLI-COMMENT-001';
      return [finding(owner, 'empty-event-dispatched', 'events', `${c.label}: ${actual.length - expected.length} event(s) with no data were dispatched for comment or blank lines`, expected.length, actual.length)];
    }
    if (c.expected.unterminated !== undefined && actual.length === expected.length + 1 && prefixEqual(actual.slice(0, -1), c.expected, expected.length) && actual[actual.length - 1]?.data === c.expected.unterminated) {
      return [finding('CLI-EOF-001', 'unterminated-dispatched', `event[${expected.length}]`, `${c.label}: the event the stream ended inside of (no blank line after it) was dispatched`, 'not dispatched', show(actual[actual.length - 1]))];
    }
    const terminal = c.expected.end.end === 'error-frame' || c.expected.end.end === 'done-sentinel';
    if (terminal && actual.length > expected.length && prefixEqual(actual.slice(0, expected.length), c.expected, expected.length)) {
      return [finding(c.expected.end.end === 'error-frame' ? 'CLI-END-002' : 'CLI-END-001', 'dispatched-after-terminal', `event[${expected.length}]`, `${c.label}: ${actual.length - expected.length} event(s) dispatched after the ${c.expected.end.end === 'error-frame' ? 'error frame' : '[DONE] sentinel'} that ended the run`, expected.length, actual.length)];
    }
    const at = expected.findIndex((_e, i) => !actual[i] || !matches(actual[i] as EventRecord, c.expected, i));
    const i = at < 0 ? expected.length : at;
    return mine('event-count', `event[${i}]`, `${actual.length} event(s) dispatched, ${expected.length} expected; the first difference is event ${i}`, show(expected[i]), show(actual[i]));
  }
  const out: Finding[] = [];
  actual.forEach((a, i) => {
    const e = expected[i] as EventRecord;
    if (matches(a, c.expected, i)) return;
    if (keptSpace(a.data, e.data) && keptSpace(a.event, e.event) && (a.data !== e.data || a.event !== e.event)) {
      // Every server writes `data: `: keeping that space changes every event (CLI-SPLIT-001); the
      // one-space case's `data:` without a space and `data:  ` with two are robustness (CLI-DATA-004).
      out.push(finding(c.requirements.includes('CLI-DATA-004') ? 'CLI-DATA-004' : 'CLI-SPLIT-001', 'leading-space-kept', `event[${i}]`, `${c.label}: event ${i} kept the space after the colon that a field value loses`, show(e), show(a)));
    } else if (a.data !== e.data) {
      out.push(...mine('data-differs', `event[${i}].data`, `event ${i} was dispatched with other data than the stream holds`, clip(e.data), clip(a.data)));
    } else if (a.event !== e.event && c.metWhole?.includes('CLI-EVENT-001')) {
      out.push(...mine('event-field-split', `event[${i}].event`, `event ${i} was reported with event ${JSON.stringify(a.event)}, the stream named it ${JSON.stringify(e.event)}; the same field written whole was read right, so the split lost it`, e.event ?? 'no event field', a.event ?? 'no event field'));
    } else if (a.event !== e.event) {
      out.push(finding('CLI-EVENT-001', 'event-field', `event[${i}].event`, `${c.label}: event ${i} was reported with event ${JSON.stringify(a.event)}, the stream named it ${JSON.stringify(e.event)}`, e.event ?? 'no event field', a.event ?? 'no event field'));
    } else {
      const last = c.expected.lastEventIds?.[i];
      const allowed = e.id !== undefined ? JSON.stringify(e.id) : `no id${last !== undefined ? ` or the last event ID ${JSON.stringify(last)}` : ''}`;
      out.push(finding('CLI-ID-002', 'id-field', `event[${i}].id`, `${c.label}: event ${i} was reported with id ${JSON.stringify(a.id)}; the stream allows ${allowed}`, allowed, a.id ?? 'no id'));
    }
  });
  return out;
}

function compareEnd(c: ClientCase, ends: Array<{ end: EndRecord }>): CheckOutcome {
  const want = c.expected.end;
  const req = endRequirement(want.end);
  const got = ends[ends.length - 1]?.end;
  if (!got) return untested(req, c.scenario, `${c.label}: the client reported no valid end record (CLI-OUT-001)`);
  const findings: Finding[] = [];
  if (got.end !== want.end) {
    // Ended by its own clock (the grace, the idle window) where the rule says otherwise: a busy machine
    // can do that to a correct client, so the run is repeated alone before this is reported.
    const clock = got.end === 'final-rule' || got.end === 'idle';
    findings.push({ ...finding(req, 'end-reason', 'end', `${c.label}: the run ended as ${got.end}; the kit's completion rule says ${want.end}`, want, got), ...(clock ? { timing: true as const } : {}) });
  }
  else if (want.status !== undefined && got.status !== want.status) findings.push(finding(req, 'end-status', 'end.status', `${c.label}: the server answered HTTP ${want.status} and the client reported status ${String(got.status)}`, want.status, got.status));
  else if (want.error !== undefined && !(typeof got.error === 'string' && (got.error.includes(want.error) || (c.expected.errorBody !== undefined && c.expected.errorBody.trim() !== '' && got.error.includes(c.expected.errorBody.trim()))))) {
    findings.push(finding(req, 'end-error-text', 'end.error', `${c.label}: the server's error text ${JSON.stringify(want.error)} is not in the end record; a caller cannot tell "session not found" from a validation error or a crash without it`, `an "error" holding ${JSON.stringify(want.error)}`, got.error ?? 'no error text'));
  }
  return judge(req, c.scenario, findings);
}

/** A hang fails the requirement of the end the client never reached by itself. */
function hangOutcome(c: ClientCase, req: string, hang: string, ends: Array<{ end: EndRecord }>, overran: boolean): CheckOutcome {
  const got = ends[ends.length - 1]?.end;
  return judge(req, c.scenario, [finding(req, 'hang', 'end', `${c.label}: the client ${overran ? 'overran its bound' : 'hung'}: ${hang}`, c.expected.end, got ?? 'no end record')]);
}

const isStructured = (v: unknown): boolean => typeof v === 'object' && v !== null;

/** JSON with sorted keys: a library may rebuild an object in another key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (isRecord(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}

/**
 * The case as a parsed-value client can be judged on it: the expected events whose data parses to
 * an object or array, as canonical JSON. A case with events but none of them JSON shows nothing
 * about its own requirements to such a client: they are left to the cases that can.
 */
function asParsed(c: ClientCase): ClientCase {
  const kept: number[] = [];
  const free: number[] = [];
  const events = c.expected.events.flatMap((e, i) => {
    const value = parsedOrUndefined(e.data);
    if (value === undefined) { free.push(i); return []; }
    kept.push(i);
    return [{ ...e, data: value }];
  });
  const blind = c.expected.events.length > 0 && events.length === 0;
  const lastEventIds = c.expected.lastEventIds ? kept.map((i) => c.expected.lastEventIds?.[i]) : undefined;
  return {
    ...c,
    requirements: (blind ? [] : c.requirements).filter((r) => parsedFormBlind[r] === undefined),
    freeSlots: free,
    expected: { ...c.expected, events, ...(lastEventIds ? { lastEventIds: lastEventIds as NonNullable<Expected['lastEventIds']> } : {}), ...(c.expected.unterminated !== undefined ? { unterminated: parsedOrUndefined(c.expected.unterminated) } : {}) },
  };
}

/**
 * The reported events with those standing at a free slot taken out: walking the raw expected
 * events, a free slot takes the next reported event unless that one is the next fixed event.
 */
function withoutFreeSlots(raw: ClientCase, c: ClientCase, actual: EventRecord[]): EventRecord[] {
  const free = new Set(c.freeSlots);
  const out: EventRecord[] = [];
  let j = 0;
  let fixed = 0;
  for (let i = 0; i < raw.expected.events.length && j <= actual.length; i++) {
    if (free.has(i)) {
      const next = c.expected.events[fixed];
      if (actual[j] !== undefined && !(next !== undefined && actual[j]?.data === next.data)) j++;
      continue;
    }
    if (actual[j] !== undefined) out.push(actual[j] as EventRecord);
    j++;
    fixed++;
  }
  return [...out, ...actual.slice(j)];
}

function parsedOrUndefined(data: string): string | undefined {
  try { const v: unknown = JSON.parse(data); return isStructured(v) ? canonical(v) : undefined; } catch { return undefined; }
}

export function checkClient(given: ClientCase, out: ClientOutput): CheckOutcome[] {
  const c = given.form === 'parsed' ? asParsed(given) : given;
  const endReq = endRequirement(c.expected.end.end);
  const all = [...new Set([...c.requirements, endReq, 'CLI-OUT-001'])];
  if (out.unusable !== undefined) return all.map((id) => untested(id, c.scenario, `${c.label}: ${out.unusable}`));
  const parsed = parseRecords(c, out);
  if (c.form === 'parsed' && (c.freeSlots?.length ?? 0) > 0) parsed.events = withoutFreeSlots(given, c, parsed.events);
  const findings = [...parsed.findings, ...compareEvents(c, parsed.events, parsed.ends[parsed.ends.length - 1]?.end)];
  const outcomes: CheckOutcome[] = [];
  const ids = [...new Set([...all, ...findings.map((f) => f.requirement)])].filter((id) => id !== endReq && !(c.form === 'parsed' && parsedFormBlind[id] !== undefined));
  for (const id of ids) outcomes.push(judge(id, c.scenario, findings.filter((f) => f.requirement === id)));
  const end = out.hang !== undefined ? hangOutcome(c, endReq, out.hang, parsed.ends, out.overran === true) : compareEnd(c, parsed.ends);
  const extra = findings.filter((f) => f.requirement === endReq);
  // An event after a terminal frame and a wrong end both fail the end's requirement: one outcome.
  if (extra.length > 0) outcomes.push({ ...end, status: 'failed', findings: [...extra, ...end.findings] });
  else outcomes.push(end);
  return outcomes;
}
