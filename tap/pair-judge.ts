/**
 * `tap --pair`'s judgement of one matched pair (tap/pair.ts matches them): the front run (what the
 * gateway's client got) and the back run(s) (what the gateway asked of the ADK server and got),
 * judged with the certification's gateway checks (harness/checks/gateway/). The module comment of
 * tap/pair.ts lists the requirements and what each compares.
 */
import { checkForwarding } from '../harness/checks/gateway/forwarding.ts';
import { checkPassthrough } from '../harness/checks/gateway/passthrough.ts';
import { checkTerminalFrame, type TerminalKind } from '../harness/checks/gateway/terminal-frame.ts';
import { checkFlushing, checkSilence, silenceMinMs } from '../harness/checks/gateway/timing.ts';
import { checkUpstreamHeaders } from '../harness/checks/gateway/upstream-headers.ts';
import { commonPrefix, fail, finding, judge, pass, showBytes, type Arrival, type Exchange, type ExchangeEnding, type ScriptedWait, type StreamRun, type UpstreamRequest } from '../harness/checks/gateway/types.ts';
import type { CheckOutcome, Finding } from '../harness/model.ts';
import { readSse } from '../core/sse.ts';
import { modelDump } from '../reference-impl/gateway/run-request.ts';
import type { RunEnding, TapRun, TapRunSummary } from './types.ts';

/** One run as a pair keeps it: its request, the bytes it streamed (bounded) and their arrival times. */
export type Side = {
  run: TapRun;
  key?: string;
  json?: Record<string, unknown>;
  body?: Uint8Array;
  bodyTruncated: boolean;
  chunks: Buffer[];
  bytes: number;
  over: boolean;
  arrivals: Arrival[];
  /** The tap's event loop's cumulative active time (ms) at each arrival: what of a gap was the tap's own work. */
  busy: number[];
  summary?: TapRunSummary;
  endedAt?: number;
  /** The event loop's cumulative active time (ms) when the run ended. */
  endedBusy?: number;
};

/** Idle time (ms) of the tap's loop after a back chunk before the client left with less, that makes the bytes held back. */
export const leaveHeldMs = 500;

/**
 * `since`: when the run started, on the tap's monotonic clock (performance.now(), the arrivals' clock).
 * The run's `startedAt` is the wall clock, whole milliseconds, which may be stepped or slewed apart
 * from it: the judgement "given up before the total" has no margin, and tap/pair.test.ts read a total
 * timeout fired at 1,500 ms as given up before it in six runs of six on 2026-12-01 (not reproduced
 * after; the two clocks drifted 1 ms in 12 s when measured).
 */
export type Front = Side & { backs: Back[]; timer?: ReturnType<typeof setTimeout>; judged: boolean; since: number };
export type Back = Side & { front?: Front; since: number };

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const exchangeEnding: Record<RunEnding, ExchangeEnding> = { eof: 'complete', 'upstream-cut': 'broken', 'client-closed': 'stopped', stopped: 'stopped', 'upstream-failed': 'connect-failed' };

export function gatewayFrameKind(data: string): TerminalKind | undefined {
  try {
    const json = JSON.parse(data) as unknown;
    if (!isRecord(json)) return undefined;
    if (json.error_code === 'TIMEOUT') return 'timeout';
    if (Object.hasOwn(json, 'status_code')) return 'status';
    if (Object.hasOwn(json, 'error_code')) return 'stream-error';
  } catch { /* not a gateway frame */ }
  return undefined;
}

export type PairJudgeContext = {
  /** How long the back's request may stay open after the client left (GW-ABORT-001/002). */
  abortMs: number;
  /** How long a front run waited for its back run. */
  matchWaitMs: number;
  /** The gateway's own host:port: an upstream Host equal to it was copied from the client (GW-FWD-002). */
  gatewayHost: string;
  /** The gateway's total timeout (seed 004: 300 s): a give-up at or after it is the total's, not a read timeout (GW-TIMEOUT-002). */
  gatewayTimeoutMs: number;
};

/** The outcomes, and whether the gateway streamed with no upstream request, or the pair was too long to compare. */
export type PairJudgement = { outcomes: CheckOutcome[]; noUpstream: boolean; overLimit: boolean };

export function judgePair(front: Front, ctx: PairJudgeContext): PairJudgement {
  const summary = front.summary as TapRunSummary;
  const id = front.run.name;
  const path = front.run.url.split('?')[0] ?? '';
  const endpoint = (path === '/run_sse_enhanced' ? '/run_sse_enhanced' : '/run_sse') as StreamRun['endpoint'];
  const status = summary.status;
  const back = front.backs[0];
  const out: CheckOutcome[] = [];
  let noUpstream = false;
  let overLimit = false;
  const done = (): PairJudgement => ({ outcomes: out, noUpstream, overLimit });

  // GW-REQ-002: what the gateway refuses, or what is not a run request, never reaches the upstream.
  const invalid = summary.judged.get('CLI-REQ-003')?.some((f) => f.code === 'body-schema' || f.code === 'body-not-json') === true;
  const refused = status !== undefined && status >= 400 && status < 500;
  if (invalid || refused) {
    if (back) {
      const why = refused ? `the gateway refused the request with HTTP ${status}` : 'the request body is not a valid RunAgentRequest (CLI-REQ-003)';
      out.push(fail('GW-REQ-002', id, [finding('GW-REQ-002', refused ? 'refused-but-forwarded' : 'invalid-body-forwarded', 'upstream', `${why}, yet the back tap received it as ${back.run.name} (${back.run.method} ${back.run.url}): an invalid request must not reach the ADK server`, 'no upstream request', `${back.run.method} ${back.run.url}`)]));
    } else if (invalid) {
      out.push(pass('GW-REQ-002', id));
    }
    return done();
  }

  const frontBody = Buffer.concat(front.chunks);
  const exchange: Exchange = {
    status,
    rawHeaders: (front.run.response?.headers ?? []).map(([n, v]) => [n, v] as [string, string]),
    body: frontBody,
    arrivals: front.arrivals,
    ending: exchangeEnding[summary.ending],
    ...(summary.error !== undefined ? { error: summary.error } : {}),
    durationMs: summary.durationMs,
  };

  if (!back) {
    if (status !== 200 || front.key === undefined || summary.ending === 'upstream-failed') return done();
    // The gateway answered without an upstream request: fine when its only event is its own error
    // frame (it could not reach the back tap); otherwise the stream came from somewhere else.
    const frames = readSse(frontBody).frames;
    if (frames.length > 0 && frames.every((f) => gatewayFrameKind(f.data) !== undefined)) return done();
    if (frames.length === 0 && summary.ending !== 'eof') return done();
    noUpstream = true;
    out.push(fail('GW-PASS-002', id, [finding('GW-PASS-002', 'no-upstream-request', 'upstream', `the gateway streamed ${frames.length} events for ${front.run.name} but the back tap received no run request for its session within ${ctx.matchWaitMs} ms: either the gateway answered from elsewhere, or its ADK_UPSTREAM_URL does not point at the back tap`, `POST ${endpoint} at the back tap`, null)]));
    return done();
  }

  // GW-PASS-002 (GW-ENH-001): the forwarded request.
  const journal: UpstreamRequest[] = front.backs.filter((b) => b.body !== undefined && !b.bodyTruncated).map((b) => {
    const headers: Record<string, string[]> = {};
    for (const [n, v] of b.run.requestHeaders) (headers[n.toLowerCase()] ??= []).push(v);
    return { method: b.run.method, url: b.run.url, body: Buffer.from(b.body as Uint8Array).toString('utf8'), headers };
  });
  if (front.json && journal.length === front.backs.length) {
    // Seed 004 forwards request.model_dump(by_alias=True, exclude_none=True): the client's JSON or that dump are both faithful.
    let sent: Record<string, unknown> = front.json;
    try {
      sent = JSON.parse(modelDump(front.json)) as Record<string, unknown>;
      const first = JSON.parse(journal[0]?.body ?? '') as unknown;
      if (JSON.stringify(canonical(first)) === JSON.stringify(canonical(front.json))) sent = front.json;
    } catch { /* checkForwarding reports a body that is not JSON */ }
    out.push(...checkForwarding({ scenario: id, endpoint, sent, exchange, journal }));
  }

  // GW-FWD-003: the client's credentials stay at the gateway; GW-FWD-002: the Host names the upstream.
  const clientHeaders: Record<string, string> = {};
  for (const [n, v] of front.run.requestHeaders) { const k = n.toLowerCase(); clientHeaders[k] = clientHeaders[k] === undefined ? v : `${clientHeaders[k]}; ${v}`; }
  const hostsOf = (b: Back) => b.run.requestHeaders.filter(([n]) => n.toLowerCase() === 'host').map(([, v]) => v);
  const ownHost = hostsOf(back)[0] ?? '';
  out.push(...checkUpstreamHeaders({ scenario: id, journal, clientHeaders, upstreamHost: ownHost }).filter((o) => o.requirement === 'GW-FWD-003'));
  const hostFindings: Finding[] = [];
  for (const b of front.backs) {
    const hosts = hostsOf(b);
    if (hosts.length !== 1) hostFindings.push(finding('GW-FWD-002', 'wrong-upstream-host', 'upstream:header:host', `the upstream request has ${hosts.length} Host headers; it has one, the upstream's own host:port`, 'one Host header', hosts.join(', ') || null));
    else if (hosts[0]?.toLowerCase() === ctx.gatewayHost) hostFindings.push(finding('GW-FWD-002', 'wrong-upstream-host', 'upstream:header:host', `the upstream request's Host header is '${hosts[0]}', the gateway's own (the gateway copied the client's Host); it names the upstream, as ADK_UPSTREAM_URL gives it`, 'the upstream\'s host:port', hosts[0]));
  }
  out.push(judge('GW-FWD-002', id, hostFindings.slice(0, 1)));

  // The stream: bytes, terminal frames, flushing, aborts.
  if (front.over || back.over) { overLimit = true; return done(); }
  const backBody = Buffer.concat(back.chunks);
  const backSummary = back.summary;
  const backEnding: RunEnding | 'open' = backSummary?.ending ?? 'open';
  const backStatus = backSummary?.status ?? back.run.response?.status ?? (backEnding === 'upstream-failed' ? 502 : undefined);
  const frontEnding = summary.ending;
  const backClosedInTime = backSummary !== undefined && back.endedAt !== undefined && front.endedAt !== undefined && back.endedAt - front.endedAt <= ctx.abortMs;
  const backOpenAtFrontEnd = back.endedAt === undefined || (front.endedAt !== undefined && back.endedAt > front.endedAt);
  const waits: ScriptedWait[] = [];
  for (let i = 1; i < back.arrivals.length; i++) {
    const a = back.arrivals[i - 1] as Arrival;
    const b = back.arrivals[i] as Arrival;
    // The upstream's pause is at least the time the tap's loop sat idle between the two chunks (an
    // idle loop reads a chunk as soon as it arrives); time it spent working (judging, a first run's
    // compiles, the other tap of the pair) may have kept a chunk waiting. Counting only idle time,
    // the tap's own stall never looks like a pause the gateway held bytes across.
    waits.push({ offset: a.end, ms: Math.max(0, idleBetween(a.t, back.busy[i - 1], b.t, back.busy[i])) });
  }
  const script = (end: 'eof' | 'hold-open' | 'reset'): StreamRun => ({ scenario: id, endpoint, sent: front.json ?? {}, upstream: { status: backStatus ?? 0, bytes: backBody, end, waits }, exchange, journal });
  const streams = backStatus !== undefined && backStatus >= 200 && backStatus <= 299;
  const passReq = endpoint === '/run_sse_enhanced' ? 'GW-ENH-001' : 'GW-PASS-001';

  if (frontEnding === 'client-closed' || frontEnding === 'stopped') {
    // The client saw part of the stream: what it got is the upstream's bytes so far, unchanged.
    if (streams && frontBody.length > 0) {
      const same = commonPrefix(frontBody, backBody);
      if (same < Math.min(frontBody.length, backBody.length)) out.push(fail(passReq, id, [finding(passReq, 'bytes-changed', `byte ${same}`, `the client's byte ${same} differs from the upstream's: the gateway changed the stream`, showBytes(backBody.subarray(Math.max(0, same - 20), same + 60)), showBytes(frontBody.subarray(Math.max(0, same - 20), same + 60)))]));
      else out.push(pass(passReq, id));
      out.push(...checkFlushing(id, script('hold-open').upstream, exchange));
    }
    // A stream held open: what the upstream sent long before the client left must have reached it
    // (a gateway that buffers until the end gives the client nothing on a stream that never ends).
    const held = streams ? heldAtLeave(front, back, frontBody.length) : undefined;
    if (held) out.push(fail('GW-PASS-005', id, [finding('GW-PASS-005', 'held-back', `byte ${frontBody.length}`, `the client left ${front.run.name} with ${frontBody.length} bytes, yet the upstream had sent ${held.bytes} bytes ${held.idleMs} ms before that while the tap sat idle: the gateway held them back`, `at least ${held.bytes} bytes`, `${frontBody.length} bytes`)]));
    if (frontEnding === 'client-closed' && backOpenAtFrontEnd && backEnding !== 'stopped') {
      out.push(backClosedInTime ? pass('GW-ABORT-001', id) : fail('GW-ABORT-001', id, [finding('GW-ABORT-001', 'upstream-not-aborted', 'upstream', `the client left ${front.run.name} after ${frontBody.length} bytes, but ${ctx.abortMs} ms later the gateway still held its upstream request (${back.run.name}) open: an abandoned run keeps the ADK server and its model busy`, `the upstream request closed within ${ctx.abortMs} ms`, 'still open')]));
    }
    return done();
  }
  if (frontEnding !== 'eof' && frontEnding !== 'upstream-cut') return done();

  if (!streams) {
    if (backStatus !== undefined) out.push(...checkTerminalFrame({ scenario: id, exchange, prefix: new Uint8Array(), kind: 'status', upstreamStatus: backStatus, cause: `the upstream answered HTTP ${backStatus} (${back.run.name})` }));
    return done();
  }
  out.push(...checkFlushing(id, script('eof').upstream, exchange));
  if (backEnding === 'eof') {
    out.push(...checkPassthrough(script('eof')));
    // A silence of the upstream's that the stream outlived passes GW-TIMEOUT-002 (arrival times are the
    // tap's clock, not since the request: the total is judged below, where a give-up could be its doing).
    out.push(...checkSilence(id, script('eof').upstream, exchange));
    return done();
  }
  if (backEnding === 'upstream-cut') {
    out.push(...checkPassthrough(script('reset')));
    out.push(...checkTerminalFrame({ scenario: id, exchange, prefix: backBody, kind: 'stream-error', cause: `the upstream broke the connection after ${backBody.length} bytes (${back.run.name})` }));
    return done();
  }
  if (backEnding === 'stopped') return done();
  // The gateway ended the client stream while its upstream request was open (then closed it, or not).
  const last = readSse(frontBody).frames.at(-1);
  const kind = last ? gatewayFrameKind(last.data) : undefined;
  const gaveUp = gaveUpInSilence(front, back, kind !== undefined, ctx.gatewayTimeoutMs);
  if (gaveUp) out.push(fail('GW-TIMEOUT-002', id, [finding('GW-TIMEOUT-002', kind === undefined ? 'ended-during-silence' : 'error-frame-during-silence', `byte ${backBody.length}`, `the gateway ${kind === undefined ? 'ended the client\'s stream' : `ended the client's stream with a ${kind === 'timeout' ? 'TIMEOUT' : 'STREAM_ERROR'} frame`} and closed its upstream request (${back.run.name}) ${gaveUp.silenceMs} ms into a silence of the upstream's, ${gaveUp.elapsedMs} ms after the request, well before its ${ctx.gatewayTimeoutMs} ms total: a read timeout killed a healthy stream (seed 004: "300s timeout with no read timeout (allows LLM processing gaps)")`, `the upstream's bytes after the silence, or the total timeout at ${ctx.gatewayTimeoutMs} ms`, `${kind ?? 'the end'} after ${gaveUp.silenceMs} ms of upstream silence`)]));
  if (kind === 'timeout' || kind === 'stream-error') {
    out.push(...checkPassthrough(script('reset')));
    out.push(...checkTerminalFrame({ scenario: id, exchange, prefix: backBody, kind, cause: kind === 'timeout' ? 'the gateway\'s total timeout fired' : `the gateway gave up its upstream request (${back.run.name})` }));
    if (kind === 'timeout') out.push(backClosedInTime ? pass('GW-ABORT-002', id) : fail('GW-ABORT-002', id, [finding('GW-ABORT-002', 'upstream-open-after-timeout', 'upstream', `the gateway's total timeout ended ${front.run.name}, but ${ctx.abortMs} ms later its upstream request (${back.run.name}) was still open`, 'the upstream request closed', 'still open')]));
    return done();
  }
  if (frontEnding === 'eof') {
    out.push(fail(passReq, id, [finding(passReq, 'stream-ended-early', `byte ${frontBody.length}`, `the gateway ended the client's stream after ${frontBody.length} bytes while its upstream request (${back.run.name}) had not ended${backEnding === 'open' ? '' : ' (the gateway then closed it)'}, with no terminal frame: the upstream's remaining bytes never reach the client and nothing says why`, 'the upstream\'s bytes to its end, or a terminal frame', `${frontBody.length} bytes, then the end`)]));
  }
  return done();
}

/** A JSON value with its object keys sorted, so two values compare by their text. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isRecord(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
  return value;
}

/**
 * GW-TIMEOUT-002: the gateway ended the client's stream (with a frame or without) while its upstream
 * request was open and had been silent at least `silenceMinMs` of idle loop time, before the total
 * timeout could have fired (the front run opens when the request went up to the gateway, before the
 * gateway's own clock starts, so a give-up before `totalMs` on the tap's clock is before the total).
 * Undefined when the upstream never sent a byte (nothing shows it was streaming) or the silence was short.
 */
function gaveUpInSilence(front: Front, back: Back, framed: boolean, totalMs: number): { silenceMs: number; elapsedMs: number } | undefined {
  const k = back.arrivals.length - 1;
  const last = back.arrivals[k];
  if (!last || front.endedAt === undefined) return undefined;
  // When the gateway gave up: the arrival of its frame (the client's last bytes), or the stream's end.
  const frame = framed ? front.arrivals.at(-1) : undefined;
  const at = frame ? frame.t : front.endedAt;
  const atBusy = frame ? front.busy.at(-1) : front.endedBusy;
  const silenceMs = Math.round(idleBetween(last.t, back.busy[k], at, atBusy));
  const elapsedMs = Math.round(at - front.since);
  if (silenceMs < silenceMinMs || elapsedMs >= totalMs) return undefined;
  return { silenceMs, elapsedMs };
}

/** Time (ms) the tap's event loop sat idle between two moments, given its cumulative active time at each. */
function idleBetween(t0: number, busy0: number | undefined, t1: number, busy1: number | undefined): number {
  return t1 - t0 - ((busy1 ?? 0) - (busy0 ?? 0));
}

/**
 * The bytes the back had received at least `leaveHeldMs` of idle loop time before the front ended,
 * when the client had fewer: the gateway sat on them. Idle time only, as for the pauses above.
 */
function heldAtLeave(front: Front, back: Back, clientBytes: number): { bytes: number; idleMs: number } | undefined {
  if (front.endedAt === undefined || front.endedBusy === undefined) return undefined;
  for (let k = back.arrivals.length - 1; k >= 0; k--) {
    const a = back.arrivals[k] as Arrival;
    const idle = idleBetween(a.t, back.busy[k], front.endedAt, front.endedBusy);
    if (idle < leaveHeldMs) continue;
    return clientBytes < a.end ? { bytes: a.end, idleMs: Math.round(idle) } : undefined;
  }
  return undefined;
}
