/**
 * BLK-FLOW-003: each input line's events are written as it is read, not when the input ends. Seed
 * 003 §3.1 iterates the LLM's events and yields each modified event as it comes; the stdio contract
 * says "written before the next input line is read (flushed per line)". A frontend behind a filter
 * that buffers until the end sees a finished turn appear at once, which is what streaming is for.
 *
 * Observed when the turn's input was held open after its last line (stdin kept open until output
 * came, at most a bound; a module's `end()` called after every `feed`): output must have come
 * before the end. A filter that flushes every few lines passes; one that writes nothing until EOF
 * does not.
 */
import type { CheckOutcome } from '../../model.ts';
import type { ExpectedTurn } from './expected-model.ts';
import { outcomeOf } from './outcome.ts';
import type { NormalizerObservation, TurnCase } from './types.ts';

const requirement = 'BLK-FLOW-003';

/** Undefined when the input was not held open (generated turns): not observed there. */
export function checkFlushed(c: TurnCase, expected: ExpectedTurn, obs: NormalizerObservation): CheckOutcome | undefined {
  if (!obs.held) return undefined;
  // stream_end is the end's own event: anything else the input gives is due before the end.
  const due = expected.events.filter((e) => e.input >= 0).length + expected.refused.filter((r) => r.input >= 0).length;
  if (due === 0 || obs.held.outputBeforeEnd > 0 || obs.lines.length === 0) return outcomeOf(requirement, c.scenario, []);
  const how = obs.mode === 'command'
    ? `with stdin held open ${obs.held.heldMs} ms after the last of ${obs.inputs.length} lines, it wrote nothing; all ${obs.lines.length} output lines came after stdin closed`
    : `it emitted nothing while ${obs.inputs.length} input events were fed; all ${obs.lines.length} events came from end()`;
  return outcomeOf(requirement, c.scenario, [{
    requirement, code: 'buffered-until-end', path: `${c.pathPrefix}output`,
    message: `${c.label}: ${how}. Each line's events are written (and flushed) before the next line is read`,
    expected: `${due} events before the input ended`, actual: 'none before the input ended',
  }]);
}
