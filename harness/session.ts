/**
 * Long-lived implementations under test: one process speaks the session protocol
 * (session-protocol.ts, docs/session-protocol.md) and serves many runs. `runChild` here takes the
 * same script and gives the same observation as child.ts's one-shot `runChild`, so every command
 * target drives either form through one function: a run's `open` is the spawn, its `input`
 * messages the stdin lines, `end` the stdin EOF, its `line` messages the stdout lines and `exit`
 * the exit status. Clocks start at a run's `open`, after the process said `ready`: start-up is not
 * behaviour.
 *
 * Bowtie's rule, kept: whatever a process does, the certification goes on. A run that overruns its
 * bound ends as a one-shot timeout would (`timedOut`, SIGTERM) and its process is retired: it takes
 * no new run and is stopped once its other runs ended, and the next run gets a fresh process. A
 * process that exits ends every run in flight with its status. Each replacement is recorded in
 * `restarts()`: a correct implementation needs none.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { answerBusyMs, answersHold, workAtBound, feedInOrder, trackProcessGroup, writeWaits, type ChildLine, type ChildObservation, type ChildScript, type WorkMark } from './child.ts';
import { onceOverBudget, ownRunDelayMs, treeCpuMs, treeRunnableMs } from './run-delay.ts';
import { encode, parseLine, sessionEnvVar, sessionProtocolVersion, type HarnessMessage, type Implementation } from './session-protocol.ts';
import { fairTimeout, type FairTimer } from './fair-timer.ts';
import { feedWatch } from './loop-stall.ts';
import { yieldToHarness } from './child-priority.ts';
import { createLineSplitter } from '../core/lines.ts';

export type SessionOptions = {
  command: string;
  cwd?: string;
  /** Environment for the process itself; each run's own environment goes in its `open`. */
  env?: Record<string, string>;
  /** The part the harness certifies, named in `start`. */
  part: string;
  /** Bound from spawn to `ready`. */
  startupTimeoutMs: number;
  /** Processes at most (runs are spread over them); default 1. */
  processes?: number;
  /** Runs one process may have in flight at once; default 1 (a fault is then the run's own). */
  runsPerProcess?: number;
  killGraceMs?: number;
  maxStderrBytes?: number;
};

export type Ready = { ok: true; implementation: Implementation; startupMs: number } | { ok: false; reason: string; stderr: string };
export type Restart = { process: number; reason: string };

type RunState = {
  id: string;
  obs: ChildObservation;
  t0: number;
  stdoutBytes: number;
  stderrFrom: number;
  timers: Set<NodeJS.Timeout>;
  /** Its time bound (fair-timer.ts). */
  bound?: FairTimer;
  /** The wait for an answer after the last line (ChildScript.holdStdinUntilOutputMs), fair as the bound is. */
  hold?: FairTimer;
  script: ChildScript;
  finish: (how: Partial<ChildObservation>) => void;
  closeOnOutput?: () => void;
  /** Called at each output line once set (ChildScript.holdStdinSilentMs). */
  onLine?: () => void;
  /** The answering output line came (ChildScript.holdStdinUntil; any line without it). */
  answered?: true;
  /** `exitAfter`: its last line came; the grace starts once its input ended too. */
  armExit?: (sawLast: boolean) => void;
};

type Proc = {
  n: number;
  child: ChildProcess | undefined;
  ready: Promise<Ready>;
  runs: Map<string, RunState>;
  /** Places taken by runs waiting for the handshake. */
  reserved: number;
  retired: boolean;
  exited: boolean;
  stderr: string;
  /** `written`: called once the message reached the pipe; true when part of it waits in the harness (child.ts writeWaits). */
  send: (message: HarnessMessage, written?: () => void) => boolean;
  stop: () => void;
  /** How long its tree has run or been ready to run, read at most once a second as runs open (workMark): a run's overrun says whether the process was working. */
  work?: WorkMark;
};

/** A recent reading of `p`'s work (treeRunnableMs): read again when over a second old, so 10,000 runs of a memory probe cost a few reads. */
function workMark(p: Proc, pid: number | undefined): WorkMark {
  const now = performance.now();
  if (pid !== undefined && (p.work === undefined || now - p.work.at > 1000)) p.work = { at: now, workMs: treeRunnableMs(pid) };
  return p.work ?? { at: now, workMs: 0 };
}

/**
 * Raw bytes go in `input` messages of at most this many, as a socket hands a body to its reader: a
 * client's idle clock restarts with each read. One 2 MB `input` line restarted it only once whole,
 * and in the clean-clone CI of 2820dfd examples/python-client/client.py ended the large-event byte
 * case `idle` with no event: after a second of the line arriving, the harness's next short pause in
 * writing it was the client's whole idle window.
 */
export const inputPieceBytes = 64 * 1024;

/** Send `bytes` as one `input` message per piece (one, empty, for no bytes); `written` once the last reached the pipe. True when part of them waits. */
function sendBytes(p: Proc, run: string, bytes: Uint8Array, written: () => void): boolean {
  let waits = false;
  let at = 0;
  do {
    const end = Math.min(at + inputPieceBytes, bytes.length);
    waits = p.send({ cmd: 'input', run, bytes: Buffer.from(bytes.subarray(at, end)).toString('base64') }, end === bytes.length ? written : undefined) || waits;
    at = end;
  } while (at < bytes.length);
  return waits;
}

export type SessionPool = {
  /** The first process's handshake (spawning it if none runs yet). */
  ready(): Promise<Ready>;
  runChild(script: ChildScript): Promise<ChildObservation>;
  restarts(): Restart[];
  /** The pid of the first live process, also its process group's id (spawned detached); undefined when none runs. Memory probes read its RSS. */
  pid(): number | undefined;
  close(): Promise<void>;
};

const tail = (text: string): string => text.length > 400 ? `…${text.slice(-400)}` : text;

export function openSessionPool(options: SessionOptions): SessionPool {
  const procs: Proc[] = [];
  const restarts: Restart[] = [];
  const waiting: Array<() => void> = [];
  const maxProcs = options.processes ?? 1;
  const perProc = options.runsPerProcess ?? 1;
  const grace = options.killGraceMs ?? 500;
  const maxStderr = options.maxStderrBytes ?? 64 * 1024;
  let spawned = 0;
  let runs = 0;
  let closed = false;

  const release = () => { const next = waiting.shift(); next?.(); };

  const retire = (p: Proc, reason: string | undefined) => {
    if (!p.retired && reason !== undefined) restarts.push({ process: p.n, reason });
    p.retired = true;
    if (p.runs.size === 0 && p.reserved === 0) p.stop();
    release();
  };

  function spawnProc(): Proc {
    const n = ++spawned;
    const started = performance.now();
    let child: ChildProcess | undefined;
    let forget = () => {};
    const decoder = new TextDecoder('utf-8');
    let resolveReady: (r: Ready) => void = () => {};
    const p: Proc = {
      n, child: undefined, runs: new Map(), reserved: 0, retired: false, exited: false, stderr: '',
      ready: new Promise((resolve) => { resolveReady = resolve; }),
      send: (message, written) => {
        if (p.exited || !child) { written?.(); return false; }
        return writeWaits(child.stdin, encode(message), () => written?.());
      },
      stop: () => {
        if (p.exited) return;
        p.send({ cmd: 'stop' });
        child?.stdin?.end();
        const kill = (signal: NodeJS.Signals) => { try { if (child?.pid !== undefined) process.kill(-child.pid, signal); } catch { /* gone */ } };
        setTimeout(() => { if (!p.exited) kill('SIGTERM'); }, grace).unref();
        setTimeout(() => { if (!p.exited) kill('SIGKILL'); }, 2 * grace).unref();
      },
    };
    let isReady = false;
    const readyTimer = fairTimeout(options.startupTimeoutMs, () => {
      if (isReady) return;
      resolveReady({ ok: false, reason: `no "ready" line within the ${options.startupTimeoutMs} ms start-up bound${readyTimer.extendedMs() > 0 ? ` (moved ${readyTimer.extendedMs()} ms for CPU time the machine withheld)` : ''}`, stderr: tail(p.stderr) });
      retire(p, 'did not say ready');
    }, { root: () => (p.exited ? undefined : child?.pid) });
    try {
      child = spawn('sh', ['-c', options.command], { cwd: options.cwd, env: { ...process.env, ...options.env, [sessionEnvVar]: 'session' }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    } catch (error) {
      readyTimer.cancel();
      p.exited = true;
      resolveReady({ ok: false, reason: `could not be started: ${(error as Error).message}`, stderr: '' });
      return p;
    }
    p.child = child;
    yieldToHarness(child.pid);
    if (child.pid !== undefined) forget = trackProcessGroup(child.pid);
    child.on('error', (error) => { p.stderr += `\n${error.message}`; });
    child.stdin?.on('error', () => { /* it closed stdin: seen at its exit */ });
    child.stderr?.on('data', (chunk: Buffer) => { if (p.stderr.length < maxStderr) p.stderr += chunk.toString('utf8'); });
    const onLine = (text: string) => {
      const m = parseLine(text);
      if (!isReady) {
        if (m.kind === 'ready') {
          isReady = true;
          readyTimer.cancel();
          resolveReady({ ok: true, implementation: m.implementation, startupMs: Math.round(performance.now() - started) });
        } else {
          readyTimer.cancel();
          resolveReady({ ok: false, reason: `its first line is not "ready" (${m.kind === 'invalid' ? m.why : `a ${m.kind} message`}): ${JSON.stringify(text.slice(0, 200))}`, stderr: tail(p.stderr) });
          retire(p, 'did not say ready');
        }
        return;
      }
      if (m.kind === 'invalid' || m.kind === 'ready') {
        // Not the protocol: every run in flight sees the line as its own output, as a one-shot
        // process's stray line would be; the checks judge it there.
        for (const r of p.runs.values()) deliver(r, text);
        return;
      }
      const r = p.runs.get(m.run);
      if (r === undefined) return; // a run the harness already ended (cancelled, overran): nothing to judge
      if (m.kind === 'line') deliver(r, m.text);
      else r.finish({ exitCode: m.code });
    };
    const splitter = createLineSplitter((line) => {
      const text = line.replace(/\r$/, '');
      if (text !== '') onLine(text);
    });
    child.stdout?.on('data', (chunk: Buffer) => splitter.push(decoder.decode(chunk, { stream: true })));
    child.on('close', (code, signal) => {
      p.exited = true;
      forget();
      readyTimer.cancel();
      try { if (child?.pid !== undefined) process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
      if (!isReady) resolveReady({ ok: false, reason: `exited (${signal ?? `status ${code}`}) before its "ready" line`, stderr: tail(p.stderr) });
      const inFlight = [...p.runs.values()];
      const pending = splitter.rest();
      for (const r of inFlight) r.finish({ exitCode: code, signal, ...(pending !== '' ? { partialLine: pending } : {}) });
      if (!p.retired && !closed) retire(p, `exited (${signal ?? `status ${code}`})${inFlight.length > 0 ? ` during ${inFlight.map((r) => r.id).join(', ')}` : ''}`);
      release();
    });
    p.send({ cmd: 'start', protocol: sessionProtocolVersion, part: options.part });
    return p;
  }

  function deliver(r: RunState, text: string): void {
    const now = Math.round(performance.now() - r.t0);
    r.stdoutBytes += Buffer.byteLength(text) + 1;
    if (r.stdoutBytes > (r.script.maxStdoutBytes ?? 64 * 1024 * 1024)) { r.finish({ overflowed: true, signal: 'SIGTERM' }); return; }
    const line: ChildLine = { t: now, text };
    r.obs.lines.push(line);
    r.onLine?.();
    if (!r.answered && answersHold(r.script, text)) r.answered = true;
    if (r.answered) r.closeOnOutput?.();
    if (r.script.exitAfter?.last(text)) r.armExit?.(true);
    if (r.script.stopWhen?.(text)) r.finish({ signal: 'SIGTERM' });
  }

  async function acquire(): Promise<Proc> {
    for (;;) {
      const free = procs.find((p) => !p.retired && !p.exited && p.runs.size + p.reserved < perProc);
      if (free) { free.reserved++; return free; }
      const live = procs.filter((p) => !p.exited && !(p.retired && p.runs.size + p.reserved === 0));
      if (live.length < maxProcs) { const p = spawnProc(); procs.push(p); p.reserved++; return p; }
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  }

  async function runChild(script: ChildScript): Promise<ChildObservation> {
    const obs: ChildObservation = { command: options.command, lines: [], stderr: '', stderrDropped: 0, exitCode: null, signal: null, timedOut: false, killed: false, overflowed: false, durationMs: 0, inputAt: [] };
    if (closed) return { ...obs, spawnError: 'the session was closed' };
    const p = await acquire();
    const id = `r${++runs}`;
    // acquire() reserved the place, so two runs never take one process's last place while the handshake settles.
    const ready = await p.ready;
    p.reserved--;
    if (!ready.ok) {
      if (p.runs.size + p.reserved === 0) p.stop();
      release();
      return { ...obs, spawnError: `the session process ${ready.reason}`, stderr: ready.stderr };
    }
    return new Promise((resolve) => {
      // Stopped at the run's end too: a run ended before its input all reached the pipe still says how the loop stalled.
      const fed = feedWatch(script.input.length, (ms) => { obs.feedLoopStallMs = ms; });
      const r: RunState = {
        id, obs, t0: performance.now(), stdoutBytes: 0, stderrFrom: p.stderr.length, timers: new Set(), script,
        finish: (how) => {
          if (!p.runs.has(id) || p.runs.get(id) !== r) return;
          p.runs.delete(id);
          fed.stop();
          for (const t of r.timers) clearTimeout(t);
          r.bound?.cancel();
          r.hold?.cancel();
          if ((r.bound?.extendedMs() ?? 0) > 0) obs.boundExtendedMs = r.bound?.extendedMs();
          script.signal?.removeEventListener('abort', onAbort);
          Object.assign(obs, how);
          obs.durationMs = Math.round(performance.now() - r.t0);
          const endPid = p.exited ? undefined : p.child?.pid;
          if (cpuAtOpen !== undefined && endPid !== undefined && ownRunDelayMs() !== undefined) obs.cpuMs = Math.max(0, Math.round(treeCpuMs(endPid) - cpuAtOpen));
          obs.stderr = p.stderr.slice(r.stderrFrom);
          // The harness ended it (bound, stop, abort, overflow): the process forgets it; an overrun or overflow retires the process.
          if (how.exitCode === undefined && !p.exited) p.send({ cmd: 'cancel', run: id });
          if (how.timedOut || how.overflowed) retire(p, `${id} ${how.timedOut ? 'overran its bound' : 'overflowed stdout'}`);
          else if (p.retired && p.runs.size === 0) p.stop();
          else release();
          resolve(obs);
        },
      };
      const later = (ms: number, fn: () => void) => { const t = setTimeout(() => { r.timers.delete(t); fn(); }, ms); r.timers.add(t); };
      const onAbort = () => r.finish({ signal: 'SIGTERM' });
      // As child.ts's exitAfter: a run that wrote its last line and had its whole input ends with its `exit`, or is stopped (lingered).
      let sawLast = false;
      let armed = false;
      r.armExit = (last) => {
        sawLast ||= last;
        const exitAfter = script.exitAfter;
        if (!exitAfter || !sawLast || armed || obs.stdinClosedAt === undefined) return;
        armed = true;
        later(exitAfter.graceMs, () => r.finish({ lingered: true, signal: 'SIGTERM' }));
      };
      p.runs.set(id, r);
      p.send({ cmd: 'open', run: id, env: script.env ?? {} });
      const pid = () => (p.exited ? undefined : p.child?.pid);
      const mark = workMark(p, pid());
      const openPid = pid();
      const cpuAtOpen = script.measureCpu !== true || openPid === undefined ? undefined : treeCpuMs(openPid);
      const overrun = () => { if (p.runs.get(id) === r) workAtBound(obs, pid(), mark); r.finish({ timedOut: true, signal: 'SIGTERM' }); };
      const bound = fairTimeout(script.timeoutMs, overrun, { root: pid });
      r.bound = bound;
      if (cpuAtOpen !== undefined && script.cpuBudgetMs !== undefined) {
        const budget = script.cpuBudgetMs;
        r.timers.add(onceOverBudget(() => { const now = pid(); return now !== undefined && treeCpuMs(now) - cpuAtOpen > budget; }, overrun));
      }
      if (script.signal?.aborted) { onAbort(); return; }
      script.signal?.addEventListener('abort', onAbort, { once: true });
      const end = () => {
        if (obs.stdinClosedAt !== undefined || !p.runs.has(id)) return;
        obs.stdinClosedAt = Math.round(performance.now() - r.t0);
        obs.linesBeforeStdinClosed = obs.lines.length;
        p.send({ cmd: 'end', run: id });
        r.armExit?.(false);
      };
      feedInOrder(script, {
        later,
        awaitAnswer: (ms, fn) => { r.hold = fairTimeout(ms, fn, { root: () => (p.exited ? undefined : p.child?.pid), whileBusyMs: answerBusyMs(script.timeoutMs) }); },
        write: (line) => {
          if (!p.runs.has(id)) return;
          obs.inputAt.push(Math.round(performance.now() - r.t0));
          fed.write((flushed) => ('bytes' in line ? sendBytes(p, id, line.bytes, flushed) : p.send({ cmd: 'input', run: id, text: line.text }, flushed)));
        },
        end,
        hasOutput: () => r.answered === true,
        onFirstOutput: (fn) => { r.closeOnOutput = fn; },
        hasAnyLine: () => obs.lines.length > 0,
        onAnyLine: (fn) => { r.onLine = fn; },
      });
    });
  }

  return {
    ready: async () => { const p = procs.find((q) => !q.exited && !q.retired) ?? (() => { const q = spawnProc(); procs.push(q); return q; })(); return p.ready; },
    runChild,
    restarts: () => [...restarts],
    pid: () => procs.find((p) => !p.exited && p.child?.pid !== undefined)?.child?.pid,
    close: async () => {
      closed = true;
      const exits = procs.filter((p) => !p.exited && p.child).map((p) => new Promise<void>((resolve) => { p.child?.once('close', () => resolve()); p.stop(); }));
      await Promise.all(exits);
    },
  };
}
