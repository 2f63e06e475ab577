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
 * - GW-FWD-003: checkUpstreamHeaders: no client credential in the upstream request's headers.
 *   GW-FWD-002: the upstream request's Host is not the gateway's own (a copied client Host).
 * - GW-ERR-001..005, GW-TIMEOUT-001: checkTerminalFrame when the upstream failed (an HTTP error, a
 *   cut, a timeout the gateway ended): one terminal frame of the right kind, after every event the
 *   back received, a broken event closed first.
 * - GW-PASS-005: checkFlushing, each pause of 200 ms or more between the back's chunks against the
 *   front's arrival times (the bytes before it reach the client at least half the pause earlier).
 *   A pause counts only the time the tap's event loop sat idle in it: the tap's own work is no pause.
 * - GW-ABORT-001 / GW-ABORT-002: a client that left the front (or a TIMEOUT frame that ended it)
 *   while the back's request was open: the back's request closes within `abortMs` (2 s).
 * - GW-REQ-002: a request the gateway refused (4xx) or that the front judged invalid
 *   (CLI-REQ-003) reached no upstream.
 *
 * Matching: by the run request's appName, userId and sessionId (snake_case accepted) and arrival
 * order: a back run takes the oldest unmatched front run with its key; a back run arriving while
 * that front run is still open and already paired is a repeat (GW-PASS-002). The pair's findings
 * go into the front run, and the ADK findings the ADK server caused leave it (tap/pair-attribution.ts):
 * its end is held back (at most `abortMs` or `matchWaitMs`) until the back
 * run ended, then the front's downstream observers (the report, the printer, --save-failing, the
 * live outputs) get the pair's findings and the run's end with them. State is bounded: per open
 * pair each side's body up to `maxPairBytes` (a longer run's stream checks are skipped and
 * counted), unmatched back runs at most `maxPending` and `matchWaitMs` (then evicted, counted).
 */
import { performance as hooks } from 'node:perf_hooks';
import { fail, finding } from '../harness/checks/gateway/types.ts';
import type { CheckOutcome, Finding } from '../harness/model.ts';
import { upstreamCaused } from './pair-attribution.ts';
import { readSse } from '../core/sse.ts';
import { canonical, isRecord, judgePair, type Back, type Front, type Side } from './pair-judge.ts';
import type { TapObserver, TapRun } from './types.ts';

/** The requirements a pair judges besides what each tap judges alone. */
export const pairRequirements: readonly string[] = [
  'GW-PASS-001', 'GW-PASS-002', 'GW-PASS-004', 'GW-PASS-005', 'GW-ENH-001', 'GW-FWD-003', 'GW-FWD-002',
  'GW-ERR-001', 'GW-ERR-002', 'GW-ERR-003', 'GW-ERR-004', 'GW-ERR-005', 'GW-TIMEOUT-001', 'GW-TIMEOUT-002', 'GW-ABORT-001', 'GW-ABORT-002', 'GW-REQ-002',
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
  /** The gateway's total timeout in ms (default seed 004's 300 s): a stream it ends during an upstream silence before this was a read timeout's doing (GW-TIMEOUT-002). */
  gatewayTimeoutMs?: number;
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
  /** ADK findings the front tap saw that the ADK server caused (tap/pair-attribution.ts): left on the back run, not on the front. */
  upstreamCaused: number;
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
  // A body without all three (one a gateway should refuse) is matched on its whole content: a
  // gateway that forwards it anyway sends the same JSON, and GW-REQ-002 must see that it did.
  if (app === undefined || user === undefined || session === undefined) return { key: `body\u0000${JSON.stringify(canonical(json))}`, json };
  return { key: `${app}\u0000${user}\u0000${session}`, json };
}

export function createTapPair(options: TapPairOptions): TapPair {
  const abortMs = options.abortMs ?? 2000;
  const matchWaitMs = options.matchWaitMs ?? 2000;
  const gatewayTimeoutMs = options.gatewayTimeoutMs ?? 300_000;
  const maxPairBytes = options.maxPairBytes ?? 4 * 1024 * 1024;
  const maxPending = options.maxPending ?? 1024;
  const gatewayHost = new URL(options.gateway).host.toLowerCase();
  const fronts = new Map<number, Front>();
  const backs = new Map<number, Back>();
  const unmatchedFront = new Map<string, Front[]>();
  const unmatchedBack: Back[] = [];
  const backNames = new WeakMap<TapRun, string>();
  const stats: TapPairStats = { fronts: 0, paired: 0, frontWithoutBack: 0, backWithoutFront: 0, evicted: 0, overLimit: 0, upstreamCaused: 0 };
  let closed = false;

  function tell<K extends keyof TapObserver>(callback: K, ...args: Parameters<NonNullable<TapObserver[K]>>): void {
    for (const o of options.downstream) {
      const fn = o[callback] as ((...a: unknown[]) => unknown) | undefined;
      if (!fn) continue;
      try { fn.apply(o, args); } catch (error) { options.onObserverError?.(callback, error); }
    }
  }

  const side = (run: TapRun): Side => ({ run, bodyTruncated: false, chunks: [], bytes: 0, over: false, arrivals: [], busy: [] });
  function keepChunk(s: Side, chunk: Uint8Array): void {
    s.bytes += chunk.length;
    if (s.over) return;
    if (s.bytes > maxPairBytes) { s.over = true; s.chunks = []; s.arrivals = []; s.busy = []; return; }
    s.chunks.push(Buffer.from(chunk));
    s.arrivals.push({ t: performance.now(), end: s.bytes });
    s.busy.push(hooks.eventLoopUtilization().active);
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
      const judgement = judgePair(front, { abortMs, matchWaitMs, gatewayHost, gatewayTimeoutMs });
      outcomes = judgement.outcomes;
      if (judgement.noUpstream) stats.frontWithoutBack++;
      if (judgement.overLimit) stats.overLimit++;
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
        // A [DONE] the gateway appended is the front's `event-added` already; the pair's `bytes-added-after-eof` would count it twice.
        if (f.code === 'bytes-added-after-eof' && own.has('event-added') && onlyDone(front)) continue;
        // A STREAM_ERROR after the final answer is the front's `error-frame-after-answer` already.
        if (f.code === 'bytes-added-after-eof' && own.has('error-frame-after-answer')) continue;
        const withScenario = { ...f, scenario: front.run.name };
        list.push(withScenario);
        added.push(withScenario);
      }
    }
    const back = front.backs[0];
    // The front read a STREAM_ERROR after the final answer as added to a normal end; the back saw the upstream break there, so the frame was right.
    if (back?.summary?.ending === 'upstream-cut' && judged.has('GW-PASS-004')) judged.set('GW-PASS-004', (judged.get('GW-PASS-004') ?? []).filter((f) => f.code !== 'error-frame-after-answer'));
    // What the ADK server got wrong, the gateway passed through as it must: the back run keeps it.
    const moved = upstreamCaused(judged, back?.summary);
    if (moved.size > 0) {
      for (const [id, list] of judged) judged.set(id, list.filter((f) => !moved.has(f)));
      stats.upstreamCaused += moved.size;
    }
    for (const b of front.backs) backs.delete(b.run.seq);
    if (back) { stats.paired++; backNames.set(front.run, back.run.name); }
    const failed = [...judged.values()].some((list) => list.length > 0);
    if (added.length > 0) tell('onFindings', front.run, added);
    tell('onRunEnd', front.run, { ...summary, judged, failed });
    front.chunks = [];
    for (const b of front.backs) b.chunks = [];
  }

  const front: TapObserver = {
    onRunStart(run) {
      if (run.kind === 'run' && runPaths.has(run.url.split('?')[0] ?? '')) fronts.set(run.seq, { ...side(run), backs: [], judged: false, since: performance.now() });
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
      f.endedBusy = hooks.eventLoopUtilization().active;
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

/** Whether the bytes the front got past the back's whole body are `[DONE]` events and nothing else. */
function onlyDone(front: Front): boolean {
  const back = front.backs[0];
  if (!back) return false;
  const extra = Buffer.concat(front.chunks).subarray(back.bytes);
  const frames = readSse(extra).frames;
  return frames.length > 0 && frames.every((f) => f.data.trim() === '[DONE]');
}
