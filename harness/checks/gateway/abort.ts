/**
 * GW-ABORT-001: seed 004 § Response Lifecycle, "Connection closes when: ... Client disconnects":
 * when the client leaves, the gateway aborts its upstream request, so an abandoned run does not
 * keep an ADK stream (and an LLM) busy. Observed on the mock's `/_mock/streams` counters around
 * a run whose upstream would otherwise stay open forever (a held-open stream).
 */
import type { CheckOutcome } from '../../model.ts';
import { fail, finding, pass, untested } from './types.ts';

export type MockStreams = { open: number; opened: number; closedByClient: number; completed: number };

export type AbortObservation = {
  /** Counters before the request. */
  before: MockStreams;
  /** Counters after the client left (the last of a bounded number of reads). */
  after: MockStreams;
  /** Bytes the client had when it left. */
  clientBytes: number;
  /** How long the harness waited for the upstream to close, in ms. */
  waitedMs: number;
};

/**
 * The run's upstream stream was closed by its client (the gateway). Counted on `closedByClient`
 * alone: other runs may open and complete streams meanwhile (the memory runs do), but only a
 * client that leaves closes one early.
 */
export function abortSeen(before: MockStreams, after: MockStreams): boolean {
  return after.closedByClient > before.closedByClient;
}

export function checkAbort(probe: string, o: AbortObservation | { error: string }): CheckOutcome[] {
  const req = 'GW-ABORT-001';
  if ('error' in o) return [untested(req, probe, o.error)];
  if (o.clientBytes === 0) return [untested(req, probe, 'the gateway sent no bytes of the held-open stream, so the harness could not tell a disconnect from a refusal')];
  if (o.after.opened <= o.before.opened) return [untested(req, probe, 'the mock opened no upstream stream for the run, so there was nothing to abort')];
  if (abortSeen(o.before, o.after)) return [pass(req, probe)];
  return [fail(req, probe, [finding(req, 'upstream-not-aborted', 'upstream', `the client left after ${o.clientBytes} bytes, but ${o.waitedMs} ms later the gateway still held its upstream stream open (the mock counts ${o.after.open} open streams, ${o.after.closedByClient - o.before.closedByClient} closed by their client since the run began)`, { closedByClient: o.before.closedByClient + 1 }, { closedByClient: o.after.closedByClient })])];
}

/** What the harness saw of one run whose client stream the gateway's total timeout ended. */
export type TimeoutAbortObservation = {
  /** How the client's exchange ended. */
  ending: string;
  /** The counters of the run's own upstream stream (`/_mock/streams?sessionId=`), after the wait. */
  session: MockStreams;
  /** How long the harness waited after the client stream ended, in ms. */
  waitedMs: number;
};

/**
 * GW-ABORT-002: seed 004 § Response Lifecycle, "Connection closes when: ... - Timeout (300s)
 * reached": the gateway's timeout ends its whole exchange, so the upstream request is closed too,
 * not left streaming into a gateway that no longer reads it (an abandoned LLM run, a socket held
 * until the ADK server gives up). Judged on the run's own session, so other runs cannot hide it.
 */
export function checkTimeoutAbort(probe: string, o: TimeoutAbortObservation | { error: string }): CheckOutcome[] {
  const req = 'GW-ABORT-002';
  if ('error' in o) return [untested(req, probe, o.error)];
  if (o.ending !== 'complete' && o.ending !== 'broken') return [untested(req, probe, 'the gateway did not end the stream itself (its timeout did not fire), so there was no timeout to close the upstream on')];
  if (o.session.opened === 0) return [untested(req, probe, 'the mock opened no upstream stream for the run')];
  if (o.session.closedByClient > 0 || o.session.open === 0) return [pass(req, probe)];
  return [fail(req, probe, [finding(req, 'upstream-open-after-timeout', 'upstream', `the gateway's total timeout ended the client stream, but ${o.waitedMs} ms later its upstream request was still open (the mock still streams to it)`, 'the upstream request closed', { open: o.session.open, closedByClient: o.session.closedByClient })])];
}

/**
 * GW-ABORT-001, before the first byte: an ADK run sends nothing until its first LLM call answers,
 * which can take many seconds, and a client may leave in that time. The gateway must abort its
 * upstream request then too, not only once upstream bytes flow (a disconnect listener installed in
 * the upstream's response callback misses it). The upstream here delays its answer longer than the
 * harness waits, so only a gateway that listens from the start closes it in time.
 */
export function checkEarlyAbort(probe: string, o: { session: MockStreams; waitedMs: number; upstreamDelayMs: number } | { error: string }): CheckOutcome[] {
  const req = 'GW-ABORT-001';
  if ('error' in o) return [untested(req, probe, o.error)];
  if (o.session.opened === 0) return [untested(req, probe, 'the mock opened no upstream stream for the run, so there was nothing to abort')];
  if (o.session.closedByClient > 0) return [pass(req, probe)];
  return [fail(req, probe, [finding(req, 'upstream-not-aborted-before-first-byte', 'upstream', `the client left before the upstream's first byte (the upstream was still preparing its answer, ${o.upstreamDelayMs} ms in all), but ${o.waitedMs} ms later the gateway still held its upstream request open: a disconnect is noticed only once upstream bytes flow`, { closedByClient: 1 }, { open: o.session.open, closedByClient: o.session.closedByClient })])];
}
