/**
 * The frame a gateway appends when the exchange fails (seed 004 § Error Handling):
 *
 * - GW-ERR-001, § HTTP Status Errors: `{"error": "ADK upstream error: 500", "status_code": 500,
 *   "detail": "...", "timestamp": ...}` for an upstream 4xx/5xx.
 * - GW-ERR-002, § General Stream Errors: `{"error": "...", "error_code": "STREAM_ERROR",
 *   "timestamp": ...}` for a refused connection or a broken stream.
 * - GW-TIMEOUT-001, § Timeout Error: `{"error": "Request timeout after 300 seconds",
 *   "error_code": "TIMEOUT", "timestamp": ...}`, after every event that arrived.
 * - GW-ERR-003, § Response Lifecycle ("Connection closes when: ... Error occurs"): exactly one
 *   terminal frame, after every event received before the failure, dispatched as its own event
 *   (a partial upstream line is closed first), and then the response ends (never hangs).
 *
 * - GW-ERR-004, § SSE Wire Format ("Events separated by blank lines"): when the upstream broke
 *   inside an event, the gateway closes that event before its frame.
 * - GW-ERR-005, the seed's `"timestamp": 1729350300.123`: every frame's timestamp is in seconds.
 *
 * For a timeout, the "exactly one, last, then the end" part is judged under GW-TIMEOUT-001 itself.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { readSse, type SseFrame } from '../../../core/sse.ts';
import { answered, commonPrefix, fail, finding, judge, noResponseFinding, noStreamReason, pass, showBytes, untested, type Exchange } from './types.ts';

export type TerminalKind = 'status' | 'stream-error' | 'timeout';

export type TerminalCase = {
  scenario: string;
  exchange: Exchange;
  /** The upstream bytes the client got before the failure (empty if the upstream never streamed): their events must precede the frame. */
  prefix: Uint8Array;
  kind: TerminalKind;
  /** For `status`: the upstream's HTTP status. */
  upstreamStatus?: number;
  /** Said in messages: what failed upstream ("the upstream answered 404", "the connection was refused"). */
  cause: string;
};

const shapeRequirement: Record<TerminalKind, string> = { status: 'GW-ERR-001', 'stream-error': 'GW-ERR-002', timeout: 'GW-TIMEOUT-001' };

function gatewayJson(frame: SseFrame | undefined): Record<string, unknown> | undefined {
  if (!frame) return undefined;
  try {
    const json = JSON.parse(frame.data) as unknown;
    if (json && typeof json === 'object' && !Array.isArray(json) && ('error_code' in json || 'status_code' in json)) return json as Record<string, unknown>;
  } catch { /* not the gateway's frame */ }
  return undefined;
}

function shapeFindings(req: string, c: TerminalCase, json: Record<string, unknown>, path: string): Finding[] {
  const out: Finding[] = [];
  const bad = (field: string, message: string, expected: unknown) => out.push(finding(req, 'error-frame-field', `${path}/${field}`, message, expected, json[field] ?? null));
  if (typeof json.timestamp !== 'number') bad('timestamp', 'the frame\'s timestamp is not a number (seconds, like time.time())', 'a number');
  if (c.kind === 'status') {
    const status = c.upstreamStatus ?? 0;
    if (json.error !== `ADK upstream error: ${status}`) bad('error', `the frame's error does not name the upstream status ${status}`, `ADK upstream error: ${status}`);
    if (json.status_code !== status) bad('status_code', 'the frame\'s status_code is not the upstream\'s status', status);
    if (typeof json.detail !== 'string') bad('detail', 'the frame has no string detail', 'a string');
  } else {
    const code = c.kind === 'timeout' ? 'TIMEOUT' : 'STREAM_ERROR';
    if (json.error_code !== code) bad('error_code', `the frame's error_code is not ${code}`, code);
    if (typeof json.error !== 'string' || json.error === '') bad('error', 'the frame has no error message', 'a non-empty string');
  }
  return out;
}

/**
 * The events the upstream sent before it failed: `complete` are those it ended with a blank line;
 * `fragment` is 1 when it broke inside one more (a partial line, or a data line without its blank
 * line). A fragment is not an event the upstream sent: a gateway that forwards raw bytes closes it
 * (GW-ERR-004), so the client dispatches it; one that forwards whole lines never sends it. Both
 * keep every event received before the failure (seed 004: "Connection closes when: ... Error occurs").
 */
export function eventsBefore(prefix: Uint8Array): { complete: number; fragment: number } {
  const closed = new Uint8Array(prefix.length + 2);
  closed.set(prefix);
  closed.set([0x0a, 0x0a], prefix.length);
  const complete = readSse(prefix).frames.length;
  return { complete, fragment: readSse(closed).frames.length - complete };
}

/**
 * The line ends that close whatever event `bytes` leave unfinished for a WHATWG parser: '' at an
 * event boundary, `\n` after a finished field line, `\n\n` inside a line (a trailing CR counts as
 * a line end, so a CR then LF is one line end, as the parser reads it).
 */
export function closingLineEnds(bytes: Uint8Array): string {
  let inLine = false;
  let pending = false;
  let lastCr = false;
  for (const b of bytes) {
    if (b === 0x0a && lastCr) { lastCr = false; continue; }
    lastCr = b === 0x0d;
    if (b === 0x0a || b === 0x0d) {
      pending = inLine;
      inLine = false;
    } else {
      inLine = true;
    }
  }
  if (inLine) return '\n\n';
  return pending ? '\n' : '';
}

/** The leading CR/LF bytes of `bytes`. */
function leadingLineEnds(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes.subarray(0, i);
}

const concat = (...parts: Array<Uint8Array | string>): Uint8Array => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

/**
 * GW-ERR-004: when the upstream broke inside an event, the client already has its partial bytes;
 * the gateway must end that event (its line, then a blank line) before the terminal frame, or the
 * client's parser glues the frame's `data:` line onto the broken event and never sees the frame.
 * The same holds for a total timeout that fires inside an event, judged under GW-TIMEOUT-001 (the
 * client must have the TIMEOUT frame). Judged only when the client got the upstream's bytes
 * unchanged (otherwise PASS-001 says why). Returns the outcome and, when the frame was glued, the
 * body as it would have been with the event closed, so the other checks judge the frame itself and
 * not the same fault again.
 */
function judgeClosing(c: TerminalCase): { outcome?: CheckOutcome; body: Uint8Array } {
  const body = c.exchange.body;
  const needed = closingLineEnds(c.prefix);
  if (c.kind === 'status' || needed === '') return { body };
  const req = c.kind === 'timeout' ? 'GW-TIMEOUT-001' : 'GW-ERR-004';
  if (commonPrefix(body, c.prefix) < c.prefix.length) return { outcome: untested(req, c.scenario, 'the client did not get the upstream\'s bytes before the failure unchanged (GW-PASS-001 says where they differ)'), body };
  const extra = body.subarray(c.prefix.length);
  const ends = leadingLineEnds(extra);
  if (closingLineEnds(concat(c.prefix, ends)) === '') return { outcome: pass(req, c.scenario), body };
  const what = c.kind === 'timeout' ? 'the total timeout fired' : 'the upstream broke';
  const where = needed === '\n\n' ? 'inside a line' : 'after a data line, before the blank line that ends its event';
  const wrote = extra.length === 0 ? 'nothing after the partial bytes, so the broken event is never closed and a client\'s parser never dispatches a frame that ends the stream'
    : `${ends.length === 0 ? 'its terminal frame right after the partial bytes' : `only ${JSON.stringify(Buffer.from(ends).toString())} before its terminal frame`}, so a client's parser reads the frame as part of the broken event and never dispatches it`;
  const f = finding(req, 'frame-not-own-event', `byte ${c.prefix.length}`, `${what} ${where}; the gateway wrote ${wrote}`, `${JSON.stringify(needed)} before the frame`, showBytes(body.subarray(Math.max(0, c.prefix.length - 30), c.prefix.length + 50)));
  return { outcome: fail(req, c.scenario, [f]), body: concat(c.prefix, needed, extra.subarray(ends.length)) };
}

/** GW-ERR-005: seed 004's frames carry `"timestamp": 1729350300.123`, Unix time in seconds. */
export function judgeTimestamp(scenario: string, json: Record<string, unknown>, at: string): CheckOutcome | undefined {
  const ts = json.timestamp;
  if (typeof ts !== 'number') return undefined;
  const req = 'GW-ERR-005';
  // Seconds since 1970 from 2001 to 2286; milliseconds (1.7e12) and microseconds are far outside.
  if (ts >= 1e9 && ts < 1e10) return pass(req, scenario);
  const unit = ts >= 1e12 && ts < 1e13 ? ' (milliseconds, as JavaScript\'s Date.now() gives)' : ts >= 1e15 ? ' (microseconds)' : '';
  return fail(req, scenario, [finding(req, 'timestamp-not-seconds', `${at}/timestamp`, `the frame's timestamp ${ts} is not Unix time in seconds${unit}; seed 004's frames carry seconds with a fraction, like time.time()`, 'seconds since 1970, e.g. 1729350300.123', ts)]);
}

export function checkTerminalFrame(c: TerminalCase): CheckOutcome[] {
  const shapeReq = shapeRequirement[c.kind];
  const lifeReq = c.kind === 'timeout' ? shapeReq : 'GW-ERR-003';
  const reqs = [...new Set([shapeReq, lifeReq])];
  const { exchange } = c;
  const noStream = noStreamReason(exchange);
  if (exchange.ending === 'connect-failed') return reqs.map((r) => judge(r, c.scenario, [noResponseFinding(r, exchange) as Finding]));
  if (noStream !== undefined) return reqs.map((r) => untested(r, c.scenario, noStream));
  if (exchange.status !== 200) {
    const message = `when ${c.cause}, the gateway answered ${answered(exchange)} instead of a 200 stream that ends with the error frame (the status line goes out before the upstream answers)`;
    return reqs.map((r) => judge(r, c.scenario, [finding(r, 'no-error-frame', 'status', message, 200, exchange.status)]));
  }
  const extraOutcomes: CheckOutcome[] = [];
  const closing = judgeClosing(c);
  if (closing.outcome) extraOutcomes.push(closing.outcome);
  const shape: Finding[] = [];
  const life: Finding[] = [];
  const body = closing.body;
  const parsed = readSse(body);
  const frames = parsed.frames;
  const last = frames.at(-1);
  const json = gatewayJson(last);
  // Byte identity is GW-PASS-001's business; here what counts is that every upstream event reached
  // the client before the frame, and nothing else did.
  const before = eventsBefore(c.prefix);
  const at = `frame[${Math.max(0, frames.length - 1)}]`;
  if (!json) {
    const tail = showBytes(body.subarray(Math.max(0, body.length - 160)));
    shape.push(finding(shapeReq, 'no-error-frame', at, `when ${c.cause}, the client's last event is not a ${c.kind === 'status' ? 'status' : c.kind === 'timeout' ? 'TIMEOUT' : 'STREAM_ERROR'} frame dispatched on its own`, 'one error frame', tail));
    if (lifeReq !== shapeReq) life.push(finding(lifeReq, 'no-terminal-frame', at, `when ${c.cause}, the stream ended without a terminal frame of its own`, 'exactly one terminal frame', tail));
  } else {
    shape.push(...shapeFindings(shapeReq, c, json, at));
    const stamp = judgeTimestamp(c.scenario, json, at);
    if (stamp) extraOutcomes.push(stamp);
    const others = frames.length - 1;
    const most = before.complete + before.fragment;
    if (others < before.complete) {
      life.push(finding(lifeReq, 'events-lost', at, `the upstream sent ${before.complete} events before it failed, but the client got ${others} before the error frame`, before.complete, others));
    } else if (others > most) {
      const extra = frames.slice(most, -1).map((f) => f.data.slice(0, 120));
      const sent = `the upstream's ${before.complete} events${before.fragment ? ' (and the event it broke inside)' : ''}`;
      life.push(finding(lifeReq, 'extra-frames', at, `besides ${sent} and the terminal frame, the gateway sent ${others - most} more; a failed stream ends with exactly one terminal frame`, 1, extra));
    }
  }
  if (parsed.issues.some((i) => i.kind === 'unterminated-event')) {
    life.push(finding(lifeReq, 'frame-not-terminated', `byte ${body.length}`, 'the stream ended inside an event (no blank line after the last data line), so a client drops it', 'a blank line', showBytes(body.subarray(Math.max(0, body.length - 60)))));
  }
  if (exchange.ending === 'deadline') {
    life.push(finding(lifeReq, 'stream-not-ended', `byte ${body.length}`, `when ${c.cause}, the gateway kept the client stream open until the harness gave up: it hangs`, 'end of stream', 'still open'));
  } else if (exchange.ending === 'broken') {
    life.push(finding(lifeReq, 'stream-broken', `byte ${body.length}`, `the gateway broke the connection (${exchange.error ?? 'closed'}) instead of ending the response after the frame`, 'end of stream', exchange.error ?? 'broken'));
  }
  if (shapeReq === lifeReq) return [judge(shapeReq, c.scenario, [...shape, ...life]), ...extraOutcomes];
  return [judge(shapeReq, c.scenario, shape), judge(lifeReq, c.scenario, life), ...extraOutcomes];
}
