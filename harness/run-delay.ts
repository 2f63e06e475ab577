/**
 * What Linux says about the threads of a process tree (`/proc/<pid>/task/<tid>/schedstat` and `stat`):
 * how long each was ready to run but waited for a CPU (run delay), how much CPU it used, and whether
 * it works now. The fair bounds (fair-timer.ts) are built on it; elsewhere (no /proc) every reading is
 * empty or undefined.
 */
import { readdirSync, readFileSync } from 'node:fs';

const nsPerMs = 1e6;
/** A process tree's walk stops here: a fork bomb must not make the harness read /proc forever. */
const maxTreeProcesses = 64;
/** And a process with thousands of threads must not either. */
const maxThreadsPerProcess = 64;

/** A field of a thread's schedstat file in ms (0: time on a CPU, 1: run delay, 2: the two summed); undefined where there is none. */
function schedstatMs(path: string, field: 0 | 1 | 2): number | undefined {
  try {
    const fields = readFileSync(path, 'latin1').split(' ');
    const ns = field === 2 ? Number(fields[0]) + Number(fields[1]) : Number(fields[field]);
    return Number.isFinite(ns) ? ns / nsPerMs : undefined;
  } catch {
    return undefined;
  }
}

const runDelayMs = (path: string): number | undefined => schedstatMs(path, 1);

/** The harness's own thread (a vitest worker thread too: `thread-self` is the calling thread). */
export const ownRunDelayMs = (): number | undefined => runDelayMs('/proc/thread-self/schedstat');

/** The run delay of every thread in the tree under `root` (root included), by thread id (a main thread's is its pid). */
export function treeRunDelaysMs(root: number): Map<number, number> {
  return treeSchedstat(root, 1);
}

/**
 * Whether the tree under `root` works rather than waits: over `windowMs` it ran or was ready to run
 * (CPU time plus run delay) at least `minMs`, a process born meanwhile counted whole. A slow start-up
 * works; a hang waits on a read and does neither. The run delay counts because a process starved of
 * CPU at nice 5 on a loaded runner may get under 20 ms of CPU in 250 ms and still be working. False
 * where /proc has nothing to read.
 */
export async function treeWorks(root: number, windowMs = 250, minMs = 20): Promise<boolean> {
  // CPU time and run delay, from one read per process.
  const busy = (): Map<number, number> => treeSchedstat(root, 2);
  const before = busy();
  if (before.size === 0) return false;
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  let used = 0;
  for (const [pid, ms] of busy()) used += ms - (before.get(pid) ?? 0);
  return used >= minMs;
}

/**
 * A schedstat field of every thread in the tree under `root`, by thread id (a process's main thread
 * has its pid). Every thread, not only the main ones: a process started through tsx loads its modules
 * on a hooks thread while its main thread waits for it, so its main thread neither ran nor waited for
 * a CPU and the start-up looked like a hang (the TypeScript adapter's auto path behind a load average
 * of 14, 1 of 4 runs, 2026-11-30). The walk follows each process's main thread's children.
 */
function treeSchedstat(root: number, field: 0 | 1 | 2): Map<number, number> {
  const byThread = new Map<number, number>();
  walkThreads(root, (pid, tid) => {
    const ms = schedstatMs(`/proc/${pid}/task/${tid}/schedstat`, field);
    if (ms !== undefined) byThread.set(Number(tid), ms);
  });
  return byThread;
}

/** The processes of the tree under `root` (root first), within the walk's limits; empty where /proc has nothing. */
export function treeProcesses(root: number): number[] {
  const pids = new Set<number>();
  walkThreads(root, (pid) => { pids.add(pid); });
  return [...pids];
}

/** Calls `visit` for every thread of every process in the tree under `root` (root included), within the walk's limits. */
function walkThreads(root: number, visit: (pid: number, tid: string) => void): void {
  const seen = new Set<number>();
  const queue = [root];
  while (queue.length > 0 && seen.size < maxTreeProcesses) {
    const pid = queue.shift() as number;
    seen.add(pid);
    let tids: string[];
    try { tids = readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const tid of tids.slice(0, maxThreadsPerProcess)) visit(pid, tid);
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').split(' ')) {
        const n = Number(child);
        if (child !== '' && Number.isInteger(n) && !seen.has(n)) queue.push(n);
      }
    } catch { /* gone, or no children file */ }
  }
}

/**
 * Whether some thread in the tree under `root` is working now: running or ready to run (state R), or
 * in an uninterruptible sleep (D: reading a file from disk, faulting a page in). A process that waits
 * for its input, a timer or a child sleeps interruptibly (S) and is not working. The run delay misses
 * a disk wait and a wait longer than a bound's cap; the state does not. False where /proc has nothing.
 */
export function treeBusy(root: number): boolean {
  let busy = false;
  walkThreads(root, (pid, tid) => {
    if (busy) return;
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1');
      const state = stat.charAt(stat.lastIndexOf(')') + 2);
      if (state === 'R' || state === 'D') busy = true;
    } catch { /* gone */ }
  });
  return busy;
}

/**
 * How long every thread in the tree under `root` has run or been ready to run, in ms (CPU time plus
 * run delay, summed; 0 where /proc has nothing): a process that works on a loaded machine gets
 * little CPU but is ready the rest of the time; one that waits on its input is neither.
 */
export function treeRunnableMs(root: number): number {
  let sum = 0;
  for (const ms of treeSchedstat(root, 2).values()) sum += ms;
  return sum;
}

/** The CPU time every thread in the tree under `root` has used, in ms (schedstat field 0, summed). */
export function treeCpuMs(root: number): number {
  let sum = 0;
  for (const ms of treeSchedstat(root, 0).values()) sum += ms;
  return sum;
}

/**
 * Whether the tree under `root()` works, look after look: it does when a thread is running, ready or
 * in a disk wait now (treeBusy), or when it used 1 ms of CPU or more since the previous look. A
 * state is one sample: a clean-clone CI run (afc8e46) closed the input of a process busy on a
 * loaded runner between its two answers, so a sample alone is not trusted to say "waits".
 */
export function workProbe(root: () => number | undefined): () => boolean {
  const first = root();
  let cpu = first === undefined ? 0 : treeCpuMs(first);
  return () => {
    const pid = root();
    if (pid === undefined) return false;
    const now = treeCpuMs(pid);
    const used = now - cpu;
    cpu = now;
    return used >= 1 || treeBusy(pid);
  };
}

/** The CPU time the threads of process `pid` itself have used, in ms (its children not counted); 0 once it is gone. */
function processCpuMs(pid: number): number {
  let sum = 0;
  let tids: string[];
  try { tids = readdirSync(`/proc/${pid}/task`); } catch { return 0; }
  for (const tid of tids.slice(0, maxThreadsPerProcess)) sum += schedstatMs(`/proc/${pid}/task/${tid}/schedstat`, 0) ?? 0;
  return sum;
}

/**
 * A clock of the CPU time spent from now on by this process and the processes it starts from now on:
 * its own threads (process.cpuUsage) and its descendants born since, read every 100 ms while they
 * live (one that ends loses at most its last 100 ms). A module under test runs in this process and
 * may start its own (a client that runs a Python reader per request); the processes that were
 * already running (a gateway instance, a session process of another part, a reader an earlier
 * run left behind) are not counted. Where /proc has nothing, the process's own CPU time only.
 * `read` gives the total so far in ms (the descendants as of the last sample: a CPU budget checked every
 * 100 ms walks /proc no more often than the clock does), `stop` samples once more, ends the sampling and gives it.
 */
export function startWorkClock(): { read: () => number; stop: () => number } {
  const self0 = process.cpuUsage();
  const before = new Set(treeProcesses(process.pid));
  const born = new Map<number, number>();
  const sample = () => { for (const pid of treeProcesses(process.pid)) if (!before.has(pid)) born.set(pid, Math.max(born.get(pid) ?? 0, processCpuMs(pid))); };
  const timer = setInterval(sample, 100);
  timer.unref();
  const read = () => {
    const self = process.cpuUsage(self0);
    let ms = (self.user + self.system) / 1000;
    for (const v of born.values()) ms += v;
    return Math.round(ms);
  };
  return { read, stop: () => { clearInterval(timer); sample(); return read(); } };
}

/**
 * A CPU budget's watch: `over` is read every 100 ms (the work clock's own sampling period), and `then`
 * runs once, the first time it says the budget is spent. The session form reads its process tree, a
 * module's drive its work clock; the timer returned is cleared with the run's other timers.
 */
export function onceOverBudget(over: () => boolean, then: () => void): NodeJS.Timeout {
  const timer = setInterval(() => { if (over()) { clearInterval(timer); then(); } }, 100);
  return timer;
}
