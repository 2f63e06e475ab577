/**
 * Probes of how a gateway streams, built from corpus scenarios with mock faults armed on top:
 * forwarding of every model field (GW-PASS-002), flushing across upstream pauses (GW-PASS-003),
 * the total timeout (GW-TIMEOUT-001), an upstream 500 (GW-ERR-001), a refused upstream
 * (GW-ERR-002), the single terminal frame (GW-ERR-003) and client disconnects (GW-ABORT-001).
 * Probe ids are requirement tags, so the engine's replay line (`--grep <probe id>`) selects them.
 */
import type { Probe, RunEnv } from './types.ts';
import { checkAbort, abortSeen, type MockStreams } from '../checks/gateway/abort.ts';
import { checkForwarding } from '../checks/gateway/forwarding.ts';
import { checkTerminalFrame } from '../checks/gateway/terminal-frame.ts';
import { checkFlushing } from '../checks/gateway/timing.ts';
import { clientHeaders } from './gateway-contract.ts';
import { exchange, pause } from './gateway-http.ts';
import { prepareRun, sendRun, timelineOf, withInstance, type GatewayKit } from './gateway-kit.ts';

type KitRef = () => GatewayKit;

/** Upstream pauses of the flushing probe: long enough to tell apart from scheduling noise. */
export const flushPauseMs = 300;

export function forwardingProbe(kitRef: KitRef): Probe {
  const id = 'probe:passthrough';
  const requirements = ['GW-PASS-002'];
  return {
    id: 'passthrough',
    requirements,
    run: (env) => withInstance(kitRef(), 'main', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      // Every optional field of the seed's RunAgentRequest, with values a gateway could mangle.
      const extra = { streaming: true, stateDelta: { fire: 'Cedar Creek', acres: 127283, nested: { ok: true, list: [1, 'two', null] } }, invocationId: 'e-adk-conformance-resume' };
      const run = await prepareRun(kit, mock, kit.scenario('plain_text_streaming'), [], extra);
      const x = await sendRun(kit, instance, run, env);
      const journal = await mock.journal(run.target.sessionId);
      return { outcomes: checkForwarding({ scenario: id, endpoint: run.endpoint, sent: run.body, exchange: x, journal }), timeline: timelineOf('POST /run_sse with stateDelta and invocationId', x) };
    }, env),
  };
}

export function flushingProbe(kitRef: KitRef): Probe {
  const id = 'probe:latency';
  const requirements = ['GW-PASS-003'];
  return {
    id: 'latency',
    requirements,
    run: (env) => withInstance(kitRef(), 'main', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      const faults = [{ name: 'silence', afterFrame: 1, ms: flushPauseMs }];
      const run = await prepareRun(kit, mock, kit.scenario('plain_text_streaming'), faults);
      const x = await sendRun(kit, instance, run, env);
      return { outcomes: checkFlushing(id, run.script, x), timeline: timelineOf(`POST /run_sse; the upstream pauses ${flushPauseMs} ms after frame 1`, x) };
    }, env),
  };
}

export function timeoutProbe(kitRef: KitRef, shortTimeoutMs: number): Probe {
  const id = 'probe:timeout';
  const requirements = ['GW-TIMEOUT-001'];
  return {
    id: 'timeout',
    requirements,
    run: (env) => withInstance(kitRef(), 'alt', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      const run = await prepareRun(kit, mock, kit.scenario('plain_text_streaming'), [{ name: 'hold-open' }]);
      // Read until the gateway ends the stream itself: its total timeout, not ours.
      const x = await exchange(`${instance.url}/run_sse`, {
        body: JSON.stringify(run.body),
        headers: clientHeaders(kit.creds.validRs, kit.creds.csrf),
        deadlineMs: Math.min(shortTimeoutMs + 5000, env.scenarioTimeoutMs - 1000),
        signal: env.signal,
      });
      const outcomes = checkTerminalFrame({ scenario: id, exchange: x, prefix: run.script.bytes, kind: 'timeout', cause: `the upstream held the stream open past GATEWAY_TIMEOUT_MS=${shortTimeoutMs}` });
      return { outcomes, timeline: timelineOf(`POST /run_sse; the upstream sends its events and holds the stream open (GATEWAY_TIMEOUT_MS=${shortTimeoutMs})`, x) };
    }, env),
  };
}

/**
 * Failing upstreams: a 500 from the mock (on `main`), and, in command mode, a port that refuses
 * connections (the `refused` instance). Each must end the stream with exactly one terminal frame.
 */
export function errorsProbe(kitRef: KitRef, withRefused: boolean): Probe {
  const id = 'probe:errors';
  const requirements = ['GW-ERR-001', 'GW-ERR-002', 'GW-ERR-003'];
  return {
    id: 'errors',
    requirements,
    run: async (env) => {
      const kit = kitRef();
      const status = await withInstance(kit, 'main', ['GW-ERR-001', 'GW-ERR-003'], id, async (instance, mock) => {
        const run = await prepareRun(kit, mock, kit.scenario('plain_text'), [{ name: 'status', code: 500 }]);
        const x = await sendRun(kit, instance, run, env);
        const outcomes = checkTerminalFrame({ scenario: id, exchange: x, prefix: new Uint8Array(0), kind: 'status', upstreamStatus: 500, cause: 'the upstream answered HTTP 500' });
        return { outcomes, timeline: timelineOf('POST /run_sse; the upstream answers 500', x) };
      }, env);
      if (!withRefused) return status;
      const refused = await withInstance(kit, 'refused', ['GW-ERR-002', 'GW-ERR-003'], id, async (instance, mock) => {
        const run = await prepareRun(kit, mock, kit.scenario('plain_text'));
        const x = await sendRun(kit, instance, run, env);
        const outcomes = checkTerminalFrame({ scenario: id, exchange: x, prefix: new Uint8Array(0), kind: 'stream-error', cause: 'the upstream refused the connection' });
        return { outcomes, timeline: timelineOf('POST /run_sse to a gateway whose ADK_UPSTREAM_URL port refuses connections', x) };
      }, env);
      return { outcomes: [...status.outcomes, ...refused.outcomes], timeline: [...status.timeline, ...refused.timeline] };
    },
  };
}

/** Poll the mock's counters until the run's stream is closed by its client, or the bound passes. */
async function waitForAbort(read: () => Promise<MockStreams>, before: MockStreams, boundMs: number, env: RunEnv): Promise<{ after: MockStreams; waitedMs: number }> {
  const started = performance.now();
  let after = await read();
  while (!abortSeen(before, after) && performance.now() - started < boundMs && !env.signal.aborted) {
    await pause(25, env.signal);
    after = await read();
  }
  return { after, waitedMs: Math.round(performance.now() - started) };
}

export function abortProbe(kitRef: KitRef): Probe {
  const id = 'probe:lifecycle';
  const requirements = ['GW-ABORT-001'];
  return {
    id: 'lifecycle',
    requirements,
    run: (env) => withInstance(kitRef(), 'main', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      const run = await prepareRun(kit, mock, kit.scenario('plain_text_streaming'), [{ name: 'hold-open' }]);
      const before = await mock.streams();
      // sendRun leaves a held-open stream once its bytes are in (the client disconnects).
      const x = await sendRun(kit, instance, run, env);
      const { after, waitedMs } = await waitForAbort(() => mock.streams(), before, 2000, env);
      return { outcomes: checkAbort(id, { before, after, clientBytes: x.body.length, waitedMs }), timeline: timelineOf('POST /run_sse; the upstream holds the stream open; the client leaves', x) };
    }, env),
  };
}
