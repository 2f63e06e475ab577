/**
 * One audit bridge under the command contract (docs/audit-bridge-contract.md): a real child process
 * (`sh -c CMD` in its own process group) spoken to in NDJSON, one operation per stdin line, one
 * answer per stdout line, in request order, each echoing its request's `id`.
 *
 * Whatever the child does, nothing here hangs or throws past the caller's bound: a child that never
 * starts, exits, stops answering, prints garbage or answers out of order turns into a
 * BridgeFailure (rejecting every outstanding request) and the whole group is stopped. The harness
 * may pipeline: several requests may be outstanding; answers are matched to them in order.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { trackProcessGroup } from '../../child.ts';
import { yieldToHarness } from '../../child-priority.ts';
import { fairTimeout, watchProcess, type FairTimer } from '../../fair-timer.ts';
import { createLineSplitter } from '../../../core/lines.ts';

/** What went wrong, as finding codes: `bridge-<kind>`, except the two answer-shaped ones. */
export type BridgeFailureKind = 'not-started' | 'exited' | 'hung' | 'answer-malformed' | 'answer-out-of-order' | 'refused' | 'aborted';

export class BridgeFailure extends Error {
  override name = 'BridgeFailure';
  readonly kind: BridgeFailureKind;
  constructor(kind: BridgeFailureKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

export type BridgeProcessOptions = {
  command: string;
  env: Record<string, string>;
  /** Bound for the first answer (it includes the interpreter's start-up). */
  firstAnswerMs: number;
  /** Bound between answers while requests are outstanding. */
  answerMs: number;
  signal?: AbortSignal;
  /** An answer line longer than this is garbage (a child printing without end). */
  maxLineBytes?: number;
  /** Requests written in two pieces 5 ms apart (default: the 2nd and 3rd; none for the memory workload, whose verdict must not hang on the timing of one read). */
  splitIds?: readonly number[];
};

export type BridgeAnswer = Record<string, unknown>;

export type BridgeProcess = {
  /** Send one operation; resolves with its answer (`ok: true`), rejects with a BridgeFailure. */
  request: (op: string, fields?: Record<string, unknown>) => Promise<BridgeAnswer>;
  /** Close stdin, give the child a moment to exit, then stop its group. Never rejects. */
  close: () => Promise<void>;
};

type Pending = { id: number; op: string; resolve: (a: BridgeAnswer) => void; reject: (e: BridgeFailure) => void };

const closeGraceMs = 500;
const killGraceMs = 500;

function clip(text: string, n = 160): string {
  return text.length > n ? `${text.slice(0, n)}...` : text;
}

export function startBridgeProcess(options: BridgeProcessOptions): BridgeProcess {
  const maxLine = options.maxLineBytes ?? 8 * 1024 * 1024;
  const pending: Pending[] = [];
  let nextId = 0;
  let answers = 0;
  let failure: BridgeFailure | undefined;
  let exited = false;
  let stderr = '';
  let watchdog: FairTimer | undefined;
  let child: ChildProcess | undefined;
  let untrack = () => {};
  let onExit: () => void = () => {};
  const exitPromise = new Promise<void>((resolve) => { onExit = resolve; });
  const liveRoot = () => (exited ? undefined : child?.pid);

  const stderrTail = () => {
    const last = stderr.trim().split('\n').slice(-2).join(' | ');
    return last ? `; stderr: ${clip(last, 300)}` : '';
  };
  const killGroup = (signal: NodeJS.Signals) => {
    try { if (child?.pid !== undefined) process.kill(-child.pid, signal); } catch { /* already gone */ }
  };
  const stop = () => {
    if (exited) return;
    killGroup('SIGTERM');
    setTimeout(() => { if (!exited) killGroup('SIGKILL'); }, killGraceMs).unref();
  };
  const fail = (kind: BridgeFailureKind, message: string) => {
    if (failure) return;
    failure = new BridgeFailure(kind, message);
    watchdog?.cancel();
    for (const p of pending.splice(0)) p.reject(failure);
    stop();
  };
  // The wait for the oldest outstanding answer: from the previous answer, or from the request when
  // none was outstanding. One fair timer (fair-timer.ts: a bridge at nice 5 behind a loaded runner
  // is given back the CPU time it was kept from) serves many answers: when it runs out after answers
  // came, it goes on for what is left of the wait from the last one. Re-made at every answer, it cost
  // the memory workload's 100,000 answers about 0.3 s of CPU.
  let waitFrom = 0;
  const boundMs = () => (answers === 0 ? options.firstAnswerMs : options.answerMs);
  const expire = (timer: FairTimer) => {
    watchdog = undefined;
    if (pending.length === 0 || failure) return;
    const left = boundMs() - (performance.now() - waitFrom);
    if (left >= 10) { watch(left); return; }
    const head = pending[0]!;
    const moved = timer.extendedMs();
    // Read stderr once more: a child that died writing its reason is clearer than "hung".
    fail('hung', `the bridge did not answer ${head.op} (id ${head.id}) within ${boundMs()} ms${answers === 0 ? ' of starting' : ' of its previous answer'}${moved > 0 ? ` (and ${moved} ms given back for CPU time the machine withheld)` : ''}${stderrTail()}`);
  };
  const watch = (ms: number) => {
    const timer: FairTimer = fairTimeout(ms, () => expire(timer), { root: liveRoot });
    watchdog = timer;
  };
  /** A wait starts now (a request with none outstanding, or an answer with more outstanding). */
  const arm = () => {
    if (pending.length === 0 || failure) return;
    waitFrom = performance.now();
    if (!watchdog) watch(boundMs());
  };

  const onLine = (raw: string) => {
    if (failure) return;
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') { fail('answer-malformed', `the bridge wrote an empty line on stdout (answer ${answers + 1}); stdout carries exactly one JSON answer per line`); return; }
    let answer: unknown;
    try { answer = JSON.parse(line); } catch (error) {
      fail('answer-malformed', `stdout line ${answers + 1} is not JSON (${(error as Error).message}): ${clip(JSON.stringify(line))}${stderrTail()}`);
      return;
    }
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
      fail('answer-malformed', `stdout line ${answers + 1} is not a JSON object: ${clip(line)}`);
      return;
    }
    const head = pending[0];
    if (!head) { fail('answer-malformed', `the bridge wrote an answer with no request outstanding: ${clip(line)}`); return; }
    const a = answer as BridgeAnswer;
    if (a.id !== head.id) {
      const known = pending.some((p) => p.id === a.id);
      fail('answer-out-of-order', `the bridge answered ${known ? `id ${JSON.stringify(a.id)} before` : `with id ${clip(JSON.stringify(a.id) ?? 'absent', 40)} to`} ${head.op} (id ${head.id}), the oldest request outstanding: answers come in request order, each echoing its request's id`);
      return;
    }
    if (a.ok !== true && a.ok !== false) { fail('answer-malformed', `the answer to ${head.op} (id ${head.id}) has no "ok": true or false: ${clip(line)}`); return; }
    pending.shift();
    answers++;
    arm();
    if (a.ok === false) head.reject(new BridgeFailure('refused', `the bridge answered ${head.op} (id ${head.id}) with an error: ${clip(typeof a.error === 'string' ? a.error : JSON.stringify(a.error) ?? '(no error text)', 300)}`));
    else head.resolve(a);
  };

  try {
    child = spawn('sh', ['-c', options.command], { env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  } catch (error) {
    fail('not-started', `the bridge command could not be started: ${(error as Error).message}`);
    exited = true;
    onExit();
  }
  if (child) {
    const c = child;
    yieldToHarness(c.pid);
    if (c.pid !== undefined) untrack = trackProcessGroup(c.pid);
    watchProcess(liveRoot);
    c.on('error', (error) => fail('not-started', `the bridge command could not be started: ${error.message}`));
    c.stdin?.on('error', () => { /* the child closed stdin: reported by its exit */ });
    c.stdout?.setEncoding('utf8');
    // After a failure no line is read: the bridge is being stopped.
    const splitter = createLineSplitter((line) => { if (!failure) onLine(line); });
    c.stdout?.on('data', (chunk: string) => {
      splitter.push(chunk);
      if (!failure && splitter.restLength() > maxLine) fail('answer-malformed', `the bridge wrote more than ${maxLine} bytes without a line end`);
    });
    c.stderr?.setEncoding('utf8');
    c.stderr?.on('data', (chunk: string) => { if (stderr.length < 64 * 1024) stderr += chunk; });
    c.on('close', (code, signal) => {
      exited = true;
      untrack();
      killGroup('SIGKILL'); // nothing the shell started survives it
      const status = signal ? `signal ${signal}` : `status ${String(code)}`;
      const head = pending[0];
      const rest = splitter.rest();
      if (rest.trim() !== '' && !failure) fail('answer-malformed', `the bridge's last stdout line has no line end: ${clip(JSON.stringify(rest))}`);
      if (answers === 0 && head) fail('not-started', `the bridge exited (${status}) before its first answer, to ${head.op}${stderrTail()}`);
      else if (head) fail('exited', `the bridge exited (${status}) before answering ${head.op} (id ${head.id})${stderrTail()}`);
      else fail('exited', `the bridge exited (${status}) while the harness still had operations to send${stderrTail()}`);
      watchdog?.cancel();
      onExit();
    });
  }
  // "Reading what is available, answering every complete line of it": a read may end inside a
  // line. Requests 2 and 3 of every scenario's process go out in two writes 5 ms apart, so a bridge that
  // treats each read as whole lines meets a split line. Writes stay in request order.
  // Requests sent while a split line's second half waits go out after it, in order (and split in
  // turn when theirs is a split id). Every other request is written at once: the memory workload
  // sends about 100,000.
  let waiting: Array<[number, string]> | undefined;
  const splitIds = new Set(options.splitIds ?? [2, 3]);
  const send = (id: number, line: string): void => {
    if (waiting) { waiting.push([id, line]); return; }
    if (!splitIds.has(id)) { child?.stdin?.write(line); return; }
    const half = Math.floor(line.length / 2);
    child?.stdin?.write(line.slice(0, half));
    waiting = [];
    setTimeout(() => {
      const queued = waiting ?? [];
      waiting = undefined;
      if (exited) return;
      child?.stdin?.write(line.slice(half));
      for (const [nextId, next] of queued) send(nextId, next);
    }, 5);
  };
  const onAbort = () => fail('aborted', 'the harness stopped the bridge: the scenario reached its time bound');
  options.signal?.addEventListener('abort', onAbort, { once: true });

  return {
    request(op, fields = {}) {
      if (failure) return Promise.reject(failure);
      if (exited) return Promise.reject(new BridgeFailure('exited', `the bridge had exited before ${op}${stderrTail()}`));
      const id = ++nextId;
      return new Promise<BridgeAnswer>((resolve, reject) => {
        pending.push({ id, op, resolve, reject });
        if (pending.length === 1) arm();
        send(id, `${JSON.stringify({ id, op, ...fields })}\n`);
      });
    },
    async close() {
      options.signal?.removeEventListener('abort', onAbort);
      if (!exited) {
        // A clean end: EOF on stdin; the contract asks the bridge to exit then.
        failure ??= new BridgeFailure('exited', 'the harness closed the bridge');
        for (const p of pending.splice(0)) p.reject(failure);
        watchdog?.cancel();
        child?.stdin?.end();
        const t = setTimeout(stop, closeGraceMs);
        await Promise.race([exitPromise, new Promise((r) => setTimeout(r, closeGraceMs + killGraceMs + 200).unref())]);
        clearTimeout(t);
        if (!exited) killGroup('SIGKILL');
      }
    },
  };
}
