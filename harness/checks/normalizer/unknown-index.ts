/**
 * BLK-IDX-004: a delta (or stop) for an LLM index no open block has is reported as an `error`
 * event with a reason, never attached to a guessed block. Seed 003 §3.1 offers "Fallback to
 * `frontend_sse_index_allocator - 1` or handle as an error"; the fallback is exactly the content
 * mixing seed 003 §2 was written to end, so the kit requires the error.
 *
 * An error event answers a refused input when it names it (`data.line` = its stdin line, or
 * `data.input` = the input itself), or, when it names no input at all, by count.
 */
import { isDeepStrictEqual } from 'node:util';
import type { CheckOutcome, Finding } from '../../model.ts';
import { at, brief, type ActualEvent } from './actual.ts';
import type { ExpectedTurn } from './expected-model.ts';
import { outcomeOf } from './outcome.ts';
import type { TurnCase } from './types.ts';

const requirement = 'BLK-IDX-004';

/** Undefined when the turn has no input for an unknown index: the requirement is not exercised by it. */
export function checkUnknownIndex(c: TurnCase, expected: ExpectedTurn, actual: readonly ActualEvent[], inputs: readonly unknown[]): CheckOutcome | undefined {
  const unknown = expected.refused.filter((r) => r.kind === 'unknown-index');
  if (unknown.length === 0) return undefined;
  const findings: Finding[] = [];
  const add = (code: string, path: string, message: string, exp?: unknown, act?: unknown) =>
    findings.push({ requirement, code, path, message, ...(exp !== undefined ? { expected: exp } : {}), ...(act !== undefined ? { actual: act } : {}) });

  const errors = actual.filter((e) => e.type === 'error');
  const names = (e: ActualEvent, input: number) => e.data.line === input + 1 || (e.data.input !== undefined && isDeepStrictEqual(e.data.input, inputs[input]));
  const namesAnyInput = (e: ActualEvent) => e.data.line !== undefined || e.data.input !== undefined;
  const used = new Set<number>();

  for (const r of unknown) {
    const what = `input event ${r.input} (a ${r.payload !== undefined ? 'delta' : 'content_block_stop'} for LLM index ${r.llmIndex}, which no open block of its message has)`;
    const answer = errors.find((e) => !used.has(e.pos) && names(e, r.input)) ?? errors.find((e) => !used.has(e.pos) && !namesAnyInput(e));
    if (!answer) {
      add('unknown-index-not-reported', `${c.pathPrefix}input[${r.input}]`, `${c.label}: ${what} gives no error event`, { event_type: 'error', data: { reason: '<a reason, e.g. unknown_block_index>' } }, errors.map(brief));
    } else {
      used.add(answer.pos);
      if (typeof answer.data.reason !== 'string' || answer.data.reason === '') {
        add('error-without-reason', at(c, answer.pos, '/data/reason'), `${c.label}: the error event for ${what} carries no reason`, 'a non-empty string', answer.data.reason ?? null);
      }
      if (answer.data.index !== undefined) {
        add('error-names-guessed-block', at(c, answer.pos, '/data/index'), `${c.label}: the error event for ${what} names block index ${JSON.stringify(answer.data.index)}; an unknown index has no block to name`, undefined, answer.data.index);
      }
    }
    if (r.payload === undefined) continue;
    // A delta of the output carrying the refused text, beyond those the input legitimately gives, is the guess.
    const legit = expected.events.filter((e) => e.type === r.deltaType && e.payload === r.payload).length;
    const carrying = actual.filter((e) => e.type === r.deltaType && (r.deltaType === 'text_delta' ? e.data.text : e.data.partial_json) === r.payload);
    for (const guessed of carrying.slice(legit)) {
      add('guessed-index', at(c, guessed.pos, '/data/index'), `${c.label}: ${what} was attached to block index ${JSON.stringify(guessed.data.index ?? null)} instead of being refused`, 'an error event', brief(guessed));
    }
  }
  return outcomeOf(requirement, c.scenario, findings);
}
