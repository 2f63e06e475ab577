/**
 * A stdio command's start-up, measured once before any of its runs (issue 28 §3): the same program
 * started directly, behind `npx tsx`, heavy imports or a JVM, or on a loaded CI runner must get the
 * same verdict. A stdio process shows no sign of being ready to read, so the probe starts the
 * command with an empty input (stdin closed at once: a stream with no byte) and times its first
 * stdout line or its exit, whichever comes first. Every run then feeds its first byte that long
 * after spawn and counts every clock its checks read from there: start-up never counts as behaviour.
 * A command that neither writes nor exits within the bound did not start (or hangs at the end of
 * an empty input, which the probe cannot tell apart): its runs are `errored` with a "timed out"
 * reason naming the bound and the flag that raises it.
 */
import { runChild } from '../child.ts';

/** The default start-up bound: a FastAPI-sized import on a loaded 2-core runner fits with room. */
export const defaultStartupTimeoutMs = 30_000;

export type Startup =
  | { ok: true; startupMs: number; boundMs: number; how: string; unmeasured?: true }
  | { ok: false; boundMs: number; reason: string };

/** The flag and config key that raise the bound, as every message names them. */
export const startupFlag = '--startup-timeout S (config: startupTimeoutMs)';

/**
 * `silentIs`: what a command that neither writes nor exits on an empty input is taken to be.
 * 'not-started' refuses its runs (a transformer writes at the end of any input); 'unmeasured' runs
 * them with no start-up allowance, so one that hangs at the end of its input is judged on its hang
 * (a client: a hang is a CLI-END-001 finding, never "could not evaluate").
 */
export async function probeStartup(command: string, boundMs: number, env: Record<string, string>, signal?: AbortSignal, silentIs: 'not-started' | 'unmeasured' = 'not-started'): Promise<Startup> {
  const obs = await runChild({
    command, env, input: [], timeoutMs: boundMs, killGraceMs: 500, maxStdoutBytes: 1024 * 1024,
    stopWhen: () => true, ...(signal ? { signal } : {}),
  });
  const first = obs.lines[0]?.t;
  if (obs.spawnError) return { ok: true, startupMs: 0, boundMs, how: `not measured: the command could not be started (${obs.spawnError})` };
  if (obs.timedOut && first === undefined && silentIs === 'unmeasured') {
    return { ok: true, startupMs: 0, boundMs, unmeasured: true, how: `start-up not measured: given an empty input, the command neither wrote a line nor exited within ${seconds(boundMs)} (it hangs at the end of its input, or starts slower than that: raise it with ${startupFlag}); its runs get no start-up allowance` };
  }
  if (obs.timedOut && first === undefined) {
    // The bound and the flag first: the console clips a long reason.
    return { ok: false, boundMs, reason: `timed out: not started within the ${seconds(boundMs)} start-up bound (raise it with ${startupFlag}): given an empty input, the command neither wrote a line nor exited (it did not start in time, or it hangs at the end of its input); nothing was judged` };
  }
  const startupMs = Math.round(first ?? obs.durationMs);
  return { ok: true, startupMs, boundMs, how: `start-up ${startupMs} ms (measured once with an empty input: its ${first !== undefined ? 'first line' : 'exit'}), excluded from every run's clock; bound ${seconds(boundMs)} (${startupFlag})` };
}

/**
 * Slack a run gets beyond the measured start-up before its bound: the start-up of one run varies
 * with the machine's load, so each run may start up to twice as slowly as the probe did.
 */
export const startupSlackMs = (s: Startup): number => (s.ok ? Math.max(1000, s.startupMs) : 0);

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;
