/**
 * The two checks that read arrival times against the mock's scripted waits. Neither measures
 * speed: each compares when bytes arrived relative to a pause the upstream itself made.
 *
 * GW-PASS-005: seed 004 § Streaming Pattern, "**Buffering:** Disabled (`X-Accel-Buffering: no`)":
 * the bytes written before an upstream pause reach the client before that pause ends, i.e. well
 * before the bytes written after it. A gateway that holds bytes back (until EOF, until the next
 * chunk, until a buffer fills) delivers both sides of the pause together.
 *
 * GW-TIMEOUT-002: seed 004 § Implementation Notes, "300s timeout with no read timeout (allows LLM
 * processing gaps)": a silence shorter than the total timeout does not end the stream.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { readSse } from '../../../core/sse.ts';
import { commonPrefix, fail, finding, noStreamReason, pass, untested, type Arrival, type Exchange, type ScriptedWait, type UpstreamScript } from './types.ts';

/** Pauses shorter than this are not judged: scheduling noise could hide a small hold-back. */
export const flushMinWaitMs = 200;
/**
 * A pause counts as held back when both sides arrive closer together than this share of it. The
 * requirement asks that an event reach the client before the upstream sends the next one: any gap
 * longer than the gateway's forwarding of the next bytes (milliseconds) says so, while a gateway that
 * holds bytes back delivers both sides within milliseconds. Half the pause was stricter than that,
 * and the clean-clone CI of 7edbc0d failed examples/fastapi-gateway on it under load, confirmed alone:
 * a 600 ms pause whose sides arrived 235 ms apart, the bytes before it well ahead of the upstream's
 * next ones. A fifth keeps a margin over scheduling noise (40 ms at the shortest judged pause).
 */
export const flushShare = 0.2;
/** Pauses at least this long are "processing gaps" for GW-TIMEOUT-002. */
export const silenceMinMs = 1000;

/** The arrival that delivered byte `index` of the body. */
export function arrivalOf(arrivals: Arrival[], index: number): Arrival | undefined {
  return arrivals.find((a) => a.end > index);
}

function innerWaits(upstream: UpstreamScript, minMs: number): ScriptedWait[] {
  return upstream.waits.filter((w) => w.ms >= minMs && w.offset > 0 && w.offset < upstream.bytes.length);
}

/** What one scripted pause showed: judged (with a finding when it failed), or skipped with a reason. */
type WaitVerdict = { judged: true; finding?: Finding } | { judged: false; skip: string };

/**
 * The frame both timing checks share: find the upstream's pauses of at least `minMs`, give up when
 * no stream came, judge each pause against the bytes the client got, and turn the verdicts into one
 * outcome (failed on any finding, passed when at least one pause was judged, untested otherwise).
 */
function judgeWaits(req: string, scenario: string, upstream: UpstreamScript, exchange: Exchange, minMs: number, judge: (w: ScriptedWait, same: number) => WaitVerdict): CheckOutcome[] {
  const points = innerWaits(upstream, minMs);
  if (points.length === 0) return [];
  const noStream = noStreamReason(exchange);
  if (noStream !== undefined) return [untested(req, scenario, noStream)];
  const same = commonPrefix(exchange.body, upstream.bytes);
  const findings: Finding[] = [];
  const skipped: string[] = [];
  let judged = 0;
  for (const w of points) {
    const verdict = judge(w, same);
    if (!verdict.judged) { skipped.push(verdict.skip); continue; }
    judged++;
    if (verdict.finding) findings.push(verdict.finding);
  }
  if (findings.length > 0) return [fail(req, scenario, findings)];
  if (judged > 0) return [pass(req, scenario)];
  return [untested(req, scenario, skipped.join('; '))];
}

export function checkFlushing(scenario: string, upstream: UpstreamScript, exchange: Exchange): CheckOutcome[] {
  const req = 'GW-PASS-005';
  return judgeWaits(req, scenario, upstream, exchange, flushMinWaitMs, (w, same) => {
    if (same <= w.offset) return { judged: false, skip: `the bytes after the ${Math.round(w.ms)} ms pause at byte ${w.offset} ${exchange.body.length <= w.offset ? 'never arrived' : 'were changed'}` };
    const before = arrivalOf(exchange.arrivals, w.offset - 1);
    const after = arrivalOf(exchange.arrivals, w.offset);
    if (!before || !after) return { judged: false, skip: `no arrival time for byte ${w.offset}` };
    const gap = after.t - before.t;
    if (gap >= w.ms * flushShare) return { judged: true };
    return { judged: true, finding: finding(req, 'held-back', `byte ${w.offset}`, `the upstream paused ${Math.round(w.ms)} ms before byte ${w.offset}, yet the client got the bytes before the pause only ${Math.round(gap)} ms before the bytes after it: the gateway held them back`, `at least ${Math.round(w.ms * flushShare)} ms apart`, `${Math.round(gap)} ms apart`) };
  });
}

/** Whether bytes from `from` on hold a gateway error frame (TIMEOUT, STREAM_ERROR or a status frame). */
function hasGatewayFrame(body: Uint8Array, from: number): string | undefined {
  for (const frame of readSse(body.subarray(from)).frames) {
    try {
      const json = JSON.parse(frame.data) as Record<string, unknown>;
      if (json && typeof json === 'object' && ('error_code' in json || 'status_code' in json)) return frame.data;
    } catch { /* not a frame of the gateway's */ }
  }
  return undefined;
}

/** The offset just past the first event that starts at or after `from` (its blank line), or the end. */
export function nextEventEnd(bytes: Uint8Array, from: number): number {
  let previousWasEnd = false;
  for (let i = from; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x0d && bytes[i + 1] === 0x0a) i++;
    if (b === 0x0a || b === 0x0d) {
      if (previousWasEnd) return i + 1;
      previousWasEnd = true;
    } else {
      previousWasEnd = false;
    }
  }
  return bytes.length;
}

/**
 * When the bytes after byte `offset` (or, with none, the stream's end) came at or after `totalMs` since the request, the
 * gateway's total timeout may have fired: its clock starts when it receives the request, after ours.
 * A silence is meant to end well before the total; on a starved machine the upstream can start it
 * late enough that the total falls inside it, and then an error frame proves nothing either way.
 */
export function reachedTotal(exchange: Exchange, offset: number, totalMs: number | undefined): number | undefined {
  if (totalMs === undefined) return undefined;
  // No byte after the silence: the stream's end is the gateway's answer to it.
  const t = arrivalOf(exchange.arrivals, offset)?.t ?? exchange.durationMs;
  return t >= totalMs ? Math.round(t) : undefined;
}

/**
 * `totalMs`, the gateway's GATEWAY_TIMEOUT_MS when the harness set it: an error frame that came at
 * or after it since the request is the total timeout, not a read timeout, and is not judged.
 */
export function checkSilence(scenario: string, upstream: UpstreamScript, exchange: Exchange, totalMs?: number): CheckOutcome[] {
  const req = 'GW-TIMEOUT-002';
  return judgeWaits(req, scenario, upstream, exchange, silenceMinMs, (w, same) => {
    if (same < w.offset) return { judged: false, skip: `the stream differed from the upstream's before the ${Math.round(w.ms)} ms silence at byte ${w.offset}` };
    // The stream went on after the silence when the first event the upstream wrote after it arrived whole.
    if (same >= nextEventEnd(upstream.bytes, w.offset)) return { judged: true };
    const late = reachedTotal(exchange, w.offset, totalMs);
    if (late !== undefined) return { judged: false, skip: `the total timeout elapsed (${totalMs} ms) before the ${Math.round(w.ms)} ms silence at byte ${w.offset} was over: the gateway's answer to it came ${late} ms after the request, so the upstream started the silence late (a busy machine) and an error frame then is the total timeout's` };
    const frame = hasGatewayFrame(exchange.body, w.offset);
    if (frame !== undefined) {
      return { judged: true, finding: finding(req, 'error-frame-during-silence', `byte ${w.offset}`, `the gateway ended the stream with an error frame during a ${Math.round(w.ms)} ms upstream silence, shorter than its total timeout: a read timeout cut an LLM processing gap`, 'the upstream bytes after the silence', frame) };
    }
    if (exchange.body.length <= same) {
      const how = exchange.ending === 'deadline' ? 'stopped forwarding' : exchange.ending === 'broken' ? `broke the connection (${exchange.error ?? 'closed'})` : 'ended the stream';
      return { judged: true, finding: finding(req, 'ended-during-silence', `byte ${w.offset}`, `the gateway ${how} during a ${Math.round(w.ms)} ms upstream silence, shorter than its total timeout`, 'the upstream bytes after the silence', exchange.ending) };
    }
    return { judged: false, skip: `the bytes after the ${Math.round(w.ms)} ms silence at byte ${w.offset} were changed` };
  });
}
