/**
 * A transformer command's start-up, measured once before any scenario (issue 28 §3): the same code
 * started as `node t.mjs` and as `npx tsx t.ts` (2 s), or behind heavy imports, a JVM or a loaded CI
 * runner (9 s), must get the same verdict. A stdio process shows no sign of being ready to read,
 * so the probe starts the command with an empty input (stdin closed at once, as a stream with no
 * frame) and times its first stdout line or its exit, whichever comes first. That time is the
 * start-up every run is given before its first line is fed, and is excluded from every clock the
 * checks read. A command that neither writes nor exits within the start-up bound did not start (or
 * hangs at the end of its input, which the probe cannot tell apart): every scenario is then
 * `errored` with a "timed out" reason naming the bound and the flag that raises it.
 */
import { runChild } from '../child.ts';

/** The default start-up bound: a FastAPI-sized import on a loaded 2-core runner fits with room. */
export const defaultStartupTimeoutMs = 30_000;

export type Startup =
  | { ok: true; startupMs: number; boundMs: number; how: string }
  | { ok: false; boundMs: number; reason: string };

/** The flag and config key that raise the bound, as every message names them. */
export const startupFlag = '--startup-timeout S (config: target.startupTimeout)';

export async function probeStartup(command: string, boundMs: number, env: Record<string, string>, signal?: AbortSignal): Promise<Startup> {
  const obs = await runChild({
    command, env, input: [], timeoutMs: boundMs, killGraceMs: 500, maxStdoutBytes: 1024 * 1024,
    stopWhen: () => true, ...(signal ? { signal } : {}),
  });
  const first = obs.lines[0]?.t;
  if (obs.spawnError) return { ok: true, startupMs: 0, boundMs, how: `not measured: the command could not be started (${obs.spawnError})` };
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
