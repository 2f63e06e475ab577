/**
 * Runs an implementation under test as a child process and observes it, whatever it does:
 * exits at once, writes garbage or only to stderr, never ends, ignores SIGTERM. Nothing here throws
 * because of the child's behaviour; the observation records it and the checks decide.
 *
 * Each child gets its own process group (detached) so that a shell wrapper and everything it
 * started are stopped together: `sh -c "python3 t.py"` must not leave python3 behind.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { fairTimeout, type FairTimer } from './fair-timer.ts';
import { createLineSplitter } from '../core/lines.ts';
import { feedWatch } from './loop-stall.ts';
import { yieldToHarness } from './child-priority.ts';
import { treeRunnableMs } from './run-delay.ts';

/** `invalidUtf8`: the stdout bytes held invalid UTF-8 by then and this line shows U+FFFD where they were. */
export type ChildLine = { t: number; text: string; invalidUtf8?: true };

export type ChildObservation = {
  command: string;
  /** stdout, split into lines (without the line terminator), with arrival times (ms since spawn). */
  lines: ChildLine[];
  /** A trailing stdout fragment without a line terminator, if any. */
  partialLine?: string;
  /** stderr text, capped at `maxStderrBytes` (the rest is counted, not kept). */
  stderr: string;
  stderrDropped: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The process could not be started at all (ENOENT, EACCES). */
  spawnError?: string;
  /** The harness had to stop it: it outlived its time bound. */
  timedOut: boolean;
  /** How far its bound moved for CPU time the machine withheld from it or from the harness (fair-timer.ts), when it did. */
  boundExtendedMs?: number;
  /**
   * When the bound ran out: how long its process tree ran or was ready to run in the last `overMs`
   * (run-delay.ts treeRunnableMs; the one-shot form: since spawn; the session form: since at most a
   * second before the run opened, other runs in flight included). A process still
   * working at the bound (a reader whose cost grows with the square of a long line) is told from
   * one that waits on its input (a hang). Undefined where /proc has nothing.
   */
  workAtBound?: { workMs: number; overMs: number };
  /** Session form, `measureCpu`: the CPU time (ms) its process tree used from the run's open to its end, other runs in flight included; unlike wall time, load does not stretch it. */
  cpuMs?: number;
  /** It ignored SIGTERM and was killed with SIGKILL. */
  killed: boolean;
  /** It wrote its last line (`exitAfter`) and had all its input, but did not exit within the grace: the harness stopped it. */
  lingered?: true;
  /** stdout exceeded `maxStdoutBytes`; the rest was discarded and the child stopped. */
  overflowed: boolean;
  durationMs: number;
  /** When each input line was actually written (ms since spawn): later than scripted on a loaded machine. */
  inputAt: number[];
  /** When stdin was closed (ms since spawn), and how many stdout lines had come by then, if it was. */
  stdinClosedAt?: number;
  linesBeforeStdinClosed?: number;
  /**
   * When the end of stdin reached the pipe (ms since spawn): the shutdown is made on a later turn of
   * the harness's event loop than the close was asked for, so a harness starved of CPU there sends
   * EOF late although it closed on time (a one-shot form only; undefined if it never completed).
   */
  stdinEofAt?: number;
  /**
   * The longest stall of the harness's event loop while part of an input write waited in it for the
   * pipe (ms; loop-stall.ts feedWatch). A line too large for the pipe waits there for the process to
   * read and for the loop to write the rest: a 2 MB event fed while the harness's loop also ran a
   * memory probe's runs is the likely cause of a correct client's missing events in the clean-clone
   * CI of 895db4c (CLI-LARGE-001). The call times in `inputAt` cannot show it.
   */
  feedLoopStallMs?: number;
};

export type ChildScript = {
  /** Shell command line, run with `sh -c` (like npm scripts), in `cwd`. */
  command: string;
  cwd?: string;
  /**
   * Session form: measure the run's CPU time (ChildObservation.cpuMs; two walks of /proc, so only where a check
   * reads it), and stop the run as at its bound once it has used `cpuBudgetMs` of it (read every 100 ms).
   */
  measureCpu?: boolean;
  cpuBudgetMs?: number;
  env?: Record<string, string>;
  /**
   * Lines written to stdin, each followed by `\n`, after waiting `delayMs`; an entry with `bytes`
   * is written as it is, with no line end (a client under test reads a raw SSE body).
   */
  input: Array<{ text: string; delayMs?: number } | { bytes: Uint8Array; delayMs?: number }>;
  /** Keep stdin open this long after the last line before closing it (a held-open stream). */
  holdStdinMs?: number;
  /**
   * Keep stdin open after the last line until a stdout line arrives, at most this long: a filter
   * that writes as it reads has answered by then, one that buffers until EOF has not.
   */
  holdStdinUntilOutputMs?: number;
  /** With holdStdinUntilOutputMs: the output line that answers (default: any line), e.g. a terminal event. */
  holdStdinUntil?: (line: string) => boolean;
  /**
   * With holdStdinUntilOutputMs: while the process has written no line at all when its last line is
   * written, the wait starts at its first line, at most this long after the last line (default: no
   * such wait). A process still starting cannot have answered: fed from spawn, the example Python
   * transformer in the one-shot form started behind a loaded CI runner after the hold had mostly run
   * out, and its input was closed between its first events and its answer to `[DONE]` (ABE-TERM-004
   * failed, 2026-11-30). A process that writes nothing until EOF waits this long, once a run.
   */
  holdStdinSilentMs?: number;
  /** Total time bound; the child is stopped at it. A loaded machine's withheld CPU time moves it (fair-timer.ts). */
  timeoutMs: number;
  /** Grace between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  maxStdoutBytes?: number;
  maxStderrBytes?: number;
  /** Stop early once this returns true for a stdout line (e.g. a terminal event arrived). */
  stopWhen?: (line: string) => boolean;
  /**
   * A child whose contract says it exits after its last line: once stdin is closed and a stdout
   * line `last` accepts has come, it has `graceMs` to exit before it is stopped (`lingered`).
   * Without this a child that lingers holds the harness until `timeoutMs`.
   */
  exitAfter?: { last: (line: string) => boolean; graceMs: number };
  /** Stop the child when this aborts (the engine gave up on the run: fail fast, a cancelled job). */
  signal?: AbortSignal;
  /** Told the child's pid once it is spawned (the start-up probe reads whether it works or waits). */
  onSpawn?: (pid: number) => void;
};

/** Process groups of the children still running (each child leads its own group). */
const liveGroups = new Set<number>();
let signalsHooked = false;

function killLiveGroups(): void {
  for (const pgid of liveGroups) { try { process.kill(-pgid, 'SIGKILL'); } catch { /* already gone */ } }
  liveGroups.clear();
}

/**
 * A cancelled CI job sends the harness SIGTERM (or SIGINT from a terminal). Node's default would end
 * the harness at once and leave every detached child running, a hanging implementation included;
 * so the first child hooks those signals: kill every live group, then let the signal take its
 * default course (the listener is removed and the signal raised again).
 */
function hookSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  process.once('exit', killLiveGroups);
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  const onSignal = (signal: NodeJS.Signals): void => {
    killLiveGroups();
    for (const s of signals) process.removeListener(s, onSignal);
    process.kill(process.pid, signal);
  };
  for (const s of signals) process.on(s, onSignal);
}

/** How many children are running now (tests read it to prove nothing outlives a run). */
export function liveChildren(): number {
  return liveGroups.size;
}

/**
 * Stop a process group started outside runChild (the audit bridge's long-lived child) together with
 * the others when the harness exits or is signalled. Returns the function that forgets it once it exited.
 */
export function trackProcessGroup(pgid: number): () => void {
  hookSignals();
  liveGroups.add(pgid);
  return () => { liveGroups.delete(pgid); };
}

/** How feedInOrder reaches a stream: its timers, a line's write, the input's end, and its output so far. */
export type Feeder = {
  later: (ms: number, fn: () => void) => void;
  /**
   * The wait for an answer (holdStdinUntilOutputMs), counted as a bound on the implementation
   * (fair-timer.ts): a process at nice 5 behind a loaded runner may not have started within the
   * hold, and an input closed before it wrote anything leaves [DONE] against EOF untold (ABE-TERM-004
   * untested in a clean-clone CI run, 2026-11-30). It also waits while the process works when it
   * runs out (fair-timer.ts whileBusyMs, up to the run's bound): a correct Python transformer that
   * wrote its first events and was then kept from its terminal one past the withheld-time cap, or on a
   * disk read, had its input closed first and failed ABE-TERM-004 (clean-clone CI of 89a906a). Default: `later`.
   */
  awaitAnswer?: (ms: number, fn: () => void) => void;
  write: (line: ChildScript['input'][number]) => void;
  end: () => void;
  hasOutput: () => boolean;
  onFirstOutput: (fn: () => void) => void;
  /** Whether the process has written any line yet, and a call at its first (holdStdinSilentMs). */
  hasAnyLine: () => boolean;
  onAnyLine: (fn: () => void) => void;
};

/**
 * Feed a script's input on its timing, then end it (or hold it open first). One chain of timers,
 * each line after the one before: timers of different lengths set at once fire out of order when
 * the event loop runs late (a loaded machine; 20 session runs open at once), and a line, or the
 * end, overtaking the one before it is a stream the implementation never got. Used by the one-shot
 * form here and the session form (session.ts).
 */
export function feedInOrder(script: ChildScript, f: Feeder): void {
  const afterInput = () => {
    if (script.holdStdinUntilOutputMs === undefined) {
      // No hold: the end follows the last line at once, as a server's EOF follows its last chunk,
      // not a timer's turn later (a turn a loaded machine can stretch past a client's grace).
      const ms = script.holdStdinMs ?? 0;
      if (ms > 0) f.later(ms, f.end); else f.end();
      return;
    }
    // Output that came before the last line was written counts too.
    if (f.hasOutput()) { f.end(); return; }
    f.onFirstOutput(f.end);
    const wait = f.awaitAnswer ?? f.later;
    const hold = script.holdStdinUntilOutputMs;
    if (script.holdStdinSilentMs === undefined || f.hasAnyLine()) { wait(hold, f.end); return; }
    let started = false;
    const start = () => { if (!started) { started = true; wait(hold, f.end); } };
    f.onAnyLine(start);
    wait(script.holdStdinSilentMs, () => { if (!started) f.end(); });
  };
  const step = (i: number): void => {
    for (; i < script.input.length; i++) {
      const line = script.input[i] as ChildScript['input'][number];
      if ((line.delayMs ?? 0) > 0) { const next = i; f.later(line.delayMs ?? 0, () => { f.write(line); step(next + 1); }); return; }
      f.write(line);
    }
    afterInput();
  };
  step(0);
}

/**
 * How long a wait for an answer goes on while the process works (fair-timer.ts whileBusyMs): half
 * the run's bound, so a process busy past it (a busy loop that ignores [DONE]) still has its input
 * closed well before the run's own bound and is judged on what EOF did, not as a hang.
 */
export const answerBusyMs = (runTimeoutMs: number): number => Math.floor(runTimeoutMs / 2);

/**
 * Writes to a child's stdin, `flushed` called once the bytes reached the pipe, and says whether part
 * of them waits in the harness: in the stream's buffer (a write the kernel took whole leaves it empty
 * before write() returns) or in libuv's write queue. Either can hold an 8 MB line while the other
 * reads 0 (measured: 2 of 3 fresh processes had it in libuv's queue, 1 in the stream's buffer).
 */
export function writeWaits(stdin: Writable | null, data: string | Uint8Array, flushed: () => void): boolean {
  if (!stdin) { flushed(); return false; }
  stdin.write(data, () => flushed());
  return stdin.writableLength > 0 || ((stdin as Writable & { _handle?: { writeQueueSize?: number } })._handle?.writeQueueSize ?? 0) > 0;
}

/** Whether an output line ends a hold of stdin (holdStdinUntilOutputMs): the line holdStdinUntil names, else any. */
export const answersHold = (script: ChildScript, line: string): boolean => script.holdStdinUntil?.(line) ?? true;

/** A reading of how long a process tree has run or been ready to run (treeRunnableMs), and when (performance.now()). */
export type WorkMark = { at: number; workMs: number };

/** Notes how long the tree under `pid` ran or was ready to run since `from`, where /proc says. */
export function workAtBound(obs: ChildObservation, pid: number | undefined, from: WorkMark): void {
  if (pid === undefined || !existsSync(`/proc/${pid}`)) return;
  obs.workAtBound = { workMs: Math.max(0, Math.round(treeRunnableMs(pid) - from.workMs)), overMs: Math.round(performance.now() - from.at) };
}

export function runChild(script: ChildScript): Promise<ChildObservation> {
  const started = performance.now();
  const maxStdout = script.maxStdoutBytes ?? 64 * 1024 * 1024;
  const maxStderr = script.maxStderrBytes ?? 64 * 1024;
  const grace = script.killGraceMs ?? 1000;
  const obs: ChildObservation = {
    command: script.command, lines: [], stderr: '', stderrDropped: 0, exitCode: null, signal: null,
    timedOut: false, killed: false, overflowed: false, durationMs: 0, inputAt: [],
  };

  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('sh', ['-c', script.command], {
        cwd: script.cwd, env: { ...process.env, ...script.env }, stdio: ['pipe', 'pipe', 'pipe'], detached: true,
      });
    } catch (error) {
      obs.spawnError = (error as Error).message;
      resolve(obs);
      return;
    }
    yieldToHarness(child.pid);
    if (child.pid !== undefined) script.onSpawn?.(child.pid);
    hookSignals();
    const pgid = child.pid;
    if (pgid !== undefined) liveGroups.add(pgid);
    const now = () => Math.round(performance.now() - started);
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, fn: () => void) => { const t = setTimeout(() => { timers.delete(t); fn(); }, ms); timers.add(t); };
    let finished = false;
    let stdoutBytes = 0;
    const decoder = new TextDecoder('utf-8');
    // The lenient decoder keeps the text readable; the strict one only notices that bytes were not UTF-8.
    let strict = new TextDecoder('utf-8', { fatal: true });
    let sawInvalidUtf8 = false;

    const killGroup = (signal: NodeJS.Signals) => {
      try { if (child.pid !== undefined) process.kill(-child.pid, signal); } catch { /* already gone */ }
    };
    const stop = () => {
      if (finished || child.exitCode !== null || child.signalCode !== null) return;
      killGroup('SIGTERM');
      later(grace, () => { if (!finished) { obs.killed = true; killGroup('SIGKILL'); } });
    };

    const root = () => (finished ? undefined : child.pid);
    const fed = feedWatch(script.input.length, (ms) => { obs.feedLoopStallMs = ms; });
    const bound = fairTimeout(script.timeoutMs, () => { if (!finished) { obs.timedOut = true; workAtBound(obs, child.pid, { at: started, workMs: 0 }); stop(); } }, { root });
    let hold: FairTimer | undefined;
    if (script.signal?.aborted) stop();
    else script.signal?.addEventListener('abort', stop, { once: true });

    child.on('error', (error) => { obs.spawnError ??= error.message; });
    child.stdin?.on('error', () => { /* the child closed stdin early: recorded by its exit */ });
    // Set while stdin is held open until the answering output line (holdStdinUntilOutputMs).
    let closeOnOutput: (() => void) | undefined;
    let onLine: (() => void) | undefined;
    let answered = false;
    // exitAfter: the last line came, and the grace starts once stdin is closed too.
    let sawLast = false;
    let exitArmed = false;
    const armExit = () => {
      const exitAfter = script.exitAfter;
      if (!exitAfter || !sawLast || exitArmed || obs.stdinClosedAt === undefined) return;
      exitArmed = true;
      later(exitAfter.graceMs, () => { if (!finished) { obs.lingered = true; stop(); } });
    };
    const splitter = createLineSplitter((line) => {
      const text = line.replace(/\r$/, '');
      obs.lines.push({ t: now(), text, ...(sawInvalidUtf8 && text.includes('\uFFFD') ? { invalidUtf8: true as const } : {}) });
      if (!answered && answersHold(script, text)) answered = true;
      if (script.stopWhen?.(text)) stop();
      if (!sawLast && script.exitAfter?.last(text)) { sawLast = true; armExit(); }
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      if (obs.overflowed) return;
      stdoutBytes += chunk.byteLength;
      if (stdoutBytes > maxStdout) { obs.overflowed = true; stop(); return; }
      if (!sawInvalidUtf8) {
        try { strict.decode(chunk, { stream: true }); } catch { sawInvalidUtf8 = true; strict = new TextDecoder('utf-8', { fatal: true }); }
      }
      splitter.push(decoder.decode(chunk, { stream: true }));
      if (obs.lines.length > 0) onLine?.();
      if (answered) closeOnOutput?.();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      const room = maxStderr - Buffer.byteLength(obs.stderr);
      if (room <= 0) { obs.stderrDropped += chunk.byteLength; return; }
      obs.stderr += chunk.subarray(0, room).toString('utf8');
      obs.stderrDropped += Math.max(0, chunk.byteLength - room);
    });
    child.on('close', (code, signal) => {
      finished = true;
      fed.stop();
      script.signal?.removeEventListener('abort', stop);
      for (const t of timers) clearTimeout(t);
      bound.cancel();
      hold?.cancel();
      if (bound.extendedMs() > 0) obs.boundExtendedMs = bound.extendedMs();
      // The shell is gone; make sure nothing it started survives it.
      killGroup('SIGKILL');
      if (pgid !== undefined) liveGroups.delete(pgid);
      splitter.push(decoder.decode());
      const pending = splitter.rest();
      // Past the output limit the harness stopped reading mid-line: that cut line is its own, not the
      // implementation's (the overflow is the finding), so it is neither judged as a line nor as unterminated.
      if (pending.length > 0 && !obs.overflowed) obs.partialLine = pending;
      obs.exitCode = code;
      obs.signal = signal;
      obs.durationMs = now();
      resolve(obs);
    });

    const close = () => {
      if (finished || obs.stdinClosedAt !== undefined) return;
      obs.stdinClosedAt = now();
      obs.linesBeforeStdinClosed = obs.lines.length;
      child.stdin?.once('finish', () => { obs.stdinEofAt ??= now(); });
      child.stdin?.end();
      armExit();
    };
    feedInOrder(script, {
      later,
      awaitAnswer: (ms, fn) => { hold = fairTimeout(ms, fn, { root, whileBusyMs: answerBusyMs(script.timeoutMs) }); },
      write: (line) => {
        if (finished) return;
        obs.inputAt.push(now());
        fed.write((flushed) => writeWaits(child.stdin, 'bytes' in line ? line.bytes : line.text + '\n', flushed));
      },
      end: close,
      hasOutput: () => answered,
      onFirstOutput: (fn) => { closeOnOutput = fn; },
      hasAnyLine: () => obs.lines.length > 0,
      onAnyLine: (fn) => { onLine = fn; },
    });
  });
}
