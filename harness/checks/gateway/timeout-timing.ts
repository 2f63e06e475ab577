/**
 * GW-TIMEOUT-003: seed 004 § Response Lifecycle, "7. Connection closes when: ... - Timeout (300s)
 * reached", with § Implementation Notes, "300s timeout with no read timeout": the timeout is a
 * total for the whole stream, measured from the request. Judged on a stream whose upstream keeps
 * sending (a few bytes every 200 ms) for longer than GATEWAY_TIMEOUT_MS, so no read or idle
 * timeout can fire: the gateway's own bytes (the closing line ends and the TIMEOUT frame), or the
 * end of the stream when it adds none, must come no earlier than the total after the request was
 * sent (less a little timer slack), and at most `lateMs` after it. A timeout that restarts with
 * every chunk (an idle timeout) never fires here; one that counts from a later moment, or a
 * shorter one, fires at the wrong time.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { arrivalOf } from './timing.ts';
import { fail, finding, noResponseFinding, noStreamReason, pass, untested, type Exchange } from './types.ts';

/** How much earlier than the total a frame may arrive (timer granularity of the gateway's runtime). */
export const timeoutEarlyMs = 100;
/** How much later than the total the stream may end. */
export const timeoutLateMs = 2000;

export type TimeoutTimingCase = {
  probe: string;
  exchange: Exchange;
  /** The gateway's GATEWAY_TIMEOUT_MS. */
  totalMs: number;
  /** How long the upstream kept sending, in ms from its first byte (longer than the total). */
  upstreamMs: number;
};

const TIMEOUT_CODE = /"error_code"\s*:\s*"TIMEOUT"/;

/**
 * The body offset where the TIMEOUT frame's `data:` starts, or -1: the last `data:` before its
 * error_code (a frame glued onto a partial upstream line starts there, not at that line's start).
 */
export function timeoutFrameOffset(body: Uint8Array): number {
  const text = Buffer.from(body).toString('latin1');
  const match = TIMEOUT_CODE.exec(text);
  return match ? text.lastIndexOf('data:', match.index) : -1;
}

export function checkTimeoutTiming(c: TimeoutTimingCase): CheckOutcome[] {
  const req = 'GW-TIMEOUT-003';
  const x = c.exchange;
  const none = noResponseFinding(req, x);
  if (none) return [fail(req, c.probe, [none])];
  const noStream = noStreamReason(x);
  if (noStream !== undefined) return [untested(req, c.probe, noStream)];
  if (x.status !== 200) return [untested(req, c.probe, `the gateway answered HTTP ${x.status}, so no stream could time out`)];
  const earliest = c.totalMs - timeoutEarlyMs;
  const latest = c.totalMs + timeoutLateMs;
  const offset = timeoutFrameOffset(x.body);
  let endedAt: number | undefined;
  let how: string;
  if (offset >= 0) {
    endedAt = arrivalOf(x.arrivals, offset)?.t;
    how = 'the TIMEOUT frame arrived';
  } else if (x.ending === 'complete' || x.ending === 'broken') {
    endedAt = x.durationMs;
    how = x.ending === 'complete' ? 'the stream ended (without a TIMEOUT frame: GW-TIMEOUT-001 judges that)' : `the connection broke (${x.error ?? 'closed'})`;
  } else {
    how = 'the stream was still open';
  }
  const findings: Finding[] = [];
  if (endedAt === undefined) {
    findings.push(finding(req, 'timeout-never-fired', 'timing', `the upstream kept sending for ${c.upstreamMs} ms, past GATEWAY_TIMEOUT_MS=${c.totalMs}, and ${timeoutLateMs} ms after the total ${how}: the timeout restarts with each chunk (an idle timeout) or is not there, so a stream that keeps trickling never ends`, `the stream ended by ${latest} ms`, `still open at ${x.durationMs} ms`));
  } else if (endedAt < earliest) {
    findings.push(finding(req, 'timeout-early', 'timing', `${how} ${Math.round(endedAt)} ms after the request, before GATEWAY_TIMEOUT_MS=${c.totalMs} had passed, while the upstream was still sending: the gateway's timeout is shorter than the configured total`, `at least ${earliest} ms`, `${Math.round(endedAt)} ms`));
  } else if (endedAt > latest) {
    findings.push(finding(req, 'timeout-late', 'timing', `${how} ${Math.round(endedAt)} ms after the request, more than ${timeoutLateMs} ms after GATEWAY_TIMEOUT_MS=${c.totalMs}: the total is not counted from the request`, `at most ${latest} ms`, `${Math.round(endedAt)} ms`));
  }
  return findings.length > 0 ? [fail(req, c.probe, findings)] : [pass(req, c.probe)];
}
