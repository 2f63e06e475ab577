/**
 * The shape of one whole generated ADK run, before it is written as a scenario: a coordinator,
 * its delegation rounds, an optional transfer to a sub-agent, model errors between turns, how the
 * run ends, the dialect, streaming, the enhanced (audit) endpoint and framing variants.
 *
 * Every part is an independent small arbitrary combined with `fc.record`, never `chain`, so a
 * failing run shrinks part by part: fewer rounds, fewer calls, shorter texts, no framing, the
 * simplest ending.
 */
import fc from 'fast-check';
import type { FaultSpec } from '../../mock-adk/core/faults.ts';
import { roundArb, type GenRound } from './calls.ts';
import { framingArb } from './framing.ts';
import { chunkedTextArb, coordinatorNames, errorCodeArb, errorMessageArb, subAgentNames, userMessageArb, type ChunkedText } from './vocabulary.ts';

export type Dialect = 'adk-js' | 'adk-python';

/** A coordinator hands the conversation to a sub-agent (transfer_to_agent, adk-wire-format §5e). */
export type GenTransfer = {
  target: string;
  rounds: GenRound[];
  /** adk-js re-invokes the coordinator after the sub-agent's answer (§5e): its second answer, when set. */
  reinvoke?: ChunkedText;
};

/**
 * A model error the run goes on after: the model of the `round`-th call round (modulo the round
 * count) called a tool its agent lacks. adk-js answers that call step with an UNKNOWN_ERROR event
 * instead of tool results and, because the step had calls, calls the model again (adk-wire-format
 * §6 "model calls an unknown tool"). Only there does a real server go on after an errorCode event:
 * everywhere else the event is the final response of its agent (adk-python `is_final_response()`
 * ends the flow's loop; adk-js `isFinalResponse` likewise), so it is the run's last event. Applied
 * to adk-js runs without streaming only, the rendering that was observed.
 */
export type GenMidError = { round: number };

export type ErrorFrameStyle = 'dialect' | 'python-legacy-unescaped' | 'python-structured';

export type GenEnding =
  | { kind: 'answer'; text: ChunkedText }
  | { kind: 'modelError'; code: string; message: string }
  /** The server's `{"error": ...}` line after the first `at` steps (modulo their count): the stream ends there. */
  | { kind: 'errorFrame'; at: number; message: string; style: ErrorFrameStyle }
  /** Streaming: the final turn stops after its partial chunks (no aggregated final), then EOF. */
  | { kind: 'truncated'; text: ChunkedText }
  /** EOF after the last tool round, no final answer. */
  | { kind: 'closed' };

export type RunShape = {
  dialect: Dialect;
  streaming: boolean;
  /** `/run_sse_enhanced`: audit metadata on every event and a closing `[DONE]` (seed 000 §2.2B). */
  enhanced: boolean;
  coordinator: string;
  message: string;
  rounds: GenRound[];
  transfer?: GenTransfer;
  midErrors: GenMidError[];
  ending: GenEnding;
  framing: FaultSpec[];
};

export type RunShapeOptions = {
  maxRounds?: number;
  maxCalls?: number;
  /** Allowed endings (default: all). */
  endings?: ReadonlyArray<GenEnding['kind']>;
  /** Most framing variants per run (default 2; 0 for none). */
  maxFraming?: number;
  /** Whether `/run_sse_enhanced` runs may be generated (default true). */
  enhanced?: boolean;
  /** The dialects runs are written for (default both). */
  dialects?: readonly Dialect[];
};

const allEndings: ReadonlyArray<GenEnding['kind']> = ['answer', 'modelError', 'errorFrame', 'truncated', 'closed'];

function endingArb(kinds: ReadonlyArray<GenEnding['kind']>): fc.Arbitrary<GenEnding> {
  const byKind: Record<GenEnding['kind'], fc.Arbitrary<GenEnding>> = {
    answer: chunkedTextArb.map((text) => ({ kind: 'answer' as const, text })),
    modelError: fc.record({ code: errorCodeArb, message: errorMessageArb }).map((e) => ({ kind: 'modelError' as const, ...e })),
    errorFrame: fc.record({ at: fc.nat(), message: errorMessageArb, style: fc.constantFrom<ErrorFrameStyle>('dialect', 'python-legacy-unescaped', 'python-structured') }).map((e) => ({ kind: 'errorFrame' as const, ...e })),
    truncated: chunkedTextArb.map((text) => ({ kind: 'truncated' as const, text })),
    closed: fc.constant({ kind: 'closed' as const }),
  };
  // The answer first: fast-check shrinks a oneof towards its first branch, the plainest run.
  const ordered = [...kinds].sort((a, b) => allEndings.indexOf(a) - allEndings.indexOf(b));
  if (ordered.length === 0) throw new TypeError('runShapeArb: options.endings must name at least one of answer, modelError, errorFrame, truncated, closed');
  return fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: byKind[ordered[0]!] }, ...ordered.slice(1).map((k) => ({ weight: 1, arbitrary: byKind[k] })));
}

export function runShapeArb(options: RunShapeOptions = {}): fc.Arbitrary<RunShape> {
  const maxRounds = options.maxRounds ?? 3;
  const maxCalls = options.maxCalls ?? 4;
  const round = roundArb(maxCalls);
  const transferArb: fc.Arbitrary<GenTransfer> = fc.record({
    target: fc.constantFrom(...subAgentNames),
    rounds: fc.array(round, { maxLength: 1 }),
    reinvoke: fc.option(chunkedTextArb, { nil: undefined }),
  });
  return fc.record({
    dialect: fc.constantFrom<Dialect>(...(options.dialects ?? ['adk-js', 'adk-python'])),
    streaming: fc.boolean(),
    enhanced: options.enhanced === false ? fc.constant(false) : fc.oneof({ withCrossShrink: true }, { weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    coordinator: fc.constantFrom(...coordinatorNames),
    message: userMessageArb,
    rounds: fc.array(round, { maxLength: maxRounds }),
    // About one run in three transfers; shrinking drops the transfer first (the first branch).
    transfer: fc.oneof({ withCrossShrink: true }, { weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: transferArb }),
    midErrors: fc.array(fc.record({ round: fc.nat() }), { maxLength: 2 }),
    ending: endingArb(options.endings ?? allEndings),
    framing: framingArb(options.maxFraming ?? 2),
  });
}
