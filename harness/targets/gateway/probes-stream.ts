/**
 * Probes of how a gateway streams, built from corpus scenarios with mock faults armed on top:
 * forwarding of every model field and of content parts other than text (GW-PASS-002), flushing across upstream pauses (GW-PASS-005),
 * an upstream 500 (GW-ERR-001, GW-ERR-006), a refused upstream and a cut after a data line (GW-ERR-002,
 * GW-ERR-004), the single terminal frame (GW-ERR-003) and client disconnects (GW-ABORT-001).
 * The timeout's probes are in probes-timing.ts.
 * Probe ids are requirement tags, so the engine's replay line (`--grep <probe id>`) selects them.
 */
import type { Probe, RunEnv } from '../types.ts';
import { checkAbort, checkEarlyAbort, abortSeen, type MockStreams } from '../../checks/gateway/abort.ts';
import { frameRanges } from '../../../mock-adk/core/timeline.ts';
import { checkErrorDetail } from '../../checks/gateway/error-detail.ts';
import { checkForwarding } from '../../checks/gateway/forwarding.ts';
import { checkTerminalFrame } from '../../checks/gateway/terminal-frame.ts';
import { checkFlushing } from '../../checks/gateway/timing.ts';
import { upstreamScript } from './contract.ts';
import { pause } from './http.ts';
import { prepareRun, sendRun, timelineOf, withInstance, type GatewayKit } from './kit.ts';

type KitRef = () => GatewayKit;

/**
 * Text parts with the other fields a Part has beside `text`: a model that knows only `text` drops
 * `thought` and `thoughtSignature` silently (pydantic ignores unknown keys). Sent in a message of
 * their own, so a gateway that refuses non-text parts is still judged on them.
 */
export const textPartFields: ReadonlyArray<Record<string, unknown>> = [
  { text: 'The user wants the perimeter read off the map.', thought: true },
  { text: 'What does this perimeter map show?', thoughtSignature: 'CiQBVKhc7kq3m1WfNnq0xQ2rT3JfV0dK9cYx4o2bUj8yZ3aN5Lg=' },
];

/** A user message with every kind of part a client sends besides text (a resume sends a functionResponse). */
export const nonTextParts: ReadonlyArray<Record<string, unknown>> = [
  { text: 'What does this perimeter map show?' },
  { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==' } },
  { functionCall: { id: 'adk-call-1', name: 'get_fire_perimeter', args: { fire: 'Cedar Creek', acres: 127283 } } },
  { functionResponse: { id: 'adk-call-1', name: 'get_fire_perimeter', response: { status: 'ok', contained: 0.42, nested: { list: [1, 'two'] } } } },
];

/** Upstream pauses of the flushing probe: long enough to tell apart from scheduling noise. */
export const flushPauseMs = 500;

export function forwardingProbe(kitRef: KitRef): Probe {
  const id = 'probe:passthrough';
  const requirements = ['GW-PASS-002'];
  return {
    id: 'passthrough',
    requirements,
    shared: true,
    run: (env) => withInstance(kitRef(), 'main', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      // Every optional field of the seed's RunAgentRequest, with values a gateway could mangle.
      const extra = { streaming: true, stateDelta: { fire: 'Cedar Creek', acres: 127283, nested: { ok: true, list: [1, 'two', null] } }, invocationId: 'e-adk-conformance-resume' };
      const run = await prepareRun(kit, mock, kit.scenario('plain_text_streaming'), [], extra);
      const x = await sendRun(kit, instance, run, env);
      const journal = await mock.journal(run.target.sessionId);
      // Seed 004: newMessage.parts is an "Array of content parts (text, functionCall, etc.)".
      const parts = await prepareRun(kit, mock, kit.scenario('plain_text'), [], { newMessage: { role: 'user', parts: nonTextParts } });
      const px = await sendRun(kit, instance, parts, env);
      const partsJournal = await mock.journal(parts.target.sessionId);
      const texts = await prepareRun(kit, mock, kit.scenario('plain_text'), [], { newMessage: { role: 'user', parts: textPartFields } });
      const tx = await sendRun(kit, instance, texts, env);
      const textsJournal = await mock.journal(texts.target.sessionId);
      return {
        outcomes: [
          ...checkForwarding({ scenario: id, endpoint: run.endpoint, sent: run.body, exchange: x, journal }),
          ...checkForwarding({ scenario: id, endpoint: parts.endpoint, sent: parts.body, exchange: px, journal: partsJournal, validBody: 'a newMessage with inlineData, functionCall and functionResponse parts' }),
          ...checkForwarding({ scenario: id, endpoint: texts.endpoint, sent: texts.body, exchange: tx, journal: textsJournal, validBody: 'a newMessage whose text parts carry thought and thoughtSignature' }),
        ],
        timeline: [...timelineOf('POST /run_sse with stateDelta and invocationId', x), ...timelineOf('POST /run_sse with inlineData, functionCall and functionResponse parts', px), ...timelineOf('POST /run_sse with text parts carrying thought and thoughtSignature', tx)],
      };
    }, env),
  };
}

export function flushingProbe(kitRef: KitRef): Probe {
  const id = 'probe:latency';
  const requirements = ['GW-PASS-005'];
  return {
    id: 'latency',
    requirements,
    timed: true,
    run: (env) => withInstance(kitRef(), 'main', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      const faults = [{ name: 'silence', afterFrame: 1, ms: flushPauseMs }];
      const run = await prepareRun(kit, mock, kit.scenario('plain_text_streaming'), faults);
      const x = await sendRun(kit, instance, run, env);
      return { outcomes: checkFlushing(id, run.script, x), timeline: timelineOf(`POST /run_sse; the upstream pauses ${flushPauseMs} ms after frame 1`, x) };
    }, env),
  };
}

/**
 * Failing upstreams: a 500 from the mock (on `main`), and, in command mode, a port that refuses
 * connections (the `refused` instance). Each must end the stream with exactly one terminal frame.
 */
export function errorsProbe(kitRef: KitRef, withRefused: boolean): Probe {
  const id = 'probe:errors';
  const requirements = ['GW-ERR-001', 'GW-ERR-002', 'GW-ERR-003', 'GW-ERR-004', 'GW-ERR-005', 'GW-ERR-006'];
  return {
    id: 'errors',
    requirements,
    shared: true,
    run: async (env) => {
      const kit = kitRef();
      const status = await withInstance(kit, 'main', ['GW-ERR-001', 'GW-ERR-003', 'GW-ERR-005', 'GW-ERR-006'], id, async (instance, mock) => {
        const run = await prepareRun(kit, mock, kit.scenario('plain_text'), [{ name: 'status', code: 500 }]);
        const x = await sendRun(kit, instance, run, env);
        const journal = await mock.journal(run.target.sessionId);
        const outcomes = [
          ...checkTerminalFrame({ scenario: id, exchange: x, prefix: new Uint8Array(0), kind: 'status', upstreamStatus: 500, cause: 'the upstream answered HTTP 500' }),
          // The 500 carries the scenario's event stream, no message: only the address is judged here.
          ...checkErrorDetail({ scenario: id, exchange: x, upstreamStatus: 500, upstreamBody: run.script.bytes, upstreamHost: new URL(kit.mockUrl).host }),
          // An ADK run is not idempotent: a gateway that retries a 5xx starts the user's run twice.
          ...checkForwarding({ scenario: id, endpoint: run.endpoint, sent: run.body, exchange: x, journal }),
        ];
        return { outcomes, timeline: timelineOf('POST /run_sse; the upstream answers 500', x) };
      }, env);
      // A cut right after a data line, before its blank line: the client holds a finished field of
      // an event that never ends (the corpus's stream_cut_mid_line cuts inside a line).
      const cut = await withInstance(kit, 'main', ['GW-ERR-002', 'GW-ERR-003', 'GW-ERR-004', 'GW-ERR-005'], id, async (instance, mock) => {
        const scenario = kit.scenario('plain_text_streaming');
        // Frame lengths do not depend on the session (ids and timestamps have fixed widths).
        const rendered = upstreamScript(scenario, { appName: scenario.id, userId: scenario.session.userId, sessionId: 'length' }, true).bytes;
        const [start, end] = frameRanges(rendered)[1] ?? [0, 2];
        const run = await prepareRun(kit, mock, scenario, [{ name: 'cut-mid-frame', frame: 1, bytes: end - start - 1 }]);
        const x = await sendRun(kit, instance, run, env);
        const outcomes = checkTerminalFrame({ scenario: id, exchange: x, prefix: run.script.bytes, kind: 'stream-error', cause: 'the upstream connection broke after a data line, before the blank line that ends its event' });
        return { outcomes, timeline: timelineOf('POST /run_sse; the upstream breaks after a data line, before its blank line', x) };
      }, env);
      const parts = [status, cut];
      if (withRefused) {
        parts.push(await withInstance(kit, 'refused', ['GW-ERR-002', 'GW-ERR-003', 'GW-ERR-005'], id, async (instance, mock) => {
          const run = await prepareRun(kit, mock, kit.scenario('plain_text'));
          const x = await sendRun(kit, instance, run, env);
          const outcomes = checkTerminalFrame({ scenario: id, exchange: x, prefix: new Uint8Array(0), kind: 'stream-error', cause: 'the upstream refused the connection' });
          return { outcomes, timeline: timelineOf('POST /run_sse to a gateway whose ADK_UPSTREAM_URL port refuses connections', x) };
        }, env));
      }
      return { outcomes: parts.flatMap((p) => p.outcomes), timeline: parts.flatMap((p) => p.timeline) };
    },
  };
}

/** Poll the run's own stream counters until its stream is closed by its client, or the bound passes. */
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
    timed: true,
    run: (env) => withInstance(kitRef(), 'main', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      const run = await prepareRun(kit, mock, kit.scenario('plain_text_streaming'), [{ name: 'hold-open' }]);
      // The run's own session: other runs (the timing probes' timeouts) close streams meanwhile.
      const sessionId = run.target.sessionId;
      const before = await mock.streams(sessionId);
      // sendRun leaves a held-open stream once its bytes are in (the client disconnects).
      const x = await sendRun(kit, instance, run, env);
      const { after, waitedMs } = await waitForAbort(() => mock.streams(sessionId), before, 2000, env);
      // The client leaves before the upstream answers at all (an LLM still thinking).
      const upstreamDelayMs = 4000;
      const early = await prepareRun(kit, mock, kit.scenario('plain_text_streaming'), [{ name: 'delay-headers', ms: upstreamDelayMs }, { name: 'hold-open' }]);
      const earlyBefore = await mock.streams(early.target.sessionId);
      const left = await sendRun(kit, instance, early, env, { deadlineMs: 300, totalMs: 300 });
      const earlyAbort = await waitForAbort(() => mock.streams(early.target.sessionId), earlyBefore, 2000, env);
      return {
        outcomes: [
          ...checkAbort(id, { before, after, clientBytes: x.body.length, waitedMs }),
          ...checkEarlyAbort(id, { session: earlyAbort.after, waitedMs: earlyAbort.waitedMs, upstreamDelayMs }),
        ],
        timeline: [...timelineOf('POST /run_sse; the upstream holds the stream open; the client leaves', x), ...timelineOf(`POST /run_sse; the upstream answers only after ${upstreamDelayMs} ms; the client leaves after 300 ms`, left)],
      };
    }, env),
  };
}
