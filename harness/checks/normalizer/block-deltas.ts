/**
 * BLK-IDX-002: every delta and stop carries the index of its own block (seed 003 §3.1:
 * `sse_event_data["index"] = llm_internal_index_to_frontend_sse_index[llm_original_idx]`), also
 * when the LLM reuses its index in a later message.
 *
 * "Its own block" is the block the implementation itself started: the check compares a delta's
 * index with the index the output gave that block's start, so a wrong allocation is BLK-IDX-001's
 * finding alone. Deltas are paired with the model's by type and text in order; stops by order.
 * An output delta carrying the text of a refused input is BLK-IDX-004's (a guess), not this one's.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { at, blockIndexer, brief, type ActualEvent } from './actual.ts';
import type { ExpectedEvent, ExpectedTurn } from './expected-model.ts';
import { outcomeOf } from './outcome.ts';
import type { TurnCase } from './types.ts';

const requirement = 'BLK-IDX-002';
const deltaTypes = new Set(['text_delta', 'tool_use_input_delta']);

function payloadOf(e: ActualEvent): unknown {
  return e.type === 'text_delta' ? e.data.text : e.data.partial_json;
}

export function checkBlockDeltas(c: TurnCase, expected: ExpectedTurn, actual: readonly ActualEvent[]): CheckOutcome {
  const findings: Finding[] = [];
  const add = (code: string, path: string, message: string, exp?: unknown, act?: unknown) =>
    findings.push({ requirement, code, path, message, ...(exp !== undefined ? { expected: exp } : {}), ...(act !== undefined ? { actual: act } : {}) });
  const indexOfBlock = blockIndexer(actual);
  const checkIndex = (exp: ExpectedEvent, e: ActualEvent) => {
    const want = indexOfBlock(exp.block!);
    // A block the output never started is BLK-IDX-001's finding (block-count).
    if (want === undefined) return;
    if (e.data.index !== want) {
      add(e.type === 'content_block_stop' ? 'stop-index' : 'delta-index', at(c, e.pos, '/data/index'),
        `${c.label}: this ${e.type} belongs to block ${exp.block} (input event ${exp.input}), which the output started with index ${want}, but it carries ${JSON.stringify(e.data.index ?? null)}`, want, e.data.index ?? null);
    }
  };

  const expDeltas = expected.events.filter((e) => deltaTypes.has(e.type));
  const actDeltas = actual.filter((e) => deltaTypes.has(e.type));
  const paired = new Set<number>();
  let from = 0;
  for (const exp of expDeltas) {
    let k = from;
    while (k < actDeltas.length && (actDeltas[k]!.type !== exp.type || payloadOf(actDeltas[k]!) !== exp.payload)) k++;
    const e = actDeltas[k];
    if (!e) {
      add('delta-missing', `${c.pathPrefix}input[${exp.input}]`, `${c.label}: input event ${exp.input} gives a ${exp.type} ${JSON.stringify(exp.payload)} for block ${exp.block}; the output has none after the previous delta`, { event_type: exp.type, payload: exp.payload });
      continue;
    }
    paired.add(k);
    from = k + 1;
    checkIndex(exp, e);
  }
  const refusedPayloads = new Set(expected.refused.filter((r) => r.payload !== undefined).map((r) => `${r.deltaType}:${r.payload}`));
  actDeltas.forEach((e, k) => {
    if (paired.has(k) || refusedPayloads.has(`${e.type}:${String(payloadOf(e))}`)) return;
    add('unexpected-delta', at(c, e.pos), `${c.label}: this ${e.type} matches no delta of the input`, undefined, brief(e));
  });

  const expStops = expected.events.filter((e) => e.type === 'content_block_stop');
  const actStops = actual.filter((e) => e.type === 'content_block_stop');
  if (expStops.length !== actStops.length) {
    add('stop-count', `${c.pathPrefix}output`, `${c.label}: the input stops ${expStops.length} blocks, the output has ${actStops.length} content_block_stop events`, expStops.length, actStops.length);
  }
  expStops.forEach((exp, i) => { if (actStops[i]) checkIndex(exp, actStops[i]); });

  for (const [i, entry] of (c.expectBlocks ?? []).entries()) {
    if (!deltaTypes.has(entry.type) && entry.type !== 'content_block_stop') continue;
    if (!actual.some((e) => e.type === entry.type && e.data.index === entry.index)) {
      add('expected-block-missing', `/expect/blocks/${i}`, `${c.label}: no ${entry.type} with index ${entry.index} in the output`, entry);
    }
  }
  return outcomeOf(requirement, c.scenario, findings);
}
