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
