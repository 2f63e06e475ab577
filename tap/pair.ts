/**
 * `tap --pair`: two taps around a gateway. The front tap (role gateway) sits between the client
 * and the gateway; the back tap (role adk) between the gateway and the ADK server (the gateway's
 * ADK_UPSTREAM_URL points at it). Each tap judges its own stream as usual; this module is an
 * observer on both that matches each front run with the run the gateway made for it upstream and
 * judges the pair with the certification's gateway checks (harness/checks/gateway/), on traffic
 * nobody scripted:
 *
 * - GW-PASS-001 (GW-ENH-001 on /run_sse_enhanced), GW-PASS-004: checkPassthrough with the back
 *   run's bytes as the upstream's script and the front run's bytes and arrival times as the
 *   client's exchange: zero mutation, nothing added after a normal upstream end.
 * - GW-PASS-002: checkForwarding with the back run as the mock's journal: one upstream request,
 *   same path, body equal as JSON to the client's (or to seed 004's model_dump of it).
 * - GW-FWD-001: checkUpstreamHeaders: no client credential in the upstream request's headers.
 *   GW-FWD-002: the upstream request's Host is not the gateway's own (a copied client Host).
 * - GW-ERR-001..005, GW-TIMEOUT-001: checkTerminalFrame when the upstream failed (an HTTP error, a
 *   cut, a timeout the gateway ended): one terminal frame of the right kind, after every event the
 *   back received, a broken event closed first.
 * - GW-PASS-005: checkFlushing, each pause of 200 ms or more between the back's chunks against the
 *   front's arrival times (the bytes before it reach the client at least half the pause earlier).
 * - GW-ABORT-001 / GW-ABORT-002: a client that left the front (or a TIMEOUT frame that ended it)
 *   while the back's request was open: the back's request closes within `abortMs` (2 s).
 * - GW-REQ-002: a request the gateway refused (4xx) or that the front judged invalid
 *   (CLI-REQ-002) reached no upstream.
 *
 * Matching: by the run request's appName, userId and sessionId (snake_case accepted) and arrival
 * order: a back run takes the oldest unmatched front run with its key; a back run arriving while
 * that front run is still open and already paired is a repeat (GW-PASS-002). The pair's findings
 * go into the front run: its end is held back (at most `abortMs` or `matchWaitMs`) until the back
 * run ended, then the front's downstream observers (the report, the printer, --save-failing, the
 * live outputs) get the pair's findings and the run's end with them. State is bounded: per open
 * pair each side's body up to `maxPairBytes` (a longer run's stream checks are skipped and
 * counted), unmatched back runs at most `maxPending` and `matchWaitMs` (then evicted, counted).
 */
import { checkForwarding } from '../harness/checks/gateway/forwarding.ts';
import { checkPassthrough } from '../harness/checks/gateway/passthrough.ts';
import { checkTerminalFrame, type TerminalKind } from '../harness/checks/gateway/terminal-frame.ts';
import { checkFlushing } from '../harness/checks/gateway/timing.ts';
import { checkUpstreamHeaders } from '../harness/checks/gateway/upstream-headers.ts';
import { commonPrefix, fail, finding, judge, pass, showBytes, type Arrival, type Exchange, type ExchangeEnding, type ScriptedWait, type StreamRun, type UpstreamRequest } from '../harness/checks/gateway/types.ts';
import type { CheckOutcome, Finding } from '../harness/model.ts';
import { readSse } from '../core/sse.ts';
import { modelDump } from '../reference-impl/gateway/run-request.ts';
import type { RunEnding, TapObserver, TapRun, TapRunSummary } from './types.ts';

/** The requirements a pair judges besides what each tap judges alone. */
export const pairRequirements: readonly string[] = [
  'GW-PASS-001', 'GW-PASS-002', 'GW-PASS-004', 'GW-PASS-005', 'GW-ENH-001', 'GW-FWD-001', 'GW-FWD-002',
  'GW-ERR-001', 'GW-ERR-002', 'GW-ERR-003', 'GW-ERR-004', 'GW-ERR-005', 'GW-TIMEOUT-001', 'GW-ABORT-001', 'GW-ABORT-002', 'GW-REQ-002',
];

export type TapPairOptions = {
  /** The gateway's base URL (the front tap's upstream): its host is the Host the front tap sends it. */
  gateway: string;
  /** Where front runs go once their pair is judged (the report, the printer, --save-failing, live outputs). Not closed here. */
  downstream: readonly TapObserver[];
  /** How long a back request may stay open after the front's client left (GW-ABORT-001), in ms. */
  abortMs?: number;
  /** How long a 200 front run waits for its back run, and an unmatched back run for its front run, in ms. */
  matchWaitMs?: number;
  /** Bytes of each side's body kept per pair; a longer run's stream checks are skipped (counted). */
  maxPairBytes?: number;
  /** Unmatched back runs kept at once (the oldest is evicted, counted). */
  maxPending?: number;
  onObserverError?: (callback: string, error: unknown) => void;
};

export type TapPairStats = {
  /** Front runs judged, and of those paired with a back run. */
  fronts: number;
  paired: number;
  /** 200 front streams with no back run within matchWaitMs. */
  frontWithoutBack: number;
  /** Back runs no front run claimed (another client of the gateway, or a run the front never saw), and those evicted at the bound. */
  backWithoutFront: number;
  evicted: number;
  /** Pairs whose stream checks were skipped: a side over maxPairBytes. */
  overLimit: number;
};

export type TapPair = {
  front: TapObserver;
  back: TapObserver;
  /** The back run paired with a front run (its name), while the front run's end is being told. */
  backOf: (front: TapRun) => string | undefined;
  stats: () => TapPairStats;
  /** Front runs whose end is held back for their pair. */
  pending: () => number;
  /** Judge every held front run with what is known, and stop the timers. */
  close: () => void;
};

type Side = {
  run: TapRun;
  key?: string;
  json?: Record<string, unknown>;
  body?: Uint8Array;
  bodyTruncated: boolean;
  chunks: Buffer[];
  bytes: number;
  over: boolean;
  arrivals: Arrival[];
  summary?: TapRunSummary;
  endedAt?: number;
};

type Front = Side & { backs: Back[]; timer?: ReturnType<typeof setTimeout>; judged: boolean };
type Back = Side & { front?: Front; since: number };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const runPaths = new Set(['/run_sse', '/run_sse_enhanced']);

/** The run's key: appName, userId and sessionId of its JSON body (camelCase or snake_case). */
export function runKey(body: Uint8Array): { key: string; json: Record<string, unknown> } | undefined {
  let json: unknown;
  try { json = JSON.parse(Buffer.from(body).toString('utf8')); } catch { return undefined; }
  if (!isRecord(json)) return undefined;
  const field = (camel: string, snake: string) => (typeof json[camel] === 'string' ? json[camel] : typeof json[snake] === 'string' ? json[snake] : undefined) as string | undefined;
  const app = field('appName', 'app_name');
  const user = field('userId', 'user_id');
  const session = field('sessionId', 'session_id');
  if (app === undefined || user === undefined || session === undefined) return undefined;
  return { key: `${app}\u0000${user}\u0000${session}`, json };
}

const exchangeEnding: Record<RunEnding, ExchangeEnding> = { eof: 'complete', 'upstream-cut': 'broken', 'client-closed': 'stopped', stopped: 'stopped', 'upstream-failed': 'connect-failed' };

function gatewayFrameKind(data: string): TerminalKind | undefined {
  try {
    const json = JSON.parse(data) as unknown;
    if (!isRecord(json)) return undefined;
    if (json.error_code === 'TIMEOUT') return 'timeout';
    if (Object.hasOwn(json, 'status_code')) return 'status';
    if (Object.hasOwn(json, 'error_code')) return 'stream-error';
  } catch { /* not a gateway frame */ }
  return undefined;
}

export function createTapPair(options: TapPairOptions): TapPair {
  const abortMs = options.abortMs ?? 2000;
  const matchWaitMs = options.matchWaitMs ?? 2000;
  const maxPairBytes = options.maxPairBytes ?? 4 * 1024 * 1024;
  const maxPending = options.maxPending ?? 1024;
  const gatewayHost = new URL(options.gateway).host.toLowerCase();
  const fronts = new Map<number, Front>();
  const backs = new Map<number, Back>();
  const unmatchedFront = new Map<string, Front[]>();
  const unmatchedBack: Back[] = [];
  const backNames = new WeakMap<TapRun, string>();
  const stats: TapPairStats = { fronts: 0, paired: 0, frontWithoutBack: 0, backWithoutFront: 0, evicted: 0, overLimit: 0 };
  let closed = false;

  function tell<K extends keyof TapObserver>(callback: K, ...args: Parameters<NonNullable<TapObserver[K]>>): void {
    for (const o of options.downstream) {
      const fn = o[callback] as ((...a: unknown[]) => unknown) | undefined;
      if (!fn) continue;
      try { fn.apply(o, args); } catch (error) { options.onObserverError?.(callback, error); }
    }
  }

  const side = (run: TapRun): Side => ({ run, bodyTruncated: false, chunks: [], bytes: 0, over: false, arrivals: [] });
  function keepChunk(s: Side, chunk: Uint8Array): void {
    s.bytes += chunk.length;
    if (s.over) return;
    if (s.bytes > maxPairBytes) { s.over = true; s.chunks = []; s.arrivals = []; return; }
    s.chunks.push(Buffer.from(chunk));
    s.arrivals.push({ t: performance.now(), end: s.bytes });
  }
  function keepBody(s: Side, body: Uint8Array, truncated: boolean): void {
    s.body = new Uint8Array(body);
    s.bodyTruncated = truncated;
    if (truncated) return;
    const k = runKey(body);
    if (k) { s.key = k.key; s.json = k.json; }
  }

  function match(front: Front, back: Back): void {
    front.backs.push(back);
    back.front = front;
  }

  function dropUnmatchedFront(front: Front): void {
    if (front.key === undefined) return;
    const list = unmatchedFront.get(front.key);
    if (!list) return;
    const i = list.indexOf(front);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) unmatchedFront.delete(front.key);
  }

  function evictBacks(now: number): void {
    while (unmatchedBack.length > 0) {
      const oldest = unmatchedBack[0] as Back;
      const full = unmatchedBack.length > maxPending;
      if (!full && now - oldest.since < matchWaitMs) break;
      unmatchedBack.shift();
      if (full) stats.evicted++;
      stats.backWithoutFront++;
      if (oldest.summary) backs.delete(oldest.run.seq);
    }
  }

  /** Judge the front run now, or wait for its back run (bounded). */
  function settle(front: Front): void {
    if (front.judged || !front.summary) return;
    const back = front.backs[0];
    if (front.timer !== undefined) { clearTimeout(front.timer); front.timer = undefined; }
    if (!back) {
      // A refusal, a run the gateway could not serve, or no stream at all: nothing upstream to wait for.
      const streamed = front.summary.status === 200 && front.key !== undefined && front.summary.ending !== 'upstream-failed';
      if (!streamed || closed || performance.now() - (front.endedAt ?? 0) >= matchWaitMs) { finish(front); return; }
      front.timer = setTimeout(() => { front.timer = undefined; finish(front); }, matchWaitMs);
      return;
    }
    if (back.summary || closed) { finish(front); return; }
    front.timer = setTimeout(() => { front.timer = undefined; finish(front); }, abortMs);
  }

  function finish(front: Front): void {
    if (front.judged || !front.summary) return;
    front.judged = true;
    if (front.timer !== undefined) { clearTimeout(front.timer); front.timer = undefined; }
    fronts.delete(front.run.seq);
    dropUnmatchedFront(front);
    const summary = front.summary;
    stats.fronts++;
    let outcomes: CheckOutcome[] = [];
    try {
      outcomes = judgePair(front);
    } catch (error) {
      outcomes = [fail('GW-PASS-001', front.run.name, [finding('GW-PASS-001', 'judge-error', front.run.name, `the tap's pair judge threw (${(error as Error).message ?? String(error)}); the bytes were forwarded unchanged and the pair was not judged. This is a fault of the kit, not of the gateway: please report it`, 'a judgement', 'judge error')])];
    }
    const judged = new Map<string, Finding[]>([...summary.judged].map(([id, list]) => [id, [...list]]));
    const added: Finding[] = [];
    for (const o of outcomes) {
      if (o.status === 'untested') continue;
      const list = judged.get(o.requirement) ?? [];
      judged.set(o.requirement, list);
      const own = new Set((summary.judged.get(o.requirement) ?? []).map((g) => g.code));
      for (const f of o.findings) {
        // The front tap may have judged the same fault from the bytes alone (a glued frame, a repeated one): once is enough.
        if (own.has(f.code)) continue;
        const withScenario = { ...f, scenario: front.run.name };
        list.push(withScenario);
        added.push(withScenario);
      }
    }
    const back = front.backs[0];
    for (const b of front.backs) backs.delete(b.run.seq);
    if (back) { stats.paired++; backNames.set(front.run, back.run.name); }
    const failed = [...judged.values()].some((list) => list.length > 0);
    if (added.length > 0) tell('onFindings', front.run, added);
    tell('onRunEnd', front.run, { ...summary, judged, failed });
    front.chunks = [];
    for (const b of front.backs) b.chunks = [];
  }

  function judgePair(front: Front): CheckOutcome[] {
    const summary = front.summary as TapRunSummary;
    const id = front.run.name;
    const path = front.run.url.split('?')[0] ?? '';
    const endpoint = (path === '/run_sse_enhanced' ? '/run_sse_enhanced' : '/run_sse') as StreamRun['endpoint'];
    const status = summary.status;
    const back = front.backs[0];
    const out: CheckOutcome[] = [];

    // GW-REQ-002: what the gateway refuses, or what is not a run request, never reaches the upstream.
    const invalid = summary.judged.get('CLI-REQ-002')?.some((f) => f.code === 'body-schema' || f.code === 'body-not-json') === true;
    const refused = status !== undefined && status >= 400 && status < 500;
    if (invalid || refused) {
      if (back) {
        const why = refused ? `the gateway refused the request with HTTP ${status}` : 'the request body is not a valid RunAgentRequest (CLI-REQ-002)';
        out.push(fail('GW-REQ-002', id, [finding('GW-REQ-002', refused ? 'refused-but-forwarded' : 'invalid-body-forwarded', 'upstream', `${why}, yet the back tap received it as ${back.run.name} (${back.run.method} ${back.run.url}): an invalid request must not reach the ADK server`, 'no upstream request', `${back.run.method} ${back.run.url}`)]));
      } else if (invalid) {
        out.push(pass('GW-REQ-002', id));
      }
      return out;
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
      if (status !== 200 || front.key === undefined || summary.ending === 'upstream-failed') return out;
      // The gateway answered without an upstream request: fine when its only event is its own error
      // frame (it could not reach the back tap); otherwise the stream came from somewhere else.
      const frames = readSse(frontBody).frames;
      if (frames.length > 0 && frames.every((f) => gatewayFrameKind(f.data) !== undefined)) return out;
      if (frames.length === 0 && summary.ending !== 'eof') return out;
      stats.frontWithoutBack++;
      out.push(fail('GW-PASS-002', id, [finding('GW-PASS-002', 'no-upstream-request', 'upstream', `the gateway streamed ${frames.length} events for ${front.run.name} but the back tap received no run request for its session within ${matchWaitMs} ms: either the gateway answered from elsewhere, or its ADK_UPSTREAM_URL does not point at the back tap`, `POST ${endpoint} at the back tap`, null)]));
      return out;
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

    // GW-FWD-001: the client's credentials stay at the gateway; GW-FWD-002: the Host names the upstream.
    const clientHeaders: Record<string, string> = {};
    for (const [n, v] of front.run.requestHeaders) { const k = n.toLowerCase(); clientHeaders[k] = clientHeaders[k] === undefined ? v : `${clientHeaders[k]}; ${v}`; }
    const hostsOf = (b: Back) => b.run.requestHeaders.filter(([n]) => n.toLowerCase() === 'host').map(([, v]) => v);
    const ownHost = hostsOf(back)[0] ?? '';
    out.push(...checkUpstreamHeaders({ scenario: id, journal, clientHeaders, upstreamHost: ownHost }).filter((o) => o.requirement === 'GW-FWD-001'));
    const hostFindings: Finding[] = [];
    for (const b of front.backs) {
      const hosts = hostsOf(b);
      if (hosts.length !== 1) hostFindings.push(finding('GW-FWD-002', 'wrong-upstream-host', 'upstream:header:host', `the upstream request has ${hosts.length} Host headers; it has one, the upstream's own host:port`, 'one Host header', hosts.join(', ') || null));
      else if (hosts[0]?.toLowerCase() === gatewayHost) hostFindings.push(finding('GW-FWD-002', 'wrong-upstream-host', 'upstream:header:host', `the upstream request's Host header is '${hosts[0]}', the gateway's own (the gateway copied the client's Host); it names the upstream, as ADK_UPSTREAM_URL gives it`, 'the upstream\'s host:port', hosts[0]));
    }
    out.push(judge('GW-FWD-002', id, hostFindings.slice(0, 1)));

    // The stream: bytes, terminal frames, flushing, aborts.
    if (front.over || back.over) { stats.overLimit++; return out; }
    const backBody = Buffer.concat(back.chunks);
    const backSummary = back.summary;
    const backEnding: RunEnding | 'open' = backSummary?.ending ?? 'open';
    const backStatus = backSummary?.status ?? back.run.response?.status ?? (backEnding === 'upstream-failed' ? 502 : undefined);
    const frontEnding = summary.ending;
    const backClosedInTime = backSummary !== undefined && back.endedAt !== undefined && front.endedAt !== undefined && back.endedAt - front.endedAt <= abortMs;
    const backOpenAtFrontEnd = back.endedAt === undefined || (front.endedAt !== undefined && back.endedAt > front.endedAt);
    const waits: ScriptedWait[] = [];
    for (let i = 1; i < back.arrivals.length; i++) {
      const a = back.arrivals[i - 1] as Arrival;
      const b = back.arrivals[i] as Arrival;
      waits.push({ offset: a.end, ms: b.t - a.t });
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
      if (frontEnding === 'client-closed' && backOpenAtFrontEnd && backEnding !== 'stopped') {
        out.push(backClosedInTime ? pass('GW-ABORT-001', id) : fail('GW-ABORT-001', id, [finding('GW-ABORT-001', 'upstream-not-aborted', 'upstream', `the client left ${front.run.name} after ${frontBody.length} bytes, but ${abortMs} ms later the gateway still held its upstream request (${back.run.name}) open: an abandoned run keeps the ADK server and its model busy`, `the upstream request closed within ${abortMs} ms`, 'still open')]));
      }
      return out;
    }
    if (frontEnding !== 'eof' && frontEnding !== 'upstream-cut') return out;

    if (!streams) {
      if (backStatus !== undefined) out.push(...checkTerminalFrame({ scenario: id, exchange, prefix: new Uint8Array(), kind: 'status', upstreamStatus: backStatus, cause: `the upstream answered HTTP ${backStatus} (${back.run.name})` }));
      return out;
    }
    out.push(...checkFlushing(id, script('eof').upstream, exchange));
    if (backEnding === 'eof') {
      out.push(...checkPassthrough(script('eof')));
      return out;
    }
    if (backEnding === 'upstream-cut') {
      out.push(...checkPassthrough(script('reset')));
      out.push(...checkTerminalFrame({ scenario: id, exchange, prefix: backBody, kind: 'stream-error', cause: `the upstream broke the connection after ${backBody.length} bytes (${back.run.name})` }));
      return out;
    }
    if (backEnding === 'stopped') return out;
    // The gateway ended the client stream while its upstream request was open (then closed it, or not).
    const last = readSse(frontBody).frames.at(-1);
    const kind = last ? gatewayFrameKind(last.data) : undefined;
    if (kind === 'timeout' || kind === 'stream-error') {
      out.push(...checkPassthrough(script('reset')));
      out.push(...checkTerminalFrame({ scenario: id, exchange, prefix: backBody, kind, cause: kind === 'timeout' ? 'the gateway\'s total timeout fired' : `the gateway gave up its upstream request (${back.run.name})` }));
      if (kind === 'timeout') out.push(backClosedInTime ? pass('GW-ABORT-002', id) : fail('GW-ABORT-002', id, [finding('GW-ABORT-002', 'upstream-open-after-timeout', 'upstream', `the gateway's total timeout ended ${front.run.name}, but ${abortMs} ms later its upstream request (${back.run.name}) was still open`, 'the upstream request closed', 'still open')]));
      return out;
    }
    if (frontEnding === 'eof') {
      out.push(fail(passReq, id, [finding(passReq, 'stream-ended-early', `byte ${frontBody.length}`, `the gateway ended the client's stream after ${frontBody.length} bytes while its upstream request (${back.run.name}) had not ended${backEnding === 'open' ? '' : ' (the gateway then closed it)'}, with no terminal frame: the upstream's remaining bytes never reach the client and nothing says why`, 'the upstream\'s bytes to its end, or a terminal frame', `${frontBody.length} bytes, then the end`)]));
    }
    return out;
  }

  const front: TapObserver = {
    onRunStart(run) {
      if (run.kind === 'run' && runPaths.has(run.url.split('?')[0] ?? '')) fronts.set(run.seq, { ...side(run), backs: [], judged: false });
      tell('onRunStart', run);
    },
    onRequestBody(run, body, truncated) {
      const f = fronts.get(run.seq);
      if (f) {
        keepBody(f, body, truncated);
        if (f.key !== undefined) {
          const early = unmatchedBack.findIndex((b) => b.key === f.key);
          if (early >= 0) match(f, unmatchedBack.splice(early, 1)[0] as Back);
          else { const list = unmatchedFront.get(f.key) ?? []; list.push(f); unmatchedFront.set(f.key, list); }
        }
      }
      tell('onRequestBody', run, body, truncated);
    },
    onResponseHead(run) { tell('onResponseHead', run); },
    onChunk(run, chunk, atMs) {
      const f = fronts.get(run.seq);
      if (f) keepChunk(f, chunk);
      tell('onChunk', run, chunk, atMs);
    },
    onFrame(run, frame, findings) { tell('onFrame', run, frame, findings); },
    onFindings(run, findings) { tell('onFindings', run, findings); },
    onRunEnd(run, summary) {
      const f = fronts.get(run.seq);
      if (!f) { tell('onRunEnd', run, summary); return; }
      f.summary = summary;
      f.endedAt = performance.now();
      settle(f);
    },
  };

  const back: TapObserver = {
    onRunStart(run) {
      if (run.kind === 'run' && runPaths.has(run.url.split('?')[0] ?? '')) backs.set(run.seq, { ...side(run), since: performance.now() });
    },
    onRequestBody(run, body, truncated) {
      const b = backs.get(run.seq);
      if (!b) return;
      keepBody(b, body, truncated);
      const now = performance.now();
      evictBacks(now);
      if (b.key === undefined) { backs.delete(run.seq); stats.backWithoutFront++; return; }
      const waiting = unmatchedFront.get(b.key);
      if (waiting && waiting.length > 0) {
        const f = waiting.shift() as Front;
        if (waiting.length === 0) unmatchedFront.delete(b.key);
        match(f, b);
        return;
      }
      // A second upstream request for a front run that is still open and already paired: a repeat.
      let repeatOf: Front | undefined;
      for (const f of fronts.values()) if (!f.judged && f.key === b.key && f.backs.length > 0) repeatOf = f;
      if (repeatOf) { match(repeatOf, b); return; }
      b.since = now;
      unmatchedBack.push(b);
    },
    onChunk(run, chunk) {
      const b = backs.get(run.seq);
      if (b) keepChunk(b, chunk);
    },
    onRunEnd(run, summary) {
      const b = backs.get(run.seq);
      if (!b) return;
      b.summary = summary;
      b.endedAt = performance.now();
      if (b.front) { if (b.front.backs[0] === b) settle(b.front); return; }
      // Not (yet) claimed: kept for matchWaitMs in case its front run's body comes late, then counted.
      if (!unmatchedBack.includes(b)) backs.delete(run.seq);
      else { b.chunks = []; b.over = true; }
    },
  };

  return {
    front,
    back,
    backOf: (run) => backNames.get(run),
    stats: () => {
      evictBacks(performance.now());
      return { ...stats };
    },
    pending: () => [...fronts.values()].filter((f) => f.summary !== undefined && !f.judged).length,
    close() {
      closed = true;
      for (const f of [...fronts.values()]) if (f.summary) finish(f);
      stats.backWithoutFront += unmatchedBack.length;
      unmatchedBack.length = 0;
    },
  };
}

/** A JSON value with its object keys sorted, so two values compare by their text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isRecord(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
  return value;
}
