/**
 * Feeding one run's data fields to an implementation under test and recording what it does.
 * Command mode follows docs/transform-contract.md: one fresh process, one line per field on stdin
 * with the captured timing, stdin closed at the end of the stream (or, on a held-open connection,
 * once the idle window passed: "the harness closes stdin ... when it decided completion itself"),
 * stdout read line by line. Module mode follows docs/harness.md "Module contract": `push` per field,
 * `end` at the end of the stream, except that a held-open run is left to the module's own idle
 * timer. Nothing the implementation does is thrown: it is all recorded in the TransformerRun.
 */
import { runChild, type ChildObservation, type ChildScript } from '../../child.ts';
import type { EmittedEvent, OutputProblem, RunExit, TransformerRun } from '../../checks/transformer/observation.ts';
import { isTerminal } from '../../checks/transformer/briefing.ts';
import { driveWhileStalled, worstStallMs } from '../feed-stall.ts';

export type FeedLine = { data: string; delayMs: number };

export type DriveSpec = {
  lines: FeedLine[];
  sessionId: string;
  enhanced: boolean;
  idleMs: number;
  /**
   * After the last line: keep the input open this long (module: at most this long, less once a
   * terminal event came; command: the same with `holdUntilTerminal`, else the whole of it).
   */
  holdMs: number;
  /** A command's input is closed as soon as it wrote a terminal event, within holdMs (the wait after `[DONE]`). */
  holdUntilTerminal?: true;
  /** Bound for the implementation to finish after its input ended. */
  boundMs: number;
  /**
   * Command mode: the start-up the probe measured (command-startup.ts). The input is fed this
   * long after spawn, the bound is extended by it plus `startupSlackMs`, and every time is counted
   * from the moment feeding began: start-up never counts as behaviour.
   */
  startupMs?: number;
  startupSlackMs?: number;
  /** The start-up was not measured within its bound: said with a hang (command-startup.ts). */
  startupNote?: string;
  signal: AbortSignal;
  /** Command mode: how a run's process is had: a fresh one (child.ts, the default) or a run of a session process (session.ts). */
  runChild?: (script: ChildScript) => Promise<ChildObservation>;
};

export type ModuleInstance = { push: (line: string) => unknown; end: () => unknown; dispose?: () => unknown };
export type ModuleFactory = (options: { onEvent: (event: unknown) => void; idleMs: number; sessionId?: string; enhanced?: boolean }) => ModuleInstance;

/**
 * `fedAt`: when each line reached the implementation, the clock the checks judge frames by;
 * `writtenAt`: when each line was actually written (the schedule's times on a quiet machine, later on
 * a loaded one); `scriptedAt`: the schedule.
 */
/** `loopStallMs`: a command's, the harness's loop stall while its input waited for the pipe (child.ts feedLoopStallMs). */
export type Drive = { run: TransformerRun; fedAt: number[]; writtenAt: number[]; scriptedAt: number[]; loopStallMs?: number };

/**
 * The longest pause the harness added between two lines beyond the scripted one: on a loaded
 * machine the feeder itself can stall, and a pause as long as the idle window would let a correct
 * implementation complete the run early.
 */
export function feedStallMs(d: Drive): number {
  // A line larger than the pipe waits in the harness for its loop: a stall there is a late line too.
  return Math.max(worstStallMs(d.writtenAt, d.scriptedAt.map((t, i) => (i === 0 ? 0 : t - (d.scriptedAt[i - 1] ?? 0)))), d.loopStallMs ?? 0);
}

/**
 * Drive once, and again (twice at most) while the feed stalled for `stallShare` of the idle window
 * or more (feed-stall.ts): a loaded machine's pause the script does not have would let a correct
 * implementation complete early. A module too: it shares the harness's event loop, and when a stall
 * ends, its idle timer, due during the stall, fires before the late line reaches it (seen in CI on
 * 2026-11-29: the reference transformer declared ERROR on framing_crlf_split_every_byte when a line
 * came 509 ms after the one before, scripted about 110 ms, against a 500 ms idle window, at --jobs 8
 * beside three test files). Returns the last drive and its stall.
 */
export async function driveUnstalled(once: () => Promise<Drive>, opts: { idleMs: number; signal: AbortSignal; onRetry?: (stallMs: number) => void }): Promise<{ driven: Drive; stallMs: number }> {
  const { driven, stallMs } = await driveWhileStalled(once, { stallMs: feedStallMs, limitMs: () => opts.idleMs, signal: opts.signal, ...(opts.onRetry ? { onRetry: opts.onRetry } : {}) });
  return { driven, stallMs };
}

/** Lines fed with the gaps the frames arrived with: each capped at `maxGapMs`, gaps under 10 ms dropped. */
export function linesWithGaps(frames: ReadonlyArray<{ data: string; arrivedAt: number }>, maxGapMs: number): DriveSpec['lines'] {
  return frames.map((f, i) => {
    const gap = i === 0 ? 0 : f.arrivedAt - (frames[i - 1]?.arrivedAt ?? 0);
    return { data: f.data, delayMs: Math.min(maxGapMs, gap >= 10 ? Math.round(gap) : 0) };
  });
}

/** The same lines back to back: a comparison run reads briefings, never timing. */
export const backToBack = (lines: DriveSpec['lines']): DriveSpec['lines'] => lines.map((l) => ({ ...l, delayMs: 0 }));

/** One output line (or one module event) into an event or a problem. */
function collect(events: EmittedEvent[], problems: OutputProblem[], line: number, at: number, value: unknown, invalidUtf8 = false): void {
  if (invalidUtf8 && typeof value === 'string') {
    // The contract's stdout is UTF-8; what the decoder made of other bytes is not what was written.
    problems.push({ line, text: value, reason: 'the line holds bytes that are not valid UTF-8 (shown as U+FFFD)' });
    return;
  }
  let parsed = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return;
    try { parsed = JSON.parse(value); } catch (error) { problems.push({ line, text: value, reason: `invalid JSON: ${(error as Error).message}` }); return; }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    problems.push({ line, text: typeof value === 'string' ? value : JSON.stringify(value) ?? String(value), reason: `expected a JSON object, got ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : typeof parsed}` });
    return;
  }
  events.push({ index: events.length, line, at, value: parsed as Record<string, unknown> });
}

/** An output line that is a terminal briefing (COMPLETE or ERROR). */
function isTerminalLine(text: string): boolean {
  if (!text.includes('COMPLETE') && !text.includes('ERROR')) return false;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) && isTerminal({ index: 0, line: 0, at: 0, value: value as Record<string, unknown> });
  } catch {
    return false;
  }
}

function schedule(lines: FeedLine[]): number[] {
  let t = 0;
  return lines.map((l) => (t += l.delayMs));
}

/**
 * How long a run has after its scheduled input end before it is hung (DriveSpec.boundMs): a sixth of
 * the scenario bound, 1 to 10 s (5 s at the default 30 s). It was a quarter (7.5 s), sized so that a
 * loaded machine would not make a correct run overrun; since the bound is fair (fair-timer.ts: CPU
 * time withheld from the implementation or the harness is given back, up to three times the bound),
 * load no longer needs that margin, and a hanging transformer's verdict waited it out (issue 30 §3:
 * under 10 s; 10.05 s with 7.5 s, `npm run bench -- hanging`, 2026-11-30). A pure filter answers a
 * few frames in milliseconds; a command's measured start-up is added on top (runner.ts).
 */
export const runBoundMs = (scenarioTimeoutMs: number): number => Math.max(1000, Math.min(10_000, Math.floor(scenarioTimeoutMs / 6)));

/**
 * After `[DONE]`, how long a command that has written nothing yet (still starting) gets before its
 * input is closed; its answer to `[DONE]` then has the usual hold from its first line (child.ts
 * holdStdinSilentMs). A fair bound too, so up to three times this behind a loaded machine.
 */
export const silentHoldMs = 3000;

export async function driveCommand(command: string, spec: DriveSpec): Promise<Drive> {
  const scripted = schedule(spec.lines);
  const closeAt = (scripted[scripted.length - 1] ?? 0) + spec.holdMs;
  const startup = spec.startupMs ?? 0;
  const obs = await (spec.runChild ?? runChild)({
    command,
    env: { ADK_CONFORMANCE_SESSION_ID: spec.sessionId, ADK_CONFORMANCE_IDLE_MS: String(spec.idleMs), ...(spec.enhanced ? { ADK_CONFORMANCE_ENHANCED: '1' } : {}) },
    input: spec.lines.map((l, i) => ({ text: l.data, delayMs: l.delayMs + (i === 0 ? startup : 0) })),
    ...(spec.holdUntilTerminal ? { holdStdinUntilOutputMs: spec.holdMs, holdStdinUntil: isTerminalLine, holdStdinSilentMs: silentHoldMs } : { holdStdinMs: spec.holdMs }),
    timeoutMs: startup + (spec.startupSlackMs ?? 0) + closeAt + spec.boundMs,
    killGraceMs: 500,
    maxStdoutBytes: 16 * 1024 * 1024,
    // A run the engine cancelled (fail fast stopped the part) ends now, not at its bound.
    signal: spec.signal,
  });
  const events: EmittedEvent[] = [];
  const problems: OutputProblem[] = [];
  // closeAt stays the input's close for the checks when a terminal event closed it sooner: that
  // event came first either way, and the checks ask only whether it came before the close.
  // One clock from the first line fed: what came before it was start-up.
  obs.lines.forEach((l, i) => collect(events, problems, i + 1, l.t - startup, l.text, l.invalidUtf8 === true));
  const exit: RunExit = {
    mode: 'command', exitCode: obs.exitCode, signal: obs.signal, timedOut: obs.timedOut, overflowed: obs.overflowed, ...(obs.killed ? { killed: true } : {}),
    stderr: obs.stderr, ...(obs.spawnError ? { spawnError: obs.spawnError } : {}), ...(spec.startupNote && obs.timedOut ? { startupNote: spec.startupNote } : {}),
    ...(obs.boundExtendedMs ? { boundExtendedMs: obs.boundExtendedMs } : {}),
  };
  if (obs.partialLine !== undefined && obs.partialLine.trim() !== '') {
    exit.unterminatedLine = obs.partialLine;
    collect(events, problems, obs.lines.length + 1, obs.durationMs - startup, obs.partialLine);
  }
  const writtenAt = obs.inputAt.map((t) => t - startup);
  // A frame reached the command when it was written, not when it was scheduled: a timer may fire a
  // fraction of a millisecond early, and an answer to that frame stamped before its scheduled time
  // was once judged "declared 1 ms before its completion point" (ABE-TERM-002, a correct
  // transformer). A line never written (the process ended first) keeps its scheduled time.
  // The input closed later than scheduled when the wait for an answer gave back CPU time the machine
  // withheld (child.ts awaitAnswer): an answer before that close came before EOF.
  const closedAt = obs.stdinClosedAt === undefined ? closeAt : Math.max(closeAt, obs.stdinClosedAt - startup);
  const order = obs.linesBeforeStdinClosed !== undefined ? { linesBeforeInputClosed: obs.linesBeforeStdinClosed } : {};
  return { run: { events, problems, exit, inputClosedAt: closedAt, ...order }, fedAt: scripted.map((t, i) => writtenAt[i] ?? t), writtenAt, scriptedAt: scripted, ...(obs.feedLoopStallMs !== undefined ? { loopStallMs: obs.feedLoopStallMs } : {}) };
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> => new Promise((resolve) => {
  if (ms <= 0 || signal.aborted) { resolve(); return; }
  const t = setTimeout(done, ms);
  function done() { clearTimeout(t); signal.removeEventListener('abort', done); resolve(); }
  signal.addEventListener('abort', done, { once: true });
});

export async function driveModule(factory: ModuleFactory, spec: DriveSpec): Promise<Drive> {
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const events: EmittedEvent[] = [];
  const problems: OutputProblem[] = [];
  const exit: RunExit = { mode: 'module', exitCode: null, signal: null, timedOut: false, overflowed: false, stderr: '' };
  const fedAt: number[] = [];
  let inputClosedAt = 0;
  let linesBeforeInputClosed: number | undefined;
  const terminal = new AbortController(); // aborted once a terminal event arrived: ends the waits early
  const onEvent = (value: unknown) => {
    collect(events, problems, events.length + problems.length + 1, now(), value);
    const last = events[events.length - 1];
    if (last && isTerminal(last)) terminal.abort();
  };
  const wait = (ms: number) => sleep(ms, AbortSignal.any([terminal.signal, spec.signal]));
  // An async push/end that never settles is a hang, not a harness crash.
  const settle = async (value: unknown, what: string): Promise<void> => {
    if (!value || typeof (value as Promise<unknown>).then !== 'function') return;
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => { timer = setTimeout(() => resolve('hung'), spec.boundMs); });
    try {
      if (await Promise.race([Promise.resolve(value).then(() => 'ok' as const), hung]) === 'hung') throw new Error(`${what} did not settle within ${spec.boundMs} ms`);
    } finally { clearTimeout(timer); }
  };
  let instance: ModuleInstance | undefined;
  try {
    instance = factory({ onEvent, idleMs: spec.idleMs, sessionId: spec.sessionId, ...(spec.enhanced ? { enhanced: true } : {}) });
    for (const line of spec.lines) {
      if (line.delayMs > 0) await sleep(line.delayMs, spec.signal);
      fedAt.push(now());
      await settle(instance.push(line.data), 'push()');
    }
    // No hold: a turn of the event loop, not a timer's millisecond (the long-lived probes run thousands of such runs).
    await (spec.holdMs > 0 ? wait(spec.holdMs) : new Promise((resolve) => setImmediate(resolve)));
    inputClosedAt = now();
    linesBeforeInputClosed = events.length + problems.length;
    await settle(instance.end(), 'end()');
    // An implementation may emit asynchronously: give it the bound to reach its terminal event.
    if (!terminal.signal.aborted) await wait(Math.min(spec.boundMs, 1000));
    await new Promise((resolve) => setImmediate(resolve));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/did not settle/.test(message)) exit.timedOut = true; else exit.threw = message;
    inputClosedAt ||= now();
    linesBeforeInputClosed ??= events.length + problems.length;
  } finally {
    try { await instance?.dispose?.(); } catch { /* disposal problems change nothing observed */ }
  }
  exit.exitCode = exit.threw || exit.timedOut ? null : 0;
  return { run: { events, problems, exit, inputClosedAt, ...(linesBeforeInputClosed !== undefined ? { linesBeforeInputClosed } : {}) }, fedAt, writtenAt: fedAt, scriptedAt: schedule(spec.lines) };
}
