/**
 * The harness keeps the time every check reads: it writes a run's input on schedule and notes when
 * output came. So when the machine is short of CPU, the implementation's processes yield to it, not the
 * other way round.
 *
 * Why it is needed: every implementation process is spawned detached (its own process group, so that
 * a shell wrapper and all it started stop together), and that makes it a session of its own. Linux's
 * autogroups (on by default on desktop and cloud kernels, and on this VM) weigh every session alike,
 * so each busy implementation process weighed as much as the whole harness: four harness processes
 * with half a core of work each beside three busy implementation processes were kept waiting for a
 * CPU 3.1 s of every 4 s, and their 10 ms timers came 10 ms late on average (worst 63 to 82 ms).
 * With the implementations' sessions at nice 5: 0.7 to 1.1 s, 0.4 ms (worst 8 to 35 ms); at nice 10
 * hardly better (2026-11-30, `npx tsx bench/harness-priority.ts`). A CI runner is
 * such a machine, and a late write is a pause the script does not have: the feed-stall rule
 * (targets/feed-stall.ts) then runs it again, or a client's grace runs out before EOF.
 *
 * The implementation loses nothing it is judged on: the time it waits for a CPU moves its bounds
 * (fair-timer.ts), and a timing failure is repeated alone before it is reported (engine-confirm.ts).
 * A machine with a spare core gives it all the CPU it asks for, whatever its nice value.
 *
 * `ADK_CONFORMANCE_CHILD_NICE` sets the value (0 to 19; 0 leaves the processes as spawned).
 */
import { writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value implementation processes get; 5 keeps the harness on time (see above). */
export const defaultChildNice = 5;

/** The value in force: ADK_CONFORMANCE_CHILD_NICE, else the default. A bad value is a configuration error, thrown with its fix. */
export function childNice(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.ADK_CONFORMANCE_CHILD_NICE;
  if (raw === undefined || raw.trim() === '') return defaultChildNice;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 19) {
    throw new Error(`ADK_CONFORMANCE_CHILD_NICE=${JSON.stringify(raw)}: expected a whole number from 0 to 19 (the nice value of the implementation's processes; 0 leaves them as spawned); unset it for the default ${defaultChildNice}`);
  }
  return n;
}

let resolved: number | undefined;

/**
 * Lower the priority of a process the harness just spawned detached: its nice value (what counts where
 * autogroups are off, and what the processes it starts inherit) and its session's autogroup (what counts
 * where they are on). Nothing here fails a run: a kernel without autogroups or a refused change leaves
 * the process as spawned.
 */
export function yieldToHarness(pid: number | undefined): void {
  if (pid === undefined) return;
  // A bad value is refused when the CLI starts (cli/main.ts); a library caller's bad value gets the default.
  if (resolved === undefined) { try { resolved = childNice(); } catch { resolved = defaultChildNice; } }
  if (resolved === 0) return;
  try { setPriority(pid, resolved); } catch { /* gone already, or not allowed */ }
  try { writeFileSync(`/proc/${pid}/autogroup`, String(resolved)); } catch { /* no autogroups here */ }
}
