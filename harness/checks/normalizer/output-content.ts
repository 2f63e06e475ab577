/**
 * BLK-OUT-001: the output is the input with only its indices changed. Seed 003 §3.1 copies each
 * event's data (`sse_event_data = llm_event.get("data", {}).copy()`) and changes its `index`;
 * docs/normalizer.md's mapping says which data each output event carries, that refused input is an
 * `error` event with the contract's reason (and, on stdio, its line number in `data.line`), and
 * that the turn ends with `block_not_stopped` for each block left open.
 *
 * Owned by other checks, and left out here so that one defect is one requirement's finding: every
 * `index` (BLK-IDX-001..003), which deltas, starts and stops exist (BLK-IDX-001/002), refusals of
 * unknown indices (BLK-IDX-004) and stream_end (BLK-FLOW-002). What is left is compared in order:
 * the index-free events, tool completions, results and errors, and the other refusals; the data of
 * each block start; and a tool's completion after its own content_block_stop.
 * `data.message` is free wording (a parser's message differs by language).
 */
import { isDeepStrictEqual } from 'node:util';
import type { CheckOutcome, Finding } from '../../model.ts';
import { at, startTypes, type ActualEvent } from './actual.ts';
import type { ExpectedTurn } from './expected-model.ts';
import { outcomeOf } from './outcome.ts';
import type { TurnCase } from './types.ts';

const requirement = 'BLK-OUT-001';
const ownedTypes = new Set(['message_start', 'message_delta', 'llm_call_completed', 'ping', 'tool_use_input_complete', 'tool_result', 'tool_execution_error', 'error']);
const indexReasons = new Set(['unknown_block_index', 'block_already_stopped']);

type Comparable = { type: string; data: Record<string, unknown>; where: string; said: string };

function withoutIndex(data: Record<string, unknown>): Record<string, unknown> {
  const { index: _index, message: _message, ...rest } = data;
  return rest;
}

/** What of an error event is compared: its reason, the line it names (stdio), and for block_not_stopped that it names none. */
function errorView(data: Record<string, unknown>, lines: boolean): Record<string, unknown> {
  return lines ? { reason: data.reason, line: data.line } : { reason: data.reason };
}

export function checkOutputContent(c: TurnCase, expected: ExpectedTurn, actual: readonly ActualEvent[], lines: boolean): CheckOutcome {
  const findings: Finding[] = [];
  const add = (code: string, path: string, message: string, exp?: unknown, act?: unknown) =>
    findings.push({ requirement, code, path, message, ...(exp !== undefined ? { expected: exp } : {}), ...(act !== undefined ? { actual: act } : {}) });
  const lineOf = (input: number) => (input >= 0 ? ` (line ${input + 1})` : '');

  // The expected sequence: the model's events with each refusal placed where its input comes.
  const want: Comparable[] = [];
  const refusals = expected.refused.filter((r) => r.kind !== 'unknown-index');
  let r = 0;
  expected.events.forEach((e, k) => {
    for (; r < refusals.length && refusals[r]!.at <= k; r++) {
      const x = refusals[r]!;
      const data = x.input >= 0 ? { reason: x.reason, line: x.input + 1 } : { reason: x.reason, line: undefined };
      want.push({ type: 'error', data: errorView(data, lines), where: x.input >= 0 ? `${c.pathPrefix}input[${x.input}]` : `${c.pathPrefix}end`, said: x.input >= 0 ? `input event ${x.input}${lineOf(x.input)}` : `the end of input (block ${x.block} left open)` });
    }
    if (ownedTypes.has(e.type)) want.push({ type: e.type, data: e.data, where: `${c.pathPrefix}input[${e.input}]`, said: `input event ${e.input}${lineOf(e.input)}` });
  });
  const got: Comparable[] = actual
    .filter((e) => ownedTypes.has(e.type) && !(e.type === 'error' && indexReasons.has(String(e.data.reason))))
    .map((e) => ({ type: e.type, data: e.type === 'error' ? errorView(e.data, lines) : withoutIndex(e.data), where: at(c, e.pos), said: `output event ${e.pos}` }));

  const same = (a: Comparable, b: Comparable) => a.type === b.type && isDeepStrictEqual(a.data, b.data);
  let i = 0;
  let j = 0;
  while (i < want.length || j < got.length) {
    const w = want[i];
    const g = got[j];
    if (w && g && same(w, g)) { i++; j++; continue; }
    if (w && g && w.type === g.type) {
      add(w.type === 'error' ? 'error-data' : 'data-changed', g.where, `${c.label}: ${w.said} gives ${w.type} ${JSON.stringify(w.data)}; ${g.said} is ${w.type} ${JSON.stringify(g.data)}`, { event_type: w.type, data: w.data }, { event_type: g.type, data: g.data });
      i++; j++; continue;
    }
    // Resynchronise: an expected event found further on means the ones before it are extra, and the reverse.
    const later = g ? want.slice(i).findIndex((x) => same(x, g)) : -1;
    const extraLater = w ? got.slice(j).findIndex((x) => same(w, x)) : -1;
    if (w && (extraLater < 0 || (later >= 0 && later <= extraLater) || !g)) {
      add(w.type === 'error' ? 'error-missing' : 'event-missing', w.where, `${c.label}: ${w.said} gives ${w.type} ${JSON.stringify(w.data)}; the output has none where it belongs`, { event_type: w.type, data: w.data });
      i++; continue;
    }
    if (g) {
      add(g.type === 'error' ? 'unexpected-error' : 'unexpected-event', g.where, `${c.label}: ${g.said} (${g.type} ${JSON.stringify(g.data)}) comes from no input at this place`, undefined, { event_type: g.type, data: g.data });
      j++;
    }
  }

  // Block starts: the n-th start's data is the n-th block's. How many there are is BLK-IDX-001's:
  // with one missing or extra, the pairing says nothing.
  const wantStarts = expected.events.filter((e) => e.type === 'text_block_start' || e.type === 'tool_use_start');
  const gotStarts = actual.filter((e) => startTypes.has(e.type));
  if (wantStarts.length === gotStarts.length) wantStarts.forEach((w, n) => {
    const g = gotStarts[n];
    if (g && g.type === w.type && !isDeepStrictEqual(withoutIndex(g.data), w.data)) {
      add('start-data-changed', at(c, g.pos, '/data'), `${c.label}: input event ${w.input}${lineOf(w.input)} starts block ${n} as ${w.type} ${JSON.stringify(w.data)}; the output starts it with ${JSON.stringify(withoutIndex(g.data))}`, w.data, withoutIndex(g.data));
    }
  });

  // "content_block_stop of a tool_use: then tool_use_input_complete": both answer the stop, in that order.
  actual.forEach((done, k) => {
    if (done.type !== 'tool_use_input_complete') return;
    const before = actual[k - 1];
    if (before?.type !== 'content_block_stop') {
      add('complete-not-after-stop', at(c, done.pos), `${c.label}: tool_use_input_complete for ${JSON.stringify(done.data.tool_use_id)} follows ${before ? before.type : 'nothing'}; it comes right after its block's content_block_stop`, 'content_block_stop, then tool_use_input_complete', before ? `${before.type}, then tool_use_input_complete` : 'tool_use_input_complete first');
    }
  });
  return outcomeOf(requirement, c.scenario, findings);
}
