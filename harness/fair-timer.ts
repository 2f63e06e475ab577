/**
 * A bound on an implementation that counts the implementation's time, not the machine's (guide:
 * "start-up and load never become findings"). On a loaded machine a process that is ready to run
 * waits for a CPU: a client parsing a 1 MB event under a CI runner's four other test workers took
 * more than its 5 s bound after its input ended and was reported hung (CI of stop 46, 2026-11-30),
 * and `npx tsx` starting behind the same load overran a transformer run's bound.
 *
 * Linux keeps, per thread, how long it was runnable but waited for a CPU: the second field of
 * `/proc/<pid>/task/<tid>/schedstat` (run delay, in ns). So a fair timer, when it runs out, reads
 * that figure for the implementation's process tree (the delay of its most delayed thread: the
 * one whose wait held the run back) and for the harness's own thread (a harness
 * starved of CPU feeds its input late and reads its output late), and gives back what was withheld
 * since it started, again and again while more was withheld, at most `maxExtendMs` in all. A
 * process that waits on a read (a hang) is never runnable, so it gets nothing back: a hang is
 * still judged at its bound, and a busy loop at three times its bound at most.
 *
 * Of the two, the harness's own delay is the larger in CI: the kernel's autogroups weigh each session
 * alike, and an implementation's process is spawned detached (a session of its own) while every
 * test worker shares the runner's one session, so under load the harness waits far longer for a CPU
 * than the processes it judges (measured here: a busy child beside four busy loops in another
 * session was kept waiting 130 ms in 3 s).
 *
 * Elsewhere (no /proc), nothing is withheld and the timer is a plain one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ownRunDelayMs, treeRunDelaysMs, workProbe } from './run-delay.ts';

/**
 * A reading of /proc costs some 50 us on a VM (measured here: 10,000 reads of one schedstat file in
 * 0.52 s), and a memory probe starts 10,000 bounded runs on one process: so the readings a clock
 * starts from are shared for `baseMaxAgeMs`. A start read that late only moves the bound by the
 * delay of those few milliseconds more; the readings a bound is judged by are always fresh.
 */
const baseMaxAgeMs = 100;
const bases = new Map<number | 'self', { at: number; self?: number; tree?: Map<number, number> }>();

function recentBase(key: number | 'self'): { self?: number; tree?: Map<number, number> } {
  const now = performance.now();
  const hit = bases.get(key);
  if (hit && now - hit.at <= baseMaxAgeMs) return hit;
  if (bases.size > 256) for (const [k, v] of bases) if (now - v.at > baseMaxAgeMs) bases.delete(k);
  const fresh = key === 'self' ? { at: now, self: ownRunDelayMs() } : { at: now, tree: treeRunDelaysMs(key) };
  bases.set(key, fresh);
  return fresh;
}

/**
 * How much CPU time the machine has withheld, in ms, since the clock was made: from the harness's
 * thread plus the most from any process under `root()` (undefined: the harness alone, an in-process
 * module). A process born since counts from its birth.
 */
export function withheldClock(root: () => number | undefined): () => number {
  const selfAt = recentBase('self').self;
  const tree = treeClock(root);
  return () => (selfAt === undefined ? 0 : Math.max(0, (ownRunDelayMs() ?? selfAt) - selfAt)) + tree();
}

/** The most CPU time withheld from any thread in the tree under `root()` since the clock was made (0 once it is gone). */
function treeClock(root: () => number | undefined): () => number {
  const pid = root();
  const treeAt = pid === undefined ? new Map<number, number>() : recentBase(pid).tree ?? new Map<number, number>();
  return () => {
    const now = root();
    let tree = 0;
    if (now !== undefined) {
      for (const [p, delay] of treeRunDelaysMs(now)) tree = Math.max(tree, delay - (treeAt.get(p) ?? 0));
    }
    return tree;
  };
}

/**
 * What the bounds started inside one piece of work moved in all (ms). A bound around that work (the
 * engine's per-job bound around its runs) moves by it too: a run's bound that moved past the job's
 * made the job overrun where the run itself was on time (a hostile transformer's 6 MB line, CI of
 * e22ceac: "could not evaluate" where the verdict is non-compliant).
 */
export type Ledger = { movedMs: number; processes?: Array<() => number> };
const ledgers = new AsyncLocalStorage<Ledger>();

/** What a ledger holds in all: what its bounds moved, and what its watched processes were withheld (watchProcess). */
export const ledgerMs = (ledger: Ledger): number => ledger.movedMs + (ledger.processes ?? []).reduce((sum, withheld) => sum + withheld(), 0);

/** How often a watched process's withheld time is read while it lives. */
const watchEveryMs = 250;

/**
 * Adds the CPU time withheld from a long-lived process, while it lives, to the ledger of the work
 * running now: the bound around that work moves by it. An audit bridge answering some 100,000
 * requests at nice 5 beside six busy processes took 17 s of a 15 s job bound while none of its
 * per-answer bounds ran out, so no bound had moved (a bridge mutant's test timed out in the
 * clean-clone CI of 89a906a).
 * Read every 250 ms and kept: what was withheld before the process exited still counts.
 */
export function watchProcess(root: () => number | undefined): void {
  const ledger = ledgers.getStore();
  const pid = root();
  if (!ledger || pid === undefined) return;
  const clock = treeClock(root);
  let most = 0;
  const read = () => { most = Math.max(most, clock()); return most; };
  const timer = setInterval(() => { if (root() === undefined) clearInterval(timer); else read(); }, watchEveryMs);
  timer.unref();
  (ledger.processes ??= []).push(() => (root() === undefined ? most : read()));
}

/** Runs `work` with a ledger of its own: every fair bound started inside it adds what it moved. */
export function withLedger<T>(ledger: Ledger, work: () => T): T {
  return ledgers.run(ledger, work);
}

/** Per ledger: how many start-ups it waits on now, and since when (several at once count once). */
const startupWaits = new WeakMap<Ledger, { open: number; since: number }>();

/**
 * Waits on `ready` (a new process saying it is ready) as start-up, which is never judged: the
 * bound around the work running now moves by the time spent waiting, counted once while several
 * start at once. The transformer's long-lived probe opens a new session process for its turns, for
 * each baseline and for each order; `npx tsx` behind a loaded machine took seconds a start, and the
 * probe overran its bound even alone (a TypeScript transformer's certification, 2026-11-30).
 */
export async function waitForStartup<T>(ready: Promise<T>): Promise<T> {
  const ledger = ledgers.getStore();
  if (!ledger) return ready;
  const state = startupWaits.get(ledger) ?? { open: 0, since: 0 };
  startupWaits.set(ledger, state);
  if (state.open++ === 0) state.since = performance.now();
  try {
    return await ready;
  } finally {
    if (--state.open === 0) ledger.movedMs += performance.now() - state.since;
  }
}

export type FairTimer = {
  cancel: () => void;
  /** How far the bound was moved for CPU time the machine withheld, in ms (whole ms). */
  extendedMs: () => number;
};

/** The most a fair bound stretches to, as a multiple of itself (the bound and twice it given back): what a test bounding a whole run allows. */
export const fairStretch = 3;

export type FairTimerOptions = {
  /** The implementation's process (its group's leader); undefined: the harness's own thread only. */
  root?: () => number | undefined;
  /** The most the bound moves in all (default: (fairStretch - 1) times the bound). */
  maxExtendMs?: number;
  /** The timer API (tests). */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** The withheld clock (tests). */
  withheld?: () => number;
  /** The clock fairIdleTimeout reads its touches by (tests; default performance.now). */
  now?: () => number;
  /** Runs the decision after the I/O already waiting (tests: at once). */
  defer?: (fn: () => void) => void;
  /**
   * A wait for an answer, not a hang bound: while the tree under `root` is working when the bound
   * runs out (workProbe), it waits on in steps of `busyStepMs`, at most this much more in all; it
   * ends once two looks in a row saw it idle.
   */
  whileBusyMs?: number;
  /** Whether the implementation works now (tests; default with whileBusyMs: workProbe of `root`). */
  busy?: () => boolean;
};

/** How often a bound that waits on a working implementation (whileBusyMs) looks again. */
export const busyStepMs = 50;

/** Calls `onExpire` once `ms` of time the implementation could use has passed (see above). */
export function fairTimeout(ms: number, onExpire: () => void, options: FairTimerOptions = {}): FairTimer {
  const setTimer = options.setTimer ?? ((fn: () => void, t: number) => setTimeout(fn, t));
  const clearTimer = options.clearTimer ?? ((h: unknown) => clearTimeout(h as NodeJS.Timeout));
  const withheld = options.withheld ?? withheldClock(options.root ?? (() => undefined));
  const cap = options.maxExtendMs ?? (fairStretch - 1) * ms;
  let given = 0;
  let waitedBusy = 0;
  let cancelled = false;
  const ledger = ledgers.getStore();
  let handle: unknown;
  const defer = options.defer ?? ((fn: () => void) => { setImmediate(fn); });
  const root = options.root ?? (() => undefined);
  const busy = options.busy ?? (options.whileBusyMs !== undefined ? workProbe(root) : () => false);
  // Idle at two looks in a row ends the wait: one look is one sample of a thread's state.
  let idleLooks = 0;
  const decide = () => {
    if (cancelled) return;
    // Under 10 ms more is the timer's own noise, not worth another round.
    const owed = Math.min(cap, Math.floor(withheld())) - given;
    if (owed >= 10) { given += owed; if (ledger) ledger.movedMs += owed; handle = setTimer(fire, owed); return; }
    const mayWait = options.whileBusyMs !== undefined && waitedBusy + busyStepMs <= options.whileBusyMs;
    const working = mayWait && busy();
    idleLooks = working ? 0 : idleLooks + 1;
    if (mayWait && (working || idleLooks < 2)) {
      waitedBusy += busyStepMs;
      if (ledger) ledger.movedMs += busyStepMs;
      handle = setTimer(fire, busyStepMs);
      return;
    }
    cancelled = true;
    onExpire();
  };
  // A harness thread that was descheduled runs its due timers before it reads the pipes that filled
  // meanwhile (libuv: timers, then poll): the end record already written must be read before the
  // bound is judged, so the decision waits for the poll phase (setImmediate runs after it).
  const fire = () => { if (!cancelled) defer(decide); };
  handle = setTimer(fire, ms);
  return {
    cancel: () => { cancelled = true; clearTimer(handle); },
    extendedMs: () => given + waitedBusy,
  };
}

export type FairIdleTimer = FairTimer & {
  /** Progress: the window starts again from now. */
  touch: () => void;
};

/**
 * An idle bound: `onExpire` once `ms` has passed with no `touch()`, each window a fairTimeout (the
 * CPU time the machine withheld is given back, and the decision waits for the poll phase, so bytes
 * that arrived while the harness was descheduled are read before it is judged). A touch costs one
 * clock read, not a timer: a stream's every chunk touches it. When the window runs out, the time
 * since the last touch decides: under `ms`, a new window for what is left.
 */
export function fairIdleTimeout(ms: number, onExpire: () => void, options: FairTimerOptions = {}): FairIdleTimer {
  const now = options.now ?? (() => performance.now());
  let last = now();
  let given = 0;
  let cancelled = false;
  let timer: FairTimer;
  const expire = () => {
    if (cancelled) return;
    const left = last + ms - now();
    // Under 10 ms more is the timer's own noise (fairTimeout's threshold too).
    if (left >= 10) { given += timer.extendedMs(); timer = fairTimeout(left, expire, options); return; }
    onExpire();
  };
  timer = fairTimeout(ms, expire, options);
  return {
    touch: () => { last = now(); },
    cancel: () => { cancelled = true; timer.cancel(); },
    extendedMs: () => given + timer.extendedMs(),
  };
}

/** The ledger of the work running now (withLedger), if any: a deadline made outside it can still be recorded there (FairDeadline.record). */
export const currentLedger = (): Ledger | undefined => ledgers.getStore();

export type FairDeadline = {
  /** The deadline now (performance.now() time): `ms` after it was made, moved as a fair timer is. */
  at: () => number;
  /** How far it moved, in ms. */
  movedMs: () => number;
  /** Adds what it moved so far, and what it moves from now on, to `ledger` (a bound around it moves with it). */
  record: (ledger: Ledger | undefined) => void;
};

/**
 * A deadline polled rather than a timer (a loop of thousands of runs asks `at()` before each), moved
 * as fairTimeout moves its bound: by the CPU time withheld from the harness and the tree under
 * `root`, at most `maxExtendMs`. The /proc reading is reused for 100 ms, so a tight loop costs nothing.
 */
export function fairDeadline(ms: number, root: () => number | undefined, options: Pick<FairTimerOptions, 'maxExtendMs' | 'withheld'> = {}): FairDeadline {
  const start = performance.now();
  const withheld = options.withheld ?? withheldClock(root);
  const cap = options.maxExtendMs ?? (fairStretch - 1) * ms;
  const told: Ledger[] = [];
  let moved = 0;
  let readAt = -Infinity;
  const refresh = () => {
    const now = performance.now();
    if (now - readAt < baseMaxAgeMs) return;
    readAt = now;
    const owed = Math.min(cap, Math.floor(withheld())) - moved;
    if (owed <= 0) return;
    moved += owed;
    for (const ledger of told) ledger.movedMs += owed;
  };
  return {
    at: () => { refresh(); return start + ms + moved; },
    movedMs: () => moved,
    record: (ledger) => { if (!ledger || told.includes(ledger)) return; ledger.movedMs += moved; told.push(ledger); },
  };
}
