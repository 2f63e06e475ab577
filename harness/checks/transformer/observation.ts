/**
 * What the transformer runner observed for one scenario, as the checks read it. Everything here is
 * data the runner recorded: the frames it fed (with the time each was written), what came back on
 * the output (parsed events, and the lines that were not events), and how the implementation ended.
 * Times are milliseconds since the run started, on one clock for input and output.
 */
import type { Scenario } from '../../../schemas/types.ts';
import type { SpecVersion } from '../../spec-version.ts';

/** How a fed line reads to a consumer of /run_sse (docs/transform-contract.md "Bad lines"). */
export type FrameKind = 'event' | 'error' | 'done' | 'invalid';

export type FedFrame = {
  index: number;
  /** The `data` field, exactly as the line written to the implementation. */
  data: string;
  kind: FrameKind;
  /** The parsed payload, when it is a JSON object. */
  json?: Record<string, unknown>;
  /** When the line was written. */
  at: number;
};

export type EmittedEvent = {
  /** Position among the parsed events (what `event[n]` in a finding path counts). */
  index: number;
  /** 1-based output line. */
  line: number;
  /** When the line arrived. */
  at: number;
  value: Record<string, unknown>;
};

/** An output line that is not an AgentBriefingEvent object. */
export type OutputProblem = { line: number; text: string; reason: string };

export type RunExit = {
  mode: 'command' | 'module';
  exitCode: number | null;
  signal: string | null;
  /** The command could not be started (ENOENT, EACCES). */
  spawnError?: string;
  /** Module mode: createTransformer, push or end threw (or rejected). */
  threw?: string;
  /** It did not finish within its bound after the input ended. */
  timedOut: boolean;
  /** How far that bound moved for CPU time a loaded machine withheld (harness/fair-timer.ts). */
  boundExtendedMs?: number;
  /** Command mode: its start-up could not be measured within the start-up bound; said with the hang. */
  startupNote?: string;
  /** Command mode: it ignored SIGTERM and had to be stopped with SIGKILL. */
  killed?: boolean;
  overflowed: boolean;
  stderr: string;
  /** The last stdout bytes had no line terminator. */
  unterminatedLine?: string;
};

export type TransformerRun = {
  events: EmittedEvent[];
  problems: OutputProblem[];
  exit: RunExit;
  /** When stdin was closed (module: when `end()` was called). */
  inputClosedAt: number;
  /**
   * How many output lines were read before the input was closed: the order itself, where the clock
   * cannot tell it. A terminal line that answers the wait after `[DONE]` closes the input in the same
   * millisecond it was read, so by time it "came at the close" and a correct transformer whose answer
   * came late (a loaded machine) failed ABE-TERM-004 (8 of 8 runs of a transformer busy 1.6 s after
   * [DONE], 8 at once, 2026-11-30; the clean-clone CI of 64c0b4d). Undefined: judged by `inputClosedAt`.
   */
  linesBeforeInputClosed?: number;
};

/** Whether an output line came only after the input was closed (TransformerRun.linesBeforeInputClosed). */
export const cameAfterClose = (run: TransformerRun, e: Pick<EmittedEvent, 'line' | 'at'>): boolean =>
  run.linesBeforeInputClosed !== undefined ? e.line > run.linesBeforeInputClosed : e.at >= run.inputClosedAt;

export type Ending = 'eof' | 'hold-open' | 'cut';

export type RunTiming = {
  /** The idle window given to the implementation. */
  idleMs: number;
  /** How late after the idle window a held-open run's terminal event may come. */
  toleranceMs: number;
  /** Module mode: the implementation owns the idle timer (the harness does not end the input early). */
  implementationOwnsIdle: boolean;
  /** When the frame at `expect.completionPoint` was written (after a pause), if there is one. */
  completionPointAt?: number;
};

export type DialectRun = { dialect: string; sessionId: string; frames: FedFrame[]; run: TransformerRun };

export type TransformerObservation = {
  scenario: Scenario;
  /** The AgentBriefingEvent spec version the run is judged against (harness/spec-version.ts); default 1.0. */
  spec?: SpecVersion;
  /** The session the frames were captured in (the reference's correlation_id). */
  sessionId: string;
  dialect: string;
  frames: FedFrame[];
  ending: Ending;
  timing: RunTiming;
  run: TransformerRun;
  /** The same frames, fed a second time to a fresh instance. */
  repeat?: TransformerRun;
  /** The scenario rendered in each other dialect it renders in (every dialect, unless it is pinned to its own). */
  others?: DialectRun[];
};

const legacyErrorLine = /^\s*\{\s*"error"\s*:/;

/** Classify one data field the way docs/transform-contract.md's "Bad lines" table reads it. */
export function classifyFrame(data: string): { kind: FrameKind; json?: Record<string, unknown> } {
  if (data.trim() === '[DONE]') return { kind: 'done' };
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    // Python Gen A interpolates the message unescaped: still, unmistakably, an error line.
    return { kind: legacyErrorLine.test(data) ? 'error' : 'invalid' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'invalid' };
  const json = value as Record<string, unknown>;
  // adk-js writes `{}` for a thrown non-Error (adk-wire-format §6, last row).
  if (Object.hasOwn(json, 'error') || Object.keys(json).length === 0) return { kind: 'error', json };
  return { kind: 'event', json };
}
