/**
 * The probes that hold an upstream open, silent or trickling, for seconds. On the `alt` instance,
 * whose GATEWAY_TIMEOUT_MS is a few seconds (4 s by default): the total timeout's frame
 * (GW-TIMEOUT-001), when it fires (GW-TIMEOUT-003), and that it closes the upstream too
 * (GW-ABORT-002). On `main`, configured as the seed's gateway (GATEWAY_TIMEOUT_MS 300 s, "300s
 * timeout with no read timeout"): a silence between events that must not end the stream
 * (GW-TIMEOUT-002: 6.5 s by default, so httpx's default 5 s read timeout fails it). The silence
 * used to run on `alt`, just under its 8 s total; apart, neither waits for the other, and the
 * probe's wall time is the longer of the two, not their sum (docs/performance.md fix 54). The runs
 * start once their instances listen and overlap everything else, which mostly waits too; the
 * probe `timeout` (run after the others) collects them.
 */
import type { Probe, RunEnv, ScenarioCheck } from '../types.ts';
import type { CheckOutcome, TimelineEntry } from '../../model.ts';
import { commonPrefix, type Exchange } from '../../checks/gateway/types.ts';
import { checkTimeoutAbort, type MockStreams } from '../../checks/gateway/abort.ts';
import { checkTerminalFrame } from '../../checks/gateway/terminal-frame.ts';
import { checkSilence, reachedTotal } from '../../checks/gateway/timing.ts';
import { checkTimeoutTiming, timeoutFrameOffset, timeoutLateMs } from '../../checks/gateway/timeout-timing.ts';
import { upstreamScript } from './contract.ts';
import { exchange, pause, type MockClient } from './http.ts';
import { processOf, type GatewayInstance } from './instances.ts';
import { allUntested, headersFor, prepareRun, timelineOf, withInstance, type GatewayKit, type PreparedRun } from './kit.ts';

type KitRef = () => GatewayKit;

/** The silence judged for GW-TIMEOUT-002 by default: httpx's default read timeout (5 s) and 1.5 s more, the slack a loaded machine's timers need. */
export const defaultSilenceMs = 6500;

/** Dribble parameters that keep a body of `bytes` coming every 200 ms for `ms` in all. */
export function trickleFor(bytes: number, ms: number): { bytesPerChunk: number; intervalMs: number } {
  const intervalMs = 200;
  return { bytesPerChunk: Math.max(1, Math.floor((bytes * intervalMs) / ms)), intervalMs };
}

/** Poll the run's own stream counters until its upstream is closed, or `boundMs` passed. */
async function sessionClosed(mock: MockClient, sessionId: string, boundMs: number, signal: AbortSignal): Promise<{ session: MockStreams; waitedMs: number }> {
  const started = performance.now();
  let session = await mock.streams(sessionId);
  while (session.open > 0 && performance.now() - started < boundMs && !signal.aborted) {
    await pause(50, signal);
    session = await mock.streams(sessionId);
  }
  return { session, waitedMs: Math.round(performance.now() - started) };
}

/** Send a prepared run and read until the gateway ends it, or `totalMs`; `alt` takes its RS256 token, `main` the default one. */
function send(kit: GatewayKit, instance: GatewayInstance, run: PreparedRun, totalMs: number, signal: AbortSignal, on: 'alt' | 'main' = 'alt'): Promise<Exchange> {
  return exchange(`${instance.url}/run_sse`, {
    body: JSON.stringify(run.body),
    headers: on === 'alt' ? headersFor(kit, instance, { token: kit.creds.validRs }) : headersFor(kit, instance),
    deadlineMs: totalMs,
    root: processOf(instance),
    totalMs,
    signal,
  });
}

type Part = { outcomes: CheckOutcome[]; timeline: TimelineEntry[] };

async function holdOpen(kit: GatewayKit, instance: GatewayInstance, mock: MockClient, totalMs: number, signal: AbortSignal): Promise<Part> {
  const id = 'probe:timeout';
  const run = await prepareRun(kit, mock, kit.scenario('plain_text_streaming'), [{ name: 'hold-open' }]);
  const x = await send(kit, instance, run, totalMs + 5000, signal);
  const closed = await sessionClosed(mock, run.target.sessionId, 2000, signal);
  const outcomes = [
    ...checkTerminalFrame({ scenario: id, exchange: x, prefix: run.script.bytes, kind: 'timeout', cause: `the upstream held the stream open past GATEWAY_TIMEOUT_MS=${totalMs}` }),
    ...checkTimeoutAbort(id, { ending: x.ending, ...closed }),
  ];
  return { outcomes, timeline: timelineOf(`POST /run_sse; the upstream sends its events, then holds the stream open in silence (GATEWAY_TIMEOUT_MS=${totalMs})`, x) };
}

async function trickle(kit: GatewayKit, instance: GatewayInstance, mock: MockClient, totalMs: number, signal: AbortSignal): Promise<Part> {
  const id = 'probe:timeout';
  // One event (a non-streaming answer), written a few bytes at a time: the timeout fires inside it.
  const scenario = kit.scenario('plain_text');
  const upstreamMs = totalMs + timeoutLateMs + 1000;
  const bytes = upstreamScript(scenario, { appName: scenario.id, userId: scenario.session.userId, sessionId: 'length' }, scenario.request.streaming ?? false).bytes.length;
  const run = await prepareRun(kit, mock, scenario, [{ name: 'dribble', ...trickleFor(bytes, upstreamMs) }, { name: 'hold-open' }]);
  const x = await send(kit, instance, run, totalMs + timeoutLateMs + 500, signal);
  const closed = await sessionClosed(mock, run.target.sessionId, 2000, signal);
  // The timeout fired inside an event of the trickle: the client must still get the TIMEOUT frame as
  // an event of its own (GW-TIMEOUT-001). Judged when the gateway's own bytes follow the upstream's.
  // The upstream's bytes end where the TIMEOUT frame's `data:` starts, less the line ends the gateway put before it.
  const at = timeoutFrameOffset(x.body);
  const same = at > 0 ? commonPrefix(x.body.subarray(0, at), run.script.bytes) : 0;
  const framed = at > 0 && x.ending === 'complete' && /^[\r\n]*$/.test(Buffer.from(x.body.subarray(same, at)).toString('latin1'));
  const outcomes = [
    ...checkTimeoutTiming({ probe: id, exchange: x, totalMs, upstreamMs }),
    ...checkTimeoutAbort(id, { ending: x.ending, ...closed }),
    ...(framed ? checkTerminalFrame({ scenario: id, exchange: x, prefix: run.script.bytes.subarray(0, same), kind: 'timeout', cause: `the total timeout fired while the upstream was trickling (GATEWAY_TIMEOUT_MS=${totalMs})` }) : []),
  ];
  return { outcomes, timeline: timelineOf(`POST /run_sse; the upstream sends one event a few bytes every 200 ms for ${upstreamMs} ms (GATEWAY_TIMEOUT_MS=${totalMs})`, x) };
}

/** Runs of the silence probe at most: a busy machine can start the silence late enough that the total overlaps it. */
const silenceAttempts = 3;
/** How long a silence attempt may outlast the gateway's total timeout before the harness gives up on it. */
const silenceSlackMs = 3000;

/** The longest the timing load can take: the alt runs, or the silence attempts one after another, whichever is longer. */
export function timingLoadBoundMs(totalMs: number, silenceMs = defaultSilenceMs): number {
  return Math.max(totalMs + timeoutLateMs + 3000, silenceAttempts * (silenceMs + silenceSlackMs));
}

/** The silence on `main`, whose total is `totalMs` (300 s, the seed's), tried again only when a busy machine made them overlap. */
async function silence(kit: GatewayKit, instance: GatewayInstance, mock: MockClient, totalMs: number, ms: number, signal: AbortSignal): Promise<Part> {
  const id = 'probe:timeout';
  const timeline: TimelineEntry[] = [];
  let outcomes: CheckOutcome[] = [];
  for (let attempt = 1; attempt <= silenceAttempts && !signal.aborted; attempt++) {
    const run = await prepareRun(kit, mock, kit.scenario('plain_text_streaming'), [{ name: 'silence', afterFrame: 0, ms }]);
    const x = await send(kit, instance, run, ms + silenceSlackMs, signal, 'main');
    outcomes = checkSilence(id, run.script, x, totalMs);
    timeline.push(...timelineOf(`POST /run_sse to main (attempt ${attempt}); the upstream is silent for ${ms} ms after its first event (GATEWAY_TIMEOUT_MS=${totalMs})`, x));
    // Only an overlap with the total is tried again: any finding, pass or other skip is the verdict.
    const overlapped = run.script.waits.some((w) => reachedTotal(x, w.offset, totalMs) !== undefined);
    if (!overlapped || outcomes.some((o) => o.status !== 'untested')) break;
  }
  return { outcomes, timeline };
}

export type TimingLoad = { kick: (env: RunEnv) => void; probe: Probe; stop: () => void };

/** `totalMs`: alt's GATEWAY_TIMEOUT_MS; `silenceOn`: GW-TIMEOUT-002's silence and main's GATEWAY_TIMEOUT_MS. */
export function createTimingLoad(kitRef: KitRef, totalMs: number, silenceOn: { ms: number; mainTotalMs: number }): TimingLoad {
  const id = 'probe:timeout';
  const altRequirements = ['GW-TIMEOUT-001', 'GW-TIMEOUT-003', 'GW-ABORT-002'];
  const requirements = [...altRequirements, 'GW-TIMEOUT-002'];
  const cancel = new AbortController();
  let result: Promise<ScenarioCheck> | undefined;
  const kick = (env: RunEnv) => {
    if (result) return;
    const e = { ...env, signal: cancel.signal };
    const onAlt = withInstance(kitRef(), 'alt', altRequirements, id, async (instance, mock) => {
      const kit = kitRef();
      const parts = await Promise.all([holdOpen, trickle].map((f) => f(kit, instance, mock, totalMs, cancel.signal)));
      return { outcomes: parts.flatMap((p) => p.outcomes), timeline: parts.flatMap((p) => p.timeline) };
    }, e);
    const onMain = withInstance(kitRef(), 'main', ['GW-TIMEOUT-002'], id, (instance, mock) => silence(kitRef(), instance, mock, silenceOn.mainTotalMs, silenceOn.ms, cancel.signal), e);
    result = Promise.all([onAlt, onMain])
      .then((both) => ({ outcomes: both.flatMap((p) => p.outcomes), timeline: both.flatMap((p) => p.timeline) }))
      // Started in the background: it must never reject unobserved (the mock may be gone when it is cancelled).
      .catch((error: unknown) => allUntested(requirements, id, `the timing probe could not finish: ${(error as Error).message}`));
  };
  return {
    kick,
    probe: {
      id: 'timeout',
      requirements,
      // It collects runs that overlapped everything else since the instances listened; its bounds are seconds wide.
      collects: true,
      run: async (env) => {
        kick(env);
        const onAbort = () => cancel.abort();
        env.signal.addEventListener('abort', onAbort, { once: true });
        try { return await (result as Promise<ScenarioCheck>); } finally { env.signal.removeEventListener('abort', onAbort); }
      },
    },
    stop: () => cancel.abort(),
  };
}
