/**
 * GW-PASS-001 / GW-ENH-001: seed 004 § Streaming Pattern, "**Mutation:** Zero (raw passthrough
 * from ADK service)"; seed 000 §2.2B for `/run_sse_enhanced`. Every byte the mock wrote reaches
 * the client unchanged and in order: CR/LF as sent, empty lines, comments, invalid JSON and all.
 *
 * GW-PASS-004: seed 004 § Event Format, "No mutation of ADK event structure": when the upstream
 * ends normally, the client stream ends right there, with nothing appended (no DONE).
 *
 * The two are judged apart: PASS-001 compares the first N bytes (N = what the mock wrote), PASS-004
 * what follows them, so a gateway that appends a frame fails PASS-004 alone.
 */
import type { CheckOutcome } from '../../model.ts';
import { answered, commonPrefix, fail, finding, lineOf, noResponseFinding, noStreamReason, pass, showBytes, untested, type StreamRun } from './types.ts';

export function passthroughRequirement(endpoint: StreamRun['endpoint']): 'GW-PASS-001' | 'GW-ENH-001' {
  return endpoint === '/run_sse_enhanced' ? 'GW-ENH-001' : 'GW-PASS-001';
}

/** Whether the upstream answered with a stream the gateway must pass through (not an HTTP error). */
export function upstreamStreams(run: StreamRun): boolean {
  return run.upstream.status >= 200 && run.upstream.status <= 299;
}

export function checkPassthrough(run: StreamRun): CheckOutcome[] {
  if (!upstreamStreams(run)) return [];
  const req = passthroughRequirement(run.endpoint);
  const id = run.scenario;
  const { exchange, upstream } = run;
  const judgesEnd = upstream.end === 'eof';
  const endUntested = (reason: string): CheckOutcome[] => (judgesEnd ? [untested('GW-PASS-004', id, reason)] : []);

  const noStream = noStreamReason(exchange);
  const none = noResponseFinding(req, exchange);
  if (none) return [fail(req, id, [none]), ...endUntested(noStream ?? '')];
  if (noStream !== undefined) return [untested(req, id, noStream), ...endUntested(noStream)];
  if (exchange.status !== 200) {
    return [
      fail(req, id, [finding(req, 'unexpected-status', 'status', `the gateway answered ${answered(exchange)} to a valid, authenticated request instead of streaming the upstream's bytes`, 200, exchange.status)]),
      ...endUntested(`the gateway answered HTTP ${exchange.status}`),
    ];
  }

  const expected = upstream.bytes;
  const body = exchange.body;
  const same = commonPrefix(body, expected);
  if (same < expected.length) {
    const where = `byte ${same}`;
    if (same === body.length) {
      const how = exchange.ending === 'deadline' ? (exchange.error ? `the harness gave up waiting (${exchange.error})` : 'the gateway stopped sending (the harness gave up waiting)')
        : exchange.ending === 'stopped' ? 'the harness stopped waiting'
        : exchange.ending === 'broken' ? `the connection broke (${exchange.error ?? 'closed'})`
        : 'the stream ended';
      const f = finding(req, 'bytes-missing', where, `${how} after ${body.length} of the ${expected.length} bytes the upstream wrote (line ${lineOf(expected, same)} of the upstream body)`, showBytes(expected.subarray(same), 80), '');
      return [fail(req, id, [f]), ...endUntested('the upstream\'s bytes did not all arrive')];
    }
    const from = Math.max(0, same - 20);
    const f = finding(req, 'bytes-changed', where, `the client's byte ${same} (line ${lineOf(body, same)}) differs from the upstream's: the gateway changed the stream`, showBytes(expected.subarray(from, same + 60)), showBytes(body.subarray(from, same + 60)));
    return [fail(req, id, [f]), ...endUntested('the stream differed from the upstream\'s before its end')];
  }

  const extra = body.subarray(expected.length);
  if (!judgesEnd) {
    // Held open or reset by the upstream: what follows is the error checks' business (reset), or
    // must not exist at all (held open: the gateway cannot know the upstream is done).
    if (upstream.end === 'hold-open' && extra.length > 0) {
      return [fail(req, id, [finding(req, 'bytes-added', `byte ${expected.length}`, 'the gateway sent bytes the upstream never wrote while the upstream held the stream open', '', showBytes(extra))])];
    }
    return [pass(req, id)];
  }
  if (extra.length > 0) {
    return [pass(req, id), fail('GW-PASS-004', id, [finding('GW-PASS-004', 'bytes-added-after-eof', `byte ${expected.length}`, `after the upstream ended normally the gateway added ${extra.length} bytes; the gateway must add nothing (not even a [DONE]: the real ADK sends none)`, '', showBytes(extra))])];
  }
  if (exchange.ending === 'deadline') {
    return [pass(req, id), fail('GW-PASS-004', id, [finding('GW-PASS-004', 'stream-not-ended', `byte ${expected.length}`, 'the upstream ended normally but the gateway kept the client stream open until the harness gave up', 'end of stream', 'still open')])];
  }
  if (exchange.ending === 'broken') {
    return [pass(req, id), fail('GW-PASS-004', id, [finding('GW-PASS-004', 'stream-broken-after-eof', `byte ${expected.length}`, `the upstream ended normally but the gateway broke the connection instead of ending the response (${exchange.error ?? 'closed'}); a client sees a network error`, 'end of stream', exchange.error ?? 'broken')])];
  }
  return [pass(req, id), pass('GW-PASS-004', id)];
}
