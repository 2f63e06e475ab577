/**
 * A stdio command's start-up (a transformer's, a client's), measured once as its part starts
 * (issue 28 §3): the same code started as `node t.mjs` and as `npx tsx t.ts` (2 s), or behind heavy
 * imports, a JVM or a loaded CI runner (9 s), must get the same verdict. A stdio process shows no sign of being ready to read,
 * so the probe starts the command with an empty input (stdin closed at once, as a stream with no
 * frame) and times its first stdout line or its exit, whichever comes first. That time is the
 * start-up every run is given before its first line is fed, and is excluded from every clock the
 * checks read.
 *
 * A command that neither writes nor exits within the start-up bound either starts more slowly
 * than the bound or never finishes at the end of its input: the probe cannot tell which. Its runs
 * are then fed from spawn, as if it started at once, and a run that does not finish is a hang (a
 * transformer's ABE-TERM-001 `transformer-hung`, a client's CLI-END-001 `hang`) whose message names
 * the start-up bound and the flag that raises it: a hang is a finding, never "could not evaluate".
 */
import { runChild } from '../child.ts';
import { treeWorks } from '../run-delay.ts';
import { encode, parseLine, sessionEnvVar, sessionProtocolVersion, type Implementation } from '../session-protocol.ts';

/** How a command is run: `auto` asks it for the session form in the start-up probe and uses the form it answers in. */
export type ProtocolChoice = 'auto' | 'session' | 'one-shot';

/** The default start-up bound: a FastAPI-sized import on a loaded 2-core runner fits with room; never more than one scenario's bound. */
export const defaultStartupTimeoutMs = (scenarioTimeoutMs: number): number => Math.min(30_000, scenarioTimeoutMs);

/** The flag and config key that raise the bound, as every message names them. */
export const startupFlag = '--startup-timeout S (config: startupTimeoutMs)';

export type Startup =
  /**
   * Measured: runs are fed `startupMs` after spawn and given `slackMs` more to finish. `session`:
   * the command answered the probe's `start` with `ready` (docs/session-protocol.md): its runs go to
   * long-lived processes, and `startupMs` is the time to `ready`.
   */
  | { known: true; startupMs: number; slackMs: number; boundMs: number; how: string; session?: Implementation }
  /** Not measured within the bound: runs are fed from spawn; `note` goes with a hang. */
  | { known: false; boundMs: number; how: string; note: string };

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * `ask`: the part to name in a session `start` line written as the probe's only input, with the
 * environment that asks for the session form; a one-shot command reads that line as input it does
 * not know and ends as on an empty one.
 */
export async function probeStartup(command: string, boundMs: number, env: Record<string, string>, signal?: AbortSignal, ask?: { part: string }, onSpawn?: (pid: number) => void): Promise<Startup> {
  // The answer is the first line: it is taken when the line comes, not when the stopped process has
  // closed (npx tsx behind a loaded runner took seconds to go, and a run that overran meanwhile was
  // judged a hang by both measures: CI of e3e9e71).
  const started = performance.now();
  let firstLine: { t: number; text: string } | undefined;
  let onFirst = (): void => {};
  const firstCame = new Promise<undefined>((resolve) => { onFirst = () => resolve(undefined); });
  const closed = runChild({
    ...(onSpawn ? { onSpawn } : {}),
    command, env: ask ? { ...env, [sessionEnvVar]: 'session' } : env,
    input: ask ? [{ text: encode({ cmd: 'start', protocol: sessionProtocolVersion, part: ask.part }).trimEnd() }] : [],
    timeoutMs: boundMs, killGraceMs: 500, maxStdoutBytes: 1024 * 1024,
    stopWhen: (text) => { if (!firstLine) { firstLine = { t: Math.round(performance.now() - started), text }; onFirst(); } return true; },
    ...(signal ? { signal } : {}),
  });
  const obs = await Promise.race([closed, firstCame]);
  const line = firstLine ?? (obs?.lines[0] ? { t: obs.lines[0].t, text: obs.lines[0].text } : undefined);
  const first = line?.t;
  const hello = ask && line ? parseLine(line.text) : undefined;
  if (hello?.kind === 'ready' && first !== undefined) {
    const i = hello.implementation;
    return { known: true, startupMs: first, slackMs: 1000, boundMs, session: i, how: `session form: ${i.name} ${i.version} (${i.language}) said ready ${first} ms after spawn; its runs go to long-lived processes (docs/session-protocol.md)` };
  }
  if (first !== undefined) {
    // One run may start more slowly than the probe on a loaded machine: up to twice as slowly.
    return { known: true, startupMs: first, slackMs: Math.max(1000, first), boundMs, how: `start-up ${first} ms (measured once with an empty input: its first line), excluded from every run's clock; bound ${seconds(boundMs)} (${startupFlag})` };
  }
  if (obs === undefined) throw new Error('probeStartup: no first line and no observation (a harness bug: report it)');
  const bound = `bound ${seconds(boundMs)} (${startupFlag})`;
  if (obs.spawnError) return { known: true, startupMs: 0, slackMs: 0, boundMs, how: `start-up not measured: the command could not be started (${obs.spawnError})` };
  if (!obs.timedOut) {
    const startupMs = Math.round(obs.durationMs);
    // One run may start more slowly than the probe on a loaded machine: up to twice as slowly.
    return { known: true, startupMs, slackMs: Math.max(1000, startupMs), boundMs, how: `start-up ${startupMs} ms (measured once with an empty input: its exit), excluded from every run's clock; ${bound}` };
  }
  // It wrote part of a line or to stderr: it runs, it only never finished a line or exited.
  const spoke = (obs.partialLine ?? '') !== '' || obs.stderr.trim() !== '';
  const how = `start-up not measured: given an empty input, the command ${spoke ? 'wrote no whole line' : 'neither wrote a line'} nor exited within the ${seconds(boundMs)} start-up bound; its runs are fed from spawn${obs.killed ? ' (it ignored SIGTERM and was stopped with SIGKILL)' : ''}`;
  return { known: false, boundMs, how, note: `; given an empty input it did not finish within the ${seconds(boundMs)} start-up bound either: if it is only slow to start, not hung, raise the bound with ${startupFlag}` };
}

/**
 * How long the first runs wait for the start-up probe before they start without its answer (issue
 * 30 §3). A command that answers within it (the examples answer in 0.05 to 0.3 s: the Python
 * transformer said ready 49 ms after spawn, 2026-11-29) is run exactly as before: its form and
 * start-up known from the first run. Half a second, not the 1 s it was: that second was all a
 * hanging command's verdict waited beyond its runs' own bound, and a command slower to answer than
 * half a second costs only its first runs again (below), never a verdict. One that does not is either slow to start
 * or hung, which only its start-up bound can tell; waiting that bound out (30 s by default) before
 * any run made a hanging command's verdict take 50 s. Its first runs start instead while the probe
 * goes on (`probeInBackground`): a run that overran its bound while the probe had still not answered
 * is a hang by both measures and counts towards fail fast; any other run of that time is run again
 * once the probe has answered, so a slow starter is judged only on runs given its start-up.
 */
export const startupWindowMs = 500;

export type BackgroundProbe = {
  /** The probe's answer, once it has one. */
  answer: () => Startup | undefined;
  /** Resolves with the answer, or undefined when `signal` aborts first. */
  wait: (signal?: AbortSignal) => Promise<Startup | undefined>;
  /** Said with a hang of a run that started while the probe had no answer yet. */
  note: () => string;
  /**
   * Whether the probe's process works (uses CPU) rather than waits: a run that overran while the probe
   * had no answer is a hang only when the probe waits too; one that works is starting slowly (`npx tsx`
   * behind a loaded CI runner's other jobs took longer than a run's bound: CI of c9f4c60).
   */
  works: () => Promise<boolean>;
  /** Ends the probe's process if it still runs. */
  stop: () => void;
};

/** `probeStartup` running on while runs start; `onAnswer` sees the answer before any waiter does. */
export function probeInBackground(command: string, boundMs: number, env: Record<string, string>, ask: { part: string } | undefined, onAnswer: (startup: Startup) => void): BackgroundProbe {
  const controller = new AbortController();
  const startedAt = performance.now();
  let answer: Startup | undefined;
  // A probe ended by stop() measured nothing: it answers no waiter and decides nothing.
  let pid: number | undefined;
  const settled = probeStartup(command, boundMs, env, controller.signal, ask, (p) => { pid = p; }).then((s) => {
    if (!controller.signal.aborted) { answer = s; onAnswer(s); }
    return s;
  });
  return {
    answer: () => answer,
    wait: (signal) => (answer ? Promise.resolve(answer) : new Promise((resolve) => {
      if (signal?.aborted) { resolve(undefined); return; }
      const abort = () => resolve(undefined);
      signal?.addEventListener('abort', abort, { once: true });
      void settled.then(() => { signal?.removeEventListener('abort', abort); resolve(answer); });
    })),
    note: () => `; given an empty input it had not answered either after ${seconds(performance.now() - startedAt)} (the start-up probe was still waiting): if it is only slow to start, not hung, give the bound with ${startupFlag}, and its runs then wait for the probe`,
    stop: () => controller.abort(),
    works: async () => (pid === undefined || answer !== undefined ? false : treeWorks(pid)),
  };
}

/** Resolves when the probe has answered or `windowMs` has passed, whichever is first. */
export function answeredWithin(probe: BackgroundProbe, windowMs: number): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), windowMs);
  return probe.wait(controller.signal).then(() => clearTimeout(timer));
}
