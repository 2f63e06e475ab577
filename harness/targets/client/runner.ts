/**
 * The client part runner (CLI-*): certifies a POST SSE client of `/run_sse` by the command
 * contract (the scenario's response bytes on stdin, NDJSON records on stdout) or the module
 * contract (the client makes the real request to the mock). Every stream is compared with what
 * the kit's own reader and completion rule make of the same bytes (checks/client/expected.ts): under
 * the module contract the bytes the run's server served for the request the client made
 * (proxy.ts), which also judges that request by that server's model. docs/client-contract.md
 * is the contract.
 */
import { kitModule } from '../../../core/package-root.ts';
import type { Scenario } from '../../../schemas/types.ts';
import type { TimelineEntry } from '../../model.ts';
import { expectedFor, type Expected } from '../../checks/client/expected.ts';
import { checkClient, parsedFormBlind, type ClientCase } from '../../checks/client/index.ts';
import { untested } from '../../checks/transformer/outcome.ts';
import { checkRequest, checkRunCount } from '../../checks/client/request.ts';
import { httpErrorExpected } from '../../checks/client/expected.ts';
import { captureBytes, isLargeEvent, openSession, plannedBytes, scenarioRequest, type ByteCapture } from './capture.ts';
import { byteCases, forStdin, leadOf, serveCases, stdinLeadMs, type ByteCase } from './cases.ts';
import { startClientProxy, type ServedRun } from './proxy.ts';
import { startClientRouter, type ClientRouter } from './router.ts';
import { answerEnv, isEndValue, clockWindowMs, driveClientCommand, driveClientModule, driveClientUnstalled, exitGraceMs, watchingTheLoop, windowEnv, type ClientFactory, type ClientWindows, type Drive, type DriveExit } from './drive.ts';
import { probeStartup, type ProtocolChoice, type Startup } from '../command-startup.ts';
import { availableParallelism } from 'node:os';
import { clientLongLivedProbeId, clientOneShotIsolation, createClientLongLivedProbe, isolationCases } from './long-lived.ts';
import { caseRequest, declaresParsedForm, loadClientModule, longLivedDeps } from './instances.ts';
import { openSessionPool, type SessionPool } from '../../session.ts';
import { clientMemoryExtraMs, clientMemoryProbeId, clientOneShotMemory, commandMemory, createClientMemoryProbe, childModuleMemory } from './memory.ts';
import { memoryLoad } from '../memory-load.ts';
import { driveWhileStalled } from '../feed-stall.ts';
import { notJudged, notJudgedCheck, stallNote, stillFedNotJudged, unstalled } from './not-judged.ts';
import { clientRequirements } from '../../requirements/client.ts';
import { clientMemoryId } from '../../checks/client/memory.ts';
import { clientIsolationId } from '../../checks/client/long-lived.ts';
import { clientLargeEventId } from '../../checks/client/large-event.ts';
import { clientLargeEventExtraMs, clientLargeEventProbeId, clientOneShotLargeEvent, createClientLargeEventProbe } from './large-event.ts';

/**
 * The client's start-up probe bound by default: a correct client answers an empty input with its
 * end record at once, so a longer wait only delays the verdict on one that hangs (`--startup-timeout` raises it).
 */
export const clientStartupProbeMs = 10_000;
import type { PartRunner, RunEnv, ScenarioCheck } from '../types.ts';

export const referenceClientModule: string = kitModule('harness/targets/client/reference.ts');

/** `protocol`: how the command is run (docs/session-protocol.md); default `auto`, the start-up probe asks. */
/**
 * `instance`: `per-run` (default) calls createClient for every run; `long-lived` calls it once and
 * runs every scenario and byte case through that one object, as an app reuses its client every
 * turn (one base URL, router.ts). The long-lived probe (CLI-ISO-001) runs in either.
 */
export type ClientTarget = { command: string; protocol?: ProtocolChoice } | { module: string; instance?: 'per-run' | 'long-lived' };

export type ClientRunnerOptions = {
  /** The completion windows handed to the client (default idle 1000, grace 250, call idle 3000 ms). */
  windows?: ClientWindows;
  /** Include scenarios tagged `slow` or `timing` (default $ADK_CONFORMANCE_INCLUDE_SLOW === '1'). */
  includeSlow?: boolean;
  /** Captured bodies keyed by mock URL and scenario, shared between runners of one process (a mutation test). */
  captureCache?: Map<string, ByteCapture>;
  /** Command contract: the bound on the start-up measured before the first run (default defaultStartupTimeoutMs; --startup-timeout). */
  startupTimeoutMs?: number;
  /**
   * Run the memory probe (CLI-MEM-001, 10,000+ streams; default true). A mutation test proving other
   * requirements leaves it out; CLI-MEM-001 is then untested, never passed.
   */
  memoryProbe?: boolean;
  /** Streams the memory probe measures after warm-up (default 10,000); only a test of the probe's machinery asks fewer. */
  memoryRuns?: number;
  /**
   * The isolation probe's longest prior history (CLI-ISO-001; default the issue's 1,000).
   * A mutation test proving other requirements asks less, as it does of the memory probe.
   */
  isolationHistory?: number;
};

/** The framing requirement a scenario exercises; every other stream exercises CLI-SPLIT-001. */
const scenarioRequirements: Record<string, string[]> = {
  framing_crlf: ['CLI-EOL-001'], framing_cr: ['CLI-EOL-004'], framing_mixed_line_endings: ['CLI-EOL-005'],
  framing_split_every_byte: ['CLI-CHUNK-001'], framing_crlf_split_every_byte: ['CLI-CHUNK-001'], framing_dribble: ['CLI-CHUNK-001'],
  framing_bom: ['CLI-BOM-002'], framing_comment_lines: ['CLI-COMMENT-001'], framing_multiline_data: ['CLI-DATA-003'],
  framing_invalid_utf8: ['CLI-UTF-002'], framing_unicode_line_separator: ['CLI-LS-001'], framing_huge_event: ['CLI-LARGE-001'],
  error_frame_adk_go: ['CLI-EVENT-001'], stream_cut_mid_line: ['CLI-EOF-001'],
  // Issue 29 §1, in every dialect that can carry each (docs/scenarios.md "Client classes").
  error_frame_adk_go_streams_on: ['CLI-END-002'],
  framing_two_boms: ['CLI-BOM-002'], framing_two_boms_python: ['CLI-BOM-002'], framing_two_boms_adk_go: ['CLI-BOM-002'],
  framing_comment_inside_event: ['CLI-COMMENT-001'], framing_comment_inside_event_python: ['CLI-COMMENT-001'], framing_comment_inside_event_adk_go: ['CLI-COMMENT-001'],
  sub_agent_answer_then_root_python: ['CLI-END-001'], sub_agent_answer_then_root_adk_go: ['CLI-END-001'],
};

/** What a stream exercises: its framing requirement, a scripted non-200 answer CLI-HTTP-001, else CLI-SPLIT-001. */
const requirementsOf = (s: Scenario): string[] => scenarioRequirements[s.id] ?? (s.upstream.kind === 'http' ? ['CLI-HTTP-001'] : ['CLI-SPLIT-001']);

export const clientProbeId = 'client-byte-cases';
const probeRequirements: string[] = [...new Set([...byteCases.flatMap((c) => c.requirements), 'CLI-END-001', 'CLI-OUT-001'])];

const requestUnreachable = 'outside the client command contract, which hands the client the response bytes: the request is certified under the module contract (--client-module)';

/** What a client reports for a byte case: a non-200 answer is an http-error end with the server's message and no event. */
function caseExpected(c: ByteCase, windows: ClientWindows): Expected {
  if (c.answer) return httpErrorExpected(c.answer.status, Buffer.concat(c.chunks.map((x) => x.bytes)).toString('utf8'), c.answer.message);
  return expectedFor(c.chunks.map((x) => x.bytes), c.transport ?? 'eof', windows);
}

/**
 * A `/run_sse` scenario the client can be handed: a 200 stream (`run`, `bytes`) on a session that
 * exists, or a scripted non-200 answer (`http`, CLI-HTTP-001), whatever the session.
 */
export function clientApplies(s: Scenario, includeSlow: boolean): boolean {
  const kind = s.upstream.kind;
  return (kind === 'http' || ((kind === 'run' || kind === 'bytes') && s.session.create !== false)) && (s.request.endpoint === undefined || s.request.endpoint === '/run_sse')
    && s.family !== 'index-reuse' && (includeSlow || !(s.tags ?? []).some((t) => t === 'slow' || t === 'timing'));
}

const clip = (s: string, n = 160): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function createClientRunner(target: ClientTarget, options: ClientRunnerOptions = {}): PartRunner {
  const isCommand = 'command' in target;
  if (isCommand ? typeof target.command !== 'string' || target.command.trim() === '' : typeof target.module !== 'string' || target.module === '') {
    throw new TypeError('createClientRunner: give {command: "python3 my_client.py"} or {module: "/abs/path/client.ts"}');
  }
  const windows = options.windows ?? { idleMs: 1000, graceMs: 250, callIdleMs: 3000 };
  const includeSlow = options.includeSlow ?? process.env.ADK_CONFORMANCE_INCLUDE_SLOW === '1';
  const cache = options.captureCache ?? new Map<string, ByteCapture>();
  let factory: ClientFactory | undefined;
  /** The module reports parsed values (`export const recordForm = 'parsed'`; docs/client-contract.md). */
  let parsedForm = false;
  // Long-lived module instance: one client object behind one base URL for every run.
  let router: ClientRouter | undefined;
  let sharedClient: ReturnType<ClientFactory> | undefined;
  /** The client a module run uses, and the base URL it is given (the router's when one object serves every run). */
  const moduleRun = (sessionId: string, own: string): { factory: ClientFactory; baseUrl: string; unroute: () => void } => {
    if (!router || !sharedClient) return { factory: loaded(), baseUrl: own, unroute: () => {} };
    const client = sharedClient;
    return { factory: () => client, baseUrl: router.url, unroute: router.route(sessionId, own.replace(/\/case\/[\w-]+$/, '')) };
  };
  let startup: Startup | undefined;
  // The session form (docs/session-protocol.md): runs go to long-lived processes, already up when a run opens.
  let pool: SessionPool | undefined;
  const launch = () => (pool ? { runChild: pool.runChild } : startup?.known ? { startupMs: startup.startupMs, startupSlackMs: startup.slackMs } : {});
  // A client that is still starting reads a case's pieces as one (forStdin); a session process is up already.
  const lead = () => (pool ? 0 : stdinLeadMs);
  const boundOf = (env: RunEnv) => Math.max(2000, Math.min(10_000, Math.floor(env.scenarioTimeoutMs / 4)));

  async function capture(env: RunEnv, scenario: Scenario): Promise<ByteCapture> {
    const key = `${env.mockUrl} ${scenario.id}`;
    const hit = cache.get(key);
    if (hit) return hit;
    // Held open, a gap up to the idle window less 300 ms is kept: the final-answer rule reads it.
    const fresh = await captureBytes(env.mockUrl, scenario, env.signal, 100, Math.max(100, windows.idleMs - 300));
    cache.set(key, fresh);
    return fresh;
  }

  /** How the command is run (the start-up probe's finding), and the session processes replaced so far. */
  let restartsSeen = 0;
  const formNotes = (): TimelineEntry[] => {
    const fresh = pool?.restarts().slice(restartsSeen) ?? [];
    restartsSeen += fresh.length;
    return [...(startup ? [{ t: 0, kind: 'note' as const, summary: startup.how }] : []),
      ...fresh.map((r) => ({ t: 0, kind: 'note' as const, summary: `session process ${r.process} was replaced: it ${r.reason} (a correct implementation needs no restart)` }))];
  };

  async function runScenario(scenario: Scenario, env: RunEnv): Promise<ScenarioCheck> {
    const requirements = requirementsOf(scenario);
    const boundMs = boundOf(env);
    if (isCommand) {
      const c = await capture(env, scenario);
      const expected = c.status !== 200
        ? httpErrorExpected(c.status, Buffer.concat(c.chunks.map((x) => x.bytes)).toString('utf8'))
        : expectedFor(c.chunks.map((x) => x.bytes), c.transport, windows);
      const retries: TimelineEntry[] = [];
      const tried = await driveClientUnstalled(() => driveClientCommand(target.command, { chunks: c.chunks, transport: c.transport, windows, boundMs, answer: { status: c.status, contentType: c.contentType }, ...launch() }), windows, env.signal, (ms) => retries.push(stallNote(ms)));
      const drive = unstalled(tried, windows);
      const kase: ClientCase = { scenario: scenario.id, label: scenario.id, requirements, expected };
      const timeline: TimelineEntry[] = [...formNotes(), { t: 0, kind: 'request', summary: `captured HTTP ${c.status} (${c.contentType}), ${c.chunks.length} chunk(s), ${c.chunks.reduce((n, x) => n + x.bytes.byteLength, 0)} bytes of ${scenario.id} (${c.transport}) from the mock` }, ...retries];
      const check = finish(formed(kase), drive, timeline, { transport: c.transport, boundMs });
      return tried.stalled ? { ...check, machine: notJudged(tried.stallMs, windows) } : check;
    }
    // A fresh session and proxy per attempt: a run driven again (its clock ran out in a stall) is a new run on the mock.
    const retries: TimelineEntry[] = [];
    const { driven, stallMs, stalled } = await driveWhileStalled(() => moduleAttempt(scenario, env, requirements, boundMs), {
      stallMs: (a) => a.drive.feedStallMs ?? 0, limitMs: (a) => clockWindowMs(a.drive, windows), signal: env.signal, onRetry: (ms) => retries.push(stallNote(ms)),
    });
    if (stalled) return notJudgedCheck(driven.check, scenario.id, notJudged(stallMs, windows), retries);
    // Its body still being written at the bound, beside other runs: the delivery's pace was the shared
    // event loop's, so the run is judged alone (drive.ts Feed), where the pace is the client's own.
    if (driven.drive.exit.stillFed && !env.alone) {
      const { fatal: _notFatal, ...check } = driven.check;
      return notJudgedCheck(check, scenario.id, stillFedNotJudged(boundMs), retries);
    }
    return { ...driven.check, timeline: [...retries, ...driven.check.timeline] };
  }

  /** One run of a client module on a scenario: a session on the mock, the harness's proxy before it, the checks. */
  async function moduleAttempt(scenario: Scenario, env: RunEnv, requirements: string[], boundMs: number): Promise<{ drive: Drive; check: ScenarioCheck }> {
    const { userId, sessionId } = await openSession(env.mockUrl, scenario, env.signal);
    const request = scenarioRequest(scenario, userId, sessionId);
    // The plan is rendered once per streaming mode the client may ask for: the proxy reads it twice a run.
    const plans = new Map<boolean, ReturnType<typeof plannedBytes>>();
    const planOf = (streaming: boolean) => plans.get(streaming) ?? plans.set(streaming, plannedBytes(scenario, userId, sessionId, streaming)).get(streaming)!;
    const heldOpenBytes = (streaming: boolean): number | undefined => {
      const p = planOf(streaming);
      return p.transport === 'hold-open' ? p.chunks.reduce((n, x) => n + x.byteLength, 0) : undefined;
    };
    const writes = (streaming: boolean): Uint8Array[] => planOf(streaming).chunks.filter((c) => c.byteLength > 0);
    const proxy = await startClientProxy({ mockUrl: env.mockUrl, dialect: scenario.dialect, heldOpenBytes, writes, wholeWrites: isLargeEvent(scenario) });
    try {
      const via = moduleRun(sessionId, proxy.url);
      let drive: Drive;
      try { drive = await watchingTheLoop(() => driveClientModule(via.factory, { baseUrl: via.baseUrl, request, windows, boundMs, signal: env.signal, feed: proxy.feed })); } finally { via.unroute(); }
      await proxy.settled(boundMs);
      const served = proxy.runs[0];
      const { kase, untestedWhy } = moduleCase(scenario, requirements, served, windows, () => {
        const planned = plannedBytes(scenario, userId, sessionId);
        return expectedFor(planned.chunks, planned.transport, windows);
      });
      const how = served ? `${served.refused ? 'refused' : `served HTTP ${served.status}`}, streaming ${String(served.streaming)}, ${served.chunks.length} chunk(s), ${served.transport}` : 'no run request reached the server';
      const check = finish(formed(kase), drive, [{ t: 0, kind: 'request', summary: `the client module runs session ${sessionId} of ${scenario.id} against ${scenario.dialect} (the mock behind the harness's proxy): ${how}` }], { transport: served?.transport ?? 'eof', boundMs });
      if (untestedWhy) check.outcomes.push(...requirements.map((id) => untested(id, scenario.id, `${scenario.id}: ${untestedWhy}`)));
      if (!drive.unusable) check.outcomes.push(...checkRequest(scenario.id, request, proxy.journal, scenario.dialect), checkRunCount(scenario.id, proxy.journal, proxy.openAtNext));
      return { drive, check };
    } finally {
      await proxy.close();
    }
  }

  async function runProbe(env: RunEnv): Promise<ScenarioCheck> {
    const outcomes: ScenarioCheck['outcomes'] = [];
    const timeline: TimelineEntry[] = [];
    const server = isCommand ? undefined : await serveCases();
    let fatal: ScenarioCheck['fatal'];
    try {
      for (const c of byteCases) {
        const transport = c.transport ?? 'eof';
        const expected: Expected = caseExpected(c, windows);
        // The harness's wait before the first byte is not the server's silence (docs/client-contract.md "Bounds").
        // Kept in the session form too, where the bytes come without the lead: the windows are the one-shot form's.
        const caseWindows = { ...windows, idleMs: windows.idleMs + leadOf(c) };
        const drivenWindows = isCommand ? caseWindows : windows;
        const once = isCommand
          ? () => driveClientCommand(target.command, { chunks: forStdin(c, lead()), transport, windows: caseWindows, boundMs: boundOf(env), ...(c.answer ? { answer: c.answer } : {}), ...launch() })
          : async () => {
            const via = moduleRun(c.id, `${server?.url}/case/${c.id}`);
            try { return await watchingTheLoop(() => driveClientModule(via.factory, { baseUrl: via.baseUrl, request: caseRequest(c), windows, boundMs: boundOf(env), signal: env.signal })); } finally { via.unroute(); }
          };
        const drive = unstalled(await driveClientUnstalled(once, drivenWindows, env.signal, (ms) => timeline.push(stallNote(ms, `byte case ${c.id}`))), drivenWindows);
        const metWhole = c.requirements.includes('CLI-CHUNK-001') ? ['CLI-EVENT-001'].filter((id) => outcomes.some((o) => o.requirement === id) && outcomes.every((o) => o.requirement !== id || o.status === 'passed')) : [];
        const check = finish(formed({ scenario: `probe:${clientProbeId}`, label: `byte case ${c.id}`, requirements: c.requirements, expected, metWhole }), drive, [], { transport, boundMs: boundOf(env) });
        outcomes.push(...check.outcomes);
        timeline.push({ t: timeline.length, kind: 'note', summary: `byte case ${c.id}: ${drive.records.length} record(s)` }, ...check.timeline.filter((e) => e.kind !== 'event').slice(0, 5));
        fatal ??= check.fatal;
      }
    } finally {
      await server?.close();
    }
    return { outcomes, timeline, ...(fatal ? { fatal } : {}) };
  }

  const formed = (kase: ClientCase): ClientCase => (parsedForm ? { ...kase, form: 'parsed' } : kase);

  function loaded(): ClientFactory {
    if (!factory) throw new Error('the client module was not loaded: the engine calls start() before any scenario');
    return factory;
  }

  const longLived = createClientLongLivedProbe(longLivedDeps({
    target, windows, boundOf, loaded: () => loaded(),
    session: () => ({ ...(pool ? { pool } : {}), startupBoundMs: startup?.boundMs ?? clientStartupProbeMs }),
    ...(options.isolationHistory !== undefined ? { historyMax: options.isolationHistory } : {}),
  }));
  // CLI-MEM-001: one client for thousands of streams (a session process of its own, or ONE object of the module).
  const memory = createClientMemoryProbe(async () => {
    if (!isCommand) return childModuleMemory(target.module, windows);
    return pool ? commandMemory(target.command, openSessionPool({ command: target.command, part: 'client', startupTimeoutMs: startup?.boundMs ?? clientStartupProbeMs, processes: 1, runsPerProcess: memoryLoad.concurrency, killGraceMs: 500 }), windows) : undefined;
  }, options.memoryRuns);
  // CLI-LARGE-002: the same 3 MiB as 32 KB events and as one line, in the client's CPU time against each other.
  const largeEvent = createClientLargeEventProbe(() => (isCommand ? { command: target.command, pool, windows } : { moduleRun, windows }), boundOf);
  const notApplicable: Record<string, string> = isCommand ? { 'CLI-REQ-001': requestUnreachable, 'CLI-REQ-003': requestUnreachable, 'CLI-REQ-004': requestUnreachable } : {};

  return {
    part: 'client',
    async stop() { await pool?.close(); await router?.close(); },
    startups: () => (startup ? [{ part: 'client', instance: 'command (empty input)', boundMs: startup.boundMs, ...(startup.known ? { readyMs: startup.startupMs } : {}), outcome: startup.known ? 'ready' : 'timed-out' }] : []),
    description: isCommand ? `client command \`${target.command}\`` : `client module ${target.module}${target.instance === 'long-lived' ? ' (one client object for every run)' : ''}`,
    applies: (s) => clientApplies(s, includeSlow),
    runScenario,
    // CLI-MEM-001, CLI-ISO-001 and CLI-LARGE-002 only the memory, long-lived and large-event probes judge.
    scenarioRequirements: clientRequirements.map((r) => r.id).filter((id) => id !== clientMemoryId && id !== clientIsolationId && id !== clientLargeEventId),
    // One process per byte case: the measured start-up is added to the engine's bound for each (PartRunner.extraBoundMs).
    // The byte cases mostly wait out idle windows and graces: timed, beside other timed runs only.
    probes: [{ id: clientProbeId, requirements: probeRequirements, run: runProbe, timed: true }, longLived, largeEvent, ...(options.memoryProbe === false ? [] : [memory])],
    // The isolation probe starts a fresh process for each baseline and each order it tries (and its shrink steps).
    extraBoundMs: (jobId) => (jobId === `probe:${clientMemoryProbeId}` ? clientMemoryExtraMs : jobId === `probe:${clientLargeEventProbeId}` ? clientLargeEventExtraMs : isCommand && startup?.known ? (startup.startupMs + startup.slackMs) * (jobId === `probe:${clientProbeId}` ? byteCases.length : jobId === `probe:${clientLongLivedProbeId}` ? isolationCases.length + 12 : 1) : 0),
    notApplicable,
    async start(env) {
      if (isCommand) {
        const protocol = target.protocol ?? 'auto';
        const boundMs = options.startupTimeoutMs ?? clientStartupProbeMs;
        startup = await probeStartup(target.command, boundMs, { ...windowEnv(windows), ...answerEnv() }, undefined, protocol === 'one-shot' ? undefined : { part: 'client' });
        if (protocol === 'session' || (startup.known && startup.session)) {
          pool = openSessionPool({ command: target.command, part: 'client', startupTimeoutMs: boundMs, processes: 2 * Math.max(1, availableParallelism()), killGraceMs: 500 });
        } else {
          notApplicable['CLI-ISO-001'] = clientOneShotIsolation;
          notApplicable['CLI-MEM-001'] = clientOneShotMemory;
          notApplicable[clientLargeEventId] = clientOneShotLargeEvent;
        }
        return;
      }
      void env;
      factory = await loadClientModule(target.module);
      parsedForm = await declaresParsedForm(target.module);
      if (parsedForm) Object.assign(notApplicable, parsedFormBlind);
      if (target.instance === 'long-lived') {
        router = await startClientRouter();
        sharedClient = factory({ baseUrl: router.url, ...windows });
      }
    },
  };
}

/**
 * The case a module client is judged on: the stream its server served for its request. A body
 * the server refused is an `http-error` end with no stream, so the scenario's framing requirements
 * are untested there (the request's own finding says why). No run request at all: the stream the
 * scenario plans for the request it was given.
 */
function moduleCase(scenario: Scenario, requirements: string[], served: ServedRun | undefined, windows: ClientWindows, planned: () => Expected): { kase: ClientCase; untestedWhy?: string } {
  const base = { scenario: scenario.id, label: scenario.id };
  if (!served) return { kase: { ...base, requirements, expected: planned() } };
  if (served.status !== 200) {
    const body = Buffer.concat(served.chunks.map((x) => x.bytes)).toString('utf8');
    // The scenario's own answer (an `http` scenario): CLI-HTTP-001 is what it exercises.
    if (scenario.upstream.kind === 'http' && !served.refused) return { kase: { ...base, requirements, expected: httpErrorExpected(served.status, body) } };
    return { kase: { ...base, requirements: [], expected: httpErrorExpected(served.status, body) }, untestedWhy: `the server answered the client's request with HTTP ${served.status}, so there was no stream to read (CLI-REQ-003 says why)` };
  }
  return { kase: { ...base, requirements, expected: expectedFor(served.chunks.map((x) => x.bytes), served.transport, windows) } };
}

type StreamEnd = { transport: 'eof' | 'reset' | 'hold-open'; boundMs: number };

/**
 * Whether the process was working or waiting when the bound ran out: a reader whose cost grows with
 * the square of a long line (seconds of CPU for a 3 MB line in 1 KB pieces) is still working, and
 * "hung" alone points at a lost end of input instead.
 */
const stillWorking = (e: DriveExit): boolean => e.timedOut && e.workAtBound !== undefined && e.workAtBound.overMs > 0 && e.workAtBound.workMs >= e.workAtBound.overMs / 2;

function working(e: DriveExit): string {
  const w = e.workAtBound;
  if (!w || w.overMs <= 0) return '';
  const busy = stillWorking(e);
  return `; its process ran or was ready to run ${w.workMs} ms of the last ${w.overMs} ms: ${busy ? 'it was still working, not waiting on input (is its reading of this body too slow: a buffer searched from its start at every piece?)' : 'it was waiting'}`;
}

/** Whether, and how, the client hung on this stream (docs/client-contract.md "Bounds"). */
function hangOf(drive: Drive, stream: StreamEnd): string | undefined {
  const endAt = drive.records.findIndex((r) => isEndValue(r.value));
  const e = drive.exit;
  if (endAt < 0 && e.timedOut) {
    return `it reported no end record within the bound (${stream.boundMs} ms after ${e.stdinClosedAt !== undefined ? 'its input ended' : 'run() was called'}${stream.transport === 'hold-open' ? '; the connection was held open' : ''}${e.boundExtendedMs ? `; moved ${e.boundExtendedMs} ms for CPU time the machine withheld` : ''}), and the harness ${e.stdinClosedAt !== undefined ? 'stopped it' : 'aborted the run'} (${drive.records.length} record(s) before)${working(e)}`;
  }
  // Held open: only the client's own rule can end the run; an end written after the harness closed
  // stdin is the harness's doing, whatever the client names it.
  const closed = e.linesBeforeStdinClosed;
  const endLine = endAt >= 0 ? drive.records[endAt]?.line : undefined;
  if (stream.transport === 'hold-open' && closed !== undefined && endLine !== undefined && endLine > closed) {
    return `the connection was held open and it wrote no end record before the harness closed its stdin at ${e.stdinClosedAt ?? '?'} ms (idle + grace + 1 s after the last byte); it ended only then, as ${JSON.stringify((drive.records[endAt]?.value as { end?: unknown }).end)}`;
  }
  return undefined;
}

/** The outcomes and the timeline of one stream, and whether the client is unusable (fail fast). */
function finish(kase: ClientCase, drive: Drive, timeline: TimelineEntry[], stream: StreamEnd): ScenarioCheck {
  const hang = hangOf(drive, stream);
  const outcomes = checkClient(kase, hang !== undefined ? { ...drive, hang, ...(stillWorking(drive.exit) ? { overran: true as const } : {}) } : drive);
  for (const r of drive.records.slice(0, 200)) timeline.push({ t: r.line, kind: 'event', summary: `record ${r.line}: ${clip(JSON.stringify(r.value) ?? '')}` });
  for (const p of drive.problems.slice(0, 20)) timeline.push({ t: p.line, kind: 'note', summary: `line ${p.line} is not a record: ${clip(p.reason)}` });
  if (drive.exit.stderr.trim()) timeline.push({ t: drive.durationMs, kind: 'stderr', summary: clip(drive.exit.stderr.trim(), 400) });
  const e = drive.exit;
  if (stream.transport === 'hold-open' && e.stdinClosedAt !== undefined) {
    timeline.push({ t: e.stdinClosedAt, kind: 'note', summary: `the harness closed stdin at ${e.stdinClosedAt} ms: the held-open connection's wait ended (${e.linesBeforeStdinClosed ?? 0} line(s) written by then)` });
  }
  timeline.push({ t: drive.durationMs, kind: 'exit', summary: e.spawnError ? `not started: ${e.spawnError}` : e.threw ? `threw: ${clip(e.threw)}` : e.timedOut ? `hung: stopped at the bound (${stream.boundMs} ms)` : e.lingered ? `did not exit within ${exitGraceMs} ms of its end record and the end of its input (docs/client-contract.md: "After the end record, exit 0"); stopped with SIGTERM` : e.signal ? `ended by ${e.signal}` : `exit ${String(e.exitCode)}` });
  const hangs = hang !== undefined && e.timedOut;
  return { outcomes, timeline, ...(fatalOf(drive, hangs) ? { fatal: fatalOf(drive, hangs) } : {}) };
}

/** What makes a client unusable whatever the stream (the engine's fail fast); a wrong record is a finding, never fatal. */
function fatalOf(drive: Drive, hangs: boolean): { signature: string; reason: string } | undefined {
  const e = drive.exit;
  if (e.spawnError) return { signature: 'spawn', reason: `could not be started (${clip(e.spawnError)})` };
  if (hangs) return { signature: 'hangs', reason: 'hangs: it reported no end record within the bound after its input ended' };
  if (drive.records.length > 0) return undefined;
  if (e.threw) return { signature: 'throws', reason: `threw before reporting a record (${clip(e.threw)})` };
  if (e.exitCode !== 0 && e.exitCode !== null) return { signature: `exit ${e.exitCode}`, reason: `exited with code ${e.exitCode} before reporting a record${e.stderr.trim() ? ` (stderr: ${clip(e.stderr.trim().split('\n').pop() ?? '')})` : ''}` };
  if (drive.problems.length > 0) return { signature: 'garbage', reason: `wrote only lines that are not records (first: ${clip(drive.problems[0]?.reason ?? '')})` };
  return undefined;
}
