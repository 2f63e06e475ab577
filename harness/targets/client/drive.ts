/**
 * Driving a client under test over one byte stream (docs/client-contract.md). Command contract: a
 * fresh process per stream, the body's bytes written to stdin with their gaps, stdin closed at the
 * body's end (held open first on a held-open connection), one NDJSON record per stdout line.
 * Module contract: `createClient(options).run(request, onRecord, signal)` against a real server.
 * Nothing the client does is thrown: hangs, exits and garbage are all in the returned Drive.
 */
import { runChild, type ChildObservation, type ChildScript } from '../../child.ts';
import { fairTimeout, type FairTimer } from '../../fair-timer.ts';
import { onceOverBudget, startWorkClock } from '../../run-delay.ts';
import type { ClientOutput, ReportedRecord } from '../../checks/client/index.ts';
import type { TransportEnd } from '../../checks/client/expected.ts';
import type { ByteChunk } from './capture.ts';
import { driveWhileStalled, worstStretchMs } from '../feed-stall.ts';
import { watchLoop } from '../../loop-stall.ts';

export type ClientWindows = { idleMs: number; graceMs: number; callIdleMs: number };

export type ClientRecordSink = (record: unknown) => void;
export type ModuleClient = { run: (request: Record<string, unknown>, onRecord: ClientRecordSink, signal: AbortSignal) => unknown };
export type ClientFactory = (options: ClientWindows & { baseUrl: string }) => ModuleClient;

/**
 * What happened besides the records: the engine's fail fast reads it (fatalOf). `lingered`: the
 * command wrote its end record and had its whole input, did not exit within `exitGraceMs`, and was stopped.
 */
export type DriveExit = {
  spawnError?: string; timedOut: boolean; exitCode: number | null; signal: string | null; threw?: string; stderr: string; lingered?: true;
  /** Command contract: when the harness closed stdin (ms since spawn), and how many stdout lines had come by then. */
  stdinClosedAt?: number; linesBeforeStdinClosed?: number;
  /** How far the bound moved for CPU time a loaded machine withheld (fair-timer.ts). */
  boundExtendedMs?: number;
  /** Command contract, when the bound ran out: how long its process ran or was ready to run in the last `overMs` (child.ts). */
  workAtBound?: { workMs: number; overMs: number };
  /** Module contract: the bound ran out while the harness was still writing the body (Feed). */
  stillFed?: true;
};

/**
 * The delivery of a module's body by the harness's proxy (proxy.ts): whether a body is still being
 * written. It writes each of the mock's writes in a turn of the event loop of its own, and the loop
 * is shared with every other run of the certification: beside a CI run's load, `npm start` took 23 s
 * to deliver generated_18's few thousand one-byte writes, and the reference client was judged hung at
 * its 7.5 s bound (2026-12-01). A run whose bound ran out while its body was still being written is
 * not judged beside the others: the engine repeats it alone (runner.ts), where the delivery is as
 * slow as the client alone makes it (a client that parses each read in time that grows with the
 * line, on the same event loop, slows its own delivery and still fails).
 */
export type Feed = { writing: () => boolean };

/** How long a command has to exit after its end record once its input ended (docs/client-contract.md "Bounds"). */
export const exitGraceMs = 1000;

/** A reported value that is an end record (`{"end": ...}`). */
export const isEndValue = (value: unknown): value is { end: unknown } => typeof value === 'object' && value !== null && !Array.isArray(value) && 'end' in value;

/** Whether a run's records hold its end record. */
export const hasEndRecord = (d: { records: ReportedRecord[] }): boolean => d.records.some((r) => isEndValue(r.value));

/** A stdout line that is an end record (`{"end": ...}`); the checks read the records themselves. */
function isEndRecord(line: string): boolean {
  if (!line.includes('"end"')) return false;
  try {
    return isEndValue(JSON.parse(line) as unknown);
  } catch {
    return false;
  }
}
/**
 * `feedStallMs`: the most the harness delayed the body's delivery (feed-stall.ts). Command contract:
 * the most any run of writes, closing stdin included, was stretched beyond its scripted pauses
 * (worstStretchMs); module contract:
 * the harness's event loop's longest stall during the run (the module's timers share it).
 */
export type Drive = ClientOutput & {
  exit: DriveExit; durationMs: number; feedStallMs?: number;
  /**
   * The run's CPU time where the drive was asked for it (`measureCpu`): a session process's tree
   * (ChildObservation.cpuMs), or for a module the harness's process, which it runs in, and what it started (startWorkClock).
   */
  cpuMs?: number;
};

export const windowEnv = (w: ClientWindows): Record<string, string> => ({
  ADK_CONFORMANCE_IDLE_MS: String(w.idleMs), ADK_CONFORMANCE_GRACE_MS: String(w.graceMs), ADK_CONFORMANCE_CALL_IDLE_MS: String(w.callIdleMs),
});

/**
 * `startupMs`: the command's start-up measured once (command-startup.ts). The first byte is written
 * that long after spawn, the bound grows by it and its slack, and every time the checks read
 * (stdin closed, the run's duration) counts from the first byte: start-up is not behaviour.
 */
export type CommandDrive = {
  chunks: ByteChunk[]; transport: TransportEnd; windows: ClientWindows; boundMs: number; startupMs?: number; startupSlackMs?: number;
  /** The answer's status and Content-Type (default 200, text/event-stream): a non-200's body is the chunks. */
  answer?: { status: number; contentType: string };
  /**
   * Where the run goes instead of a fresh process: a session pool's runChild (harness/session.ts,
   * docs/session-protocol.md), whose process is already up (start-up 0).
   */
  runChild?: (script: ChildScript) => Promise<ChildObservation>;
  /** Measure the run's CPU time (Drive.cpuMs; the session form only), and stop the run as at its bound past `cpuBudgetMs` of it. */
  measureCpu?: boolean;
  cpuBudgetMs?: number;
};

/** What every run tells a command about the answer its stdin is the body of (docs/client-contract.md "Command contract"). */
export const answerEnv = (answer: { status: number; contentType: string } = { status: 200, contentType: 'text/event-stream' }): Record<string, string> => ({
  ADK_CONFORMANCE_HTTP_STATUS: String(answer.status), ADK_CONFORMANCE_CONTENT_TYPE: answer.contentType,
});

export async function driveClientCommand(command: string, spec: CommandDrive): Promise<Drive> {
  const feedMs = spec.chunks.reduce((t, c) => t + c.delayMs, 0);
  // Held open: the connection stays up past every window, so only the client's own rule ends the run.
  const holdMs = spec.transport === 'hold-open' ? spec.windows.idleMs + spec.windows.graceMs + 1000 : 0;
  const startup = spec.startupMs ?? 0;
  const input = spec.chunks.map((c, i) => ({ bytes: c.bytes, delayMs: c.delayMs + (i === 0 ? startup : 0) }));
  const obs = await (spec.runChild ?? runChild)({
    command,
    env: { ...windowEnv(spec.windows), ...answerEnv(spec.answer), ADK_CONFORMANCE_TRANSPORT_END: spec.transport === 'reset' ? 'reset' : 'eof' },
    input,
    ...(spec.measureCpu ? { measureCpu: true, ...(spec.cpuBudgetMs !== undefined ? { cpuBudgetMs: spec.cpuBudgetMs } : {}) } : {}),
    holdStdinMs: holdMs,
    timeoutMs: startup + (spec.startupSlackMs ?? 0) + feedMs + holdMs + spec.boundMs,
    killGraceMs: 500,
    maxStdoutBytes: 64 * 1024 * 1024,
    // "After the end record, exit 0" (docs/client-contract.md): a client that lingers is stopped a
    // second after its end record and its input's end, not at the bound (that cost minutes a run).
    exitAfter: { last: isEndRecord, graceMs: exitGraceMs },
  });
  const records: ReportedRecord[] = [];
  const problems: ClientOutput['problems'] = [];
  const take = (line: number, text: string, invalidUtf8: boolean) => {
    if (text.trim() === '') return;
    if (invalidUtf8) { problems.push({ line, text, reason: 'the line holds bytes that are not valid UTF-8' }); return; }
    try { records.push({ line, value: JSON.parse(text) as unknown }); } catch (error) { problems.push({ line, text, reason: `invalid JSON: ${(error as Error).message}` }); }
  };
  obs.lines.forEach((l, i) => take(i + 1, l.text, l.invalidUtf8 === true));
  if (obs.partialLine !== undefined) take(obs.lines.length + 1, obs.partialLine, false);
  const exit: DriveExit = {
    timedOut: obs.timedOut, exitCode: obs.exitCode, signal: obs.signal, stderr: obs.stderr, ...(obs.spawnError ? { spawnError: obs.spawnError } : {}), ...(obs.lingered ? { lingered: true } : {}), ...(obs.boundExtendedMs ? { boundExtendedMs: obs.boundExtendedMs } : {}), ...(obs.workAtBound ? { workAtBound: obs.workAtBound } : {}),
    ...(obs.stdinClosedAt !== undefined ? { stdinClosedAt: Math.round(obs.stdinClosedAt - startup), linesBeforeStdinClosed: obs.linesBeforeStdinClosed ?? 0 } : {}),
  };
  // The end of the input is a write too: EOF held back by a stall lets the client's grace run out first,
  // and so does EOF held back by many small delays (a body written a byte at a time): the stretch counts both.
  // And EOF counts from when it reached the pipe (ChildObservation.stdinEofAt), not when the close was asked for.
  const closed = obs.stdinClosedAt !== undefined && obs.inputAt.length === input.length;
  const eofAt = obs.stdinEofAt ?? obs.stdinClosedAt ?? 0;
  // And a stall of the harness's loop while a chunk too large for the pipe waited in it (ChildObservation.feedLoopStallMs).
  const feedStallMs = Math.max(worstStretchMs(closed ? [...obs.inputAt, eofAt] : obs.inputAt, [...input.map((c) => c.delayMs), holdMs]), obs.feedLoopStallMs ?? 0);
  return { records, problems, exit, durationMs: Math.max(0, Math.round(obs.durationMs - startup)), feedStallMs, ...(obs.cpuMs !== undefined ? { cpuMs: obs.cpuMs } : {}), ...(obs.spawnError ? { unusable: `could not be started: ${obs.spawnError}` } : {}) };
}

/** The window whose running out a client reported as its end (`final-rule`: the grace; `idle`: the idle window), if it did. */
export function clockWindowMs(d: Drive, w: ClientWindows): number | undefined {
  const last = [...d.records].reverse().find((r) => isEndValue(r.value))?.value as { end?: unknown } | undefined;
  return last?.end === 'final-rule' ? w.graceMs : last?.end === 'idle' ? w.idleMs : undefined;
}

/**
 * Drive a client once, and again (twice at most) while it ended by its own clock after the
 * harness's delivery paused for `stallShare` of that clock's window (feed-stall.ts): EOF written
 * late lets a correct client's grace after the final answer run out first (seen in CI on
 * 2026-11-29: examples/python-client/client.py in the one-shot form reported final-rule on
 * framing_duplicate_event_id under load, against the 250 ms grace). A client that ended by its
 * clock with no such pause, or by anything else, is judged on its first drive.
 */
export async function driveClientUnstalled(once: () => Promise<Drive>, windows: ClientWindows, signal: AbortSignal, onRetry?: (stallMs: number) => void): Promise<{ driven: Drive; stallMs: number; stalled: boolean }> {
  return driveWhileStalled(once, { stallMs: (d) => d.feedStallMs ?? 0, limitMs: (d) => clockWindowMs(d, windows), signal, ...(onRetry ? { onRetry } : {}) });
}


/**
 * `measureCpu`: the CPU time over the run (Drive.cpuMs) of the harness's process, where the module runs, and of the
 * processes started during it (run-delay.ts startWorkClock); the run is stopped as at its bound past `cpuBudgetMs` of it.
 */
export type ModuleDrive = { baseUrl: string; request: Record<string, unknown>; windows: ClientWindows; boundMs: number; signal: AbortSignal; feed?: Feed; measureCpu?: boolean; cpuBudgetMs?: number };

/**
 * One `client.run` within `boundMs`: the sink gets what the client reports until the bound (after it
 * the run is over: what the client reports once aborted is not its own end); a run past the bound, or
 * one `signal` ends, is aborted. With a `feed`, a run past the bound says whether the harness was
 * still writing its body then (`stillFed`). `overBudget`, read every 100 ms, ends the run as the bound does.
 */
export async function runWithin(client: ModuleClient, request: Record<string, unknown>, onRecord: ClientRecordSink, boundMs: number, signal?: AbortSignal, feed?: Feed, overBudget?: () => boolean): Promise<{ timedOut: boolean; threw?: string; stillFed?: true }> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal?.addEventListener('abort', stop, { once: true });
  let open = true;
  let timer: FairTimer | undefined;
  let watch: NodeJS.Timeout | undefined;
  let stillFed = false;
  try {
    // The bound counts time the harness's thread, where the module runs, could use (fair-timer.ts).
    const hung = new Promise<'hung'>((resolve) => {
      const overrun = () => { stillFed = feed?.writing() === true; resolve('hung'); };
      timer = fairTimeout(boundMs, overrun);
      if (overBudget) watch = onceOverBudget(overBudget, overrun);
    });
    const ran = Promise.resolve(client.run(request, (record) => { if (open) onRecord(record); }, controller.signal)).then(() => 'ok' as const);
    if (await Promise.race([ran, hung]) === 'ok') return { timedOut: false };
    open = false;
    controller.abort();
    return { timedOut: true, ...(stillFed ? { stillFed: true as const } : {}) };
  } catch (error) {
    return { timedOut: false, threw: error instanceof Error ? error.message : String(error) };
  } finally {
    timer?.cancel();
    clearInterval(watch);
    signal?.removeEventListener('abort', stop);
  }
}

export async function driveClientModule(factory: ClientFactory, spec: ModuleDrive): Promise<Drive> {
  const t0 = performance.now();
  const cpuClock = spec.measureCpu ? startWorkClock() : undefined;
  const records: ReportedRecord[] = [];
  const problems: ClientOutput['problems'] = [];
  const exit: DriveExit = { timedOut: false, exitCode: null, signal: null, stderr: '' };
  let ran: { timedOut: boolean; threw?: string; stillFed?: true };
  try {
    // A copy per record: a client that reuses one object must not rewrite what was reported.
    const client = factory({ baseUrl: spec.baseUrl, ...spec.windows });
    const budget = spec.cpuBudgetMs;
    const overBudget = cpuClock && budget !== undefined ? () => cpuClock.read() > budget : undefined;
    ran = await runWithin(client, structuredClone(spec.request), (record) => { records.push({ line: records.length + 1, value: safeCopy(record) }); }, spec.boundMs, spec.signal, spec.feed, overBudget);
  } catch (error) {
    ran = { timedOut: false, threw: error instanceof Error ? error.message : String(error) };
  }
  if (ran.threw !== undefined) {
    exit.threw = ran.threw;
    problems.push({ line: records.length + 1, text: exit.threw, reason: `the client threw instead of reporting an end record: ${exit.threw}` });
  } else if (ran.timedOut) {
    exit.timedOut = true;
    if (ran.stillFed) exit.stillFed = true;
  } else {
    exit.exitCode = 0;
  }
  return { records, problems, exit, durationMs: Math.round(performance.now() - t0), ...(cpuClock ? { cpuMs: cpuClock.stop() } : {}) };
}

/**
 * A module client's drive with its feed stall: the event loop's longest stall while it ran. The
 * module shares the harness's loop, so a stall of the loop is a stall of the body's delivery to it,
 * and its timers due during the stall fire before the late bytes reach it. Only where a clock is
 * judged: the memory probe's thousands of runs do not pay for the monitor.
 */
export async function watchingTheLoop(drive: () => Promise<Drive>): Promise<Drive> {
  const watch = watchLoop();
  try {
    const d = await drive();
    return { ...d, feedStallMs: watch.stop() };
  } finally {
    watch.stop();
  }
}

function safeCopy(value: unknown): unknown {
  try { return structuredClone(value); } catch { return String(value); }
}
