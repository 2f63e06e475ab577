/**
 * What the harness observed of one normaliser turn: the input events it fed (in order) and every
 * output line it got back, plus how the implementation ended. Checks read only this; how it was
 * produced (a child process on stdio or a module in process) is the runner's business.
 */

/** One output line of the implementation (command mode) or one emitted event (module mode). */
export type ObservedLine = {
  /** The raw text of the line; for module mode, the event serialised as JSON. */
  text: string;
  /** The parsed value, when the line was JSON. */
  event?: unknown;
  /** Why the line is not JSON, when it is not. */
  parseError?: string;
};

/** How the implementation ended. Anything but `ended` means the output may be incomplete. */
export type Termination =
  | { kind: 'ended' }
  | { kind: 'exit'; code: number | null; signal: string | null }
  | { kind: 'threw'; message: string }
  | { kind: 'timed-out'; afterMs: number }
  | { kind: 'spawn-failed'; message: string }
  | { kind: 'overflowed' };

export type NormalizerObservation = {
  /** The input events fed, one per stdin line, in order (a RawLine is a line fed as it is). */
  inputs: unknown[];
  lines: ObservedLine[];
  /** A trailing stdout fragment without a line terminator (command mode). */
  partialLine?: string;
  termination: Termination;
  stderr?: string;
  /** `command`: the inputs were stdin lines, numbered from 1, so refusals name their line (`data.line`). */
  mode?: 'command' | 'module';
  /**
   * When the input was held open after its last line (until output came, at most `heldMs`): how
   * many output lines came before the input ended (stdin closed, or `end()` called). Absent: not held.
   */
  held?: { heldMs: number; outputBeforeEnd: number };
};

/** One expected entry of `scenario.expect.blocks`. */
export type ExpectedBlockEntry = { type: string; index: number; tool_use_id?: string };

/** What a turn is checked against: a scenario's id and expectations, or a generated case's label. */
export type TurnCase = {
  /** The scenario id (or `probe:<id>`) the outcomes are filed under. */
  scenario: string;
  /** Prefix for finding paths, e.g. `turn[3] ` for the 4th generated turn; '' for a scenario. */
  pathPrefix: string;
  /** Said in finding messages, e.g. "generated turn 3 of seed 42". */
  label: string;
  expectBlocks?: ExpectedBlockEntry[];
};
