/**
 * Feeding one turn to a normaliser under test and recording what came back, in either mode of
 * docs/harness-normalizer.md: a command (one process per turn, input lines on stdin, output lines
 * from stdout, observed by harness/child.ts) or a module exporting `createBlockNormalizer`.
 * Whatever the implementation does (throws, hangs, writes garbage, exits early) ends up in the
 * observation; only a module that does not fit the contract at all is a configuration error.
 */
import { runChild, type ChildObservation, type ChildScript } from '../../child.ts';
import { fairTimeout, type FairTimer } from '../../fair-timer.ts';
import { RawLine } from '../../checks/normalizer/expected-model.ts';
import type { NormalizerObservation, ObservedLine } from '../../checks/normalizer/types.ts';
import { exportOf, importModule } from '../load-module.ts';

export type NormalizerInstance = { feed: (input: unknown) => unknown; end: () => unknown };
export type NormalizerFactory = (config: { onEvent: (event: unknown) => void }) => NormalizerInstance;

/** Load a module under test; throws (configuration error) when it exports no createBlockNormalizer. */
export async function loadNormalizerModule(path: string): Promise<NormalizerFactory> {
  let loaded: Record<string, unknown>;
  try {
    loaded = await importModule(path);
  } catch (error) {
    throw new Error(`--normalizer-module ${path} cannot be imported: ${(error as Error).message}. Point it at a .ts/.js/.mjs ES module (see docs/harness-normalizer.md).`);
  }
  const factory = exportOf(loaded, 'createBlockNormalizer');
  if (typeof factory !== 'function') {
    throw new Error(`--normalizer-module ${path} exports no createBlockNormalizer function (it exports: ${Object.keys(loaded).join(', ') || 'nothing'}). Export createBlockNormalizer({onEvent}) returning {feed, end} (see docs/harness-normalizer.md).`);
  }
  return factory as NormalizerFactory;
}

function snapshot(event: unknown): ObservedLine {
  let text: string | undefined;
  try { text = JSON.stringify(event); } catch (error) { return { text: String(event), parseError: `the event is not serialisable as JSON: ${(error as Error).message}` }; }
  if (text === undefined) return { text: String(event), parseError: `the event is ${typeof event}, not a JSON value` };
  return { text, event: JSON.parse(text) as unknown };
}

/**
 * Module mode. Events emitted while `feed` or `end` run (or before the promise they may return
 * settles) are the output; a synchronous endless loop cannot be bounded in process, which is why
 * the command mode exists for implementations that are not trusted.
 */
export async function driveModule(factory: NormalizerFactory, inputs: readonly unknown[], timeoutMs: number, signal?: AbortSignal, hold = false): Promise<NormalizerObservation> {
  const lines: ObservedLine[] = [];
  let beforeEnd = 0;
  const work = (async (): Promise<NormalizerObservation['termination']> => {
    const instance = factory({ onEvent: (event) => lines.push(snapshot(event)) });
    if (typeof instance?.feed !== 'function' || typeof instance.end !== 'function') {
      return { kind: 'threw', message: 'createBlockNormalizer({onEvent}) returned no {feed, end} object' };
    }
    for (const input of inputs) {
      if (signal?.aborted) return { kind: 'timed-out', afterMs: timeoutMs };
      await instance.feed(structuredClone(input));
    }
    beforeEnd = lines.length;
    await instance.end();
    return { kind: 'ended' };
  })().catch((error: unknown) => ({ kind: 'threw' as const, message: error instanceof Error ? error.message : String(error) }));
  let timer: FairTimer | undefined;
  // The bound counts time the harness's thread, where the module runs, could use (fair-timer.ts).
  const timeout = new Promise<NormalizerObservation['termination']>((resolve) => { timer = fairTimeout(timeoutMs, () => resolve({ kind: 'timed-out', afterMs: timeoutMs })); });
  try {
    const termination = await Promise.race([work, timeout]);
    return { inputs: [...inputs], lines: [...lines], termination, ...(hold ? { held: { heldMs: 0, outputBeforeEnd: beforeEnd } } : {}) };
  } finally {
    timer?.cancel();
  }
}

/**
 * How long stdin stays open after the last line when no output has come yet (`hold`). A filter that
 * streams has answered once it started (and stdin closes then), so only one that buffers waits it
 * out; it is long because a process start on a loaded machine takes seconds.
 */
export const holdInputMs = 8000;

/** Command mode: one process per turn, in the current directory, with its own process group. `hold`: see NormalizerObservation.held. */
/** `run`: how the turn's process is had: a fresh one (child.ts, the default) or a run of a session process (session.ts). */
export async function driveCommand(command: string, inputs: readonly unknown[], timeoutMs: number, hold = false, signal?: AbortSignal, run: (script: ChildScript) => Promise<ChildObservation> = runChild): Promise<NormalizerObservation> {
  // Half the time bound at most: a filter that buffers until EOF still gets its input's end in time to answer.
  const heldMs = Math.min(holdInputMs, Math.floor(timeoutMs / 2));
  const child = await run({ command, cwd: process.cwd(), input: inputs.map((i) => ({ text: i instanceof RawLine ? i.text : JSON.stringify(i) })), timeoutMs, killGraceMs: 500, ...(hold ? { holdStdinUntilOutputMs: heldMs } : {}), ...(signal ? { signal } : {}) });
  const lines: ObservedLine[] = child.lines.map(({ text }) => {
    try { return { text, event: JSON.parse(text) as unknown }; } catch (error) { return { text, parseError: (error as Error).message }; }
  });
  const termination: NormalizerObservation['termination'] =
    child.spawnError !== undefined ? { kind: 'spawn-failed', message: child.spawnError }
    : child.timedOut ? { kind: 'timed-out', afterMs: timeoutMs }
    : child.overflowed ? { kind: 'overflowed' }
    : child.exitCode === 0 ? { kind: 'ended' }
    : { kind: 'exit', code: child.exitCode, signal: child.signal };
  return {
    inputs: [...inputs],
    lines,
    termination,
    mode: 'command',
    ...(hold ? { held: { heldMs, outputBeforeEnd: child.linesBeforeStdinClosed ?? child.lines.length } } : {}),
    ...(child.partialLine !== undefined ? { partialLine: child.partialLine } : {}),
    ...(child.stderr ? { stderr: child.stderr } : {}),
  };
}
