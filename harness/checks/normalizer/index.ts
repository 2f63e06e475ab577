/**
 * Every check of a normaliser turn, from one observation to one outcome per requirement. When
 * the implementation did not end normally its output may stop anywhere, so only BLK-FLOW-002
 * (which reports how it ended) is judged; the others are untested with that reason.
 */
import type { CheckOutcome } from '../../model.ts';
import { actualEvents } from './actual.ts';
import { checkBlockDeltas } from './block-deltas.ts';
import { checkBlockIndices } from './block-indices.ts';
import { expectTurn } from './expected-model.ts';
import { checkFlushed } from './flushed.ts';
import { checkIndexFree } from './index-free.ts';
import { checkOutputContent } from './output-content.ts';
import { untestedOutcome } from './outcome.ts';
import { checkStreamShape, describeTermination, wroteStreamEnd } from './stream-shape.ts';
import { checkToolIndices } from './tool-indices.ts';
import type { NormalizerObservation, TurnCase } from './types.ts';
import { checkUnknownIndex } from './unknown-index.ts';

export type { NormalizerObservation, TurnCase, ObservedLine, Termination, ExpectedBlockEntry } from './types.ts';

export const normalizerCheckedRequirements = ['BLK-IDX-001', 'BLK-IDX-002', 'BLK-IDX-003', 'BLK-IDX-004', 'BLK-FLOW-004', 'BLK-FLOW-002', 'BLK-FLOW-003', 'BLK-OUT-001'] as const;

export function checkNormalizerTurn(c: TurnCase, obs: NormalizerObservation): CheckOutcome[] {
  const expected = expectTurn(obs.inputs);
  const actual = actualEvents(obs);
  const shape = checkStreamShape(c, obs, actual);
  const ended = describeTermination(obs.termination, obs);
  const unknownIndexInputs = expected.refused.some((r) => r.kind === 'unknown-index');
  const toolInputs = expected.events.some((e) => e.toolUseId !== undefined);
  if (ended) {
    const others = ['BLK-IDX-001', 'BLK-IDX-002', ...(toolInputs ? ['BLK-IDX-003'] : []), ...(unknownIndexInputs ? ['BLK-IDX-004'] : []), 'BLK-FLOW-004', 'BLK-OUT-001', ...(obs.held ? ['BLK-FLOW-003'] : [])];
    const so = obs.termination.kind === 'timed-out' && wroteStreamEnd(obs) ? 'so only how it ended is judged' : 'so its output may be incomplete';
    return [shape, ...others.map((id) => untestedOutcome(id, c.scenario, `${c.label}: ${ended}, ${so}`))];
  }
  const tools = checkToolIndices(c, expected, actual);
  const unknown = checkUnknownIndex(c, expected, actual, obs.inputs);
  const flushed = checkFlushed(c, expected, obs);
  return [
    checkBlockIndices(c, expected, actual),
    checkBlockDeltas(c, expected, actual),
    ...(tools ? [tools] : []),
    ...(unknown ? [unknown] : []),
    checkIndexFree(c, expected, actual),
    checkOutputContent(c, expected, actual, obs.mode === 'command'),
    ...(flushed ? [flushed] : []),
    shape,
  ];
}
