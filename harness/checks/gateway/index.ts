/**
 * Every check that reads one scenario run through the gateway's streaming endpoint, chosen by what
 * the mock scripted for it: a stream that ends (passthrough, nothing added), a stream that breaks
 * (passthrough, then STREAM_ERROR), an HTTP error (the status frame), pauses (flushing, silence),
 * and what the upstream request carried besides the body (no client credentials, its own Host).
 */
import type { CheckOutcome } from '../../model.ts';
import { checkErrorDetail } from './error-detail.ts';
import { checkForwarding } from './forwarding.ts';
import { checkStreamHeaders } from './headers.ts';
import { checkPassthrough, upstreamStreams } from './passthrough.ts';
import { checkTerminalFrame } from './terminal-frame.ts';
import { checkFlushing, checkSilence } from './timing.ts';
import type { StreamRun } from './types.ts';
import { checkUpstreamHeaders } from './upstream-headers.ts';

export function checkStreamRun(run: StreamRun): CheckOutcome[] {
  const outcomes: CheckOutcome[] = [
    ...checkStreamHeaders(run.scenario, run.exchange),
    ...checkPassthrough(run),
    ...checkForwarding(run),
    ...(run.clientHeaders && run.upstreamHost ? checkUpstreamHeaders({ scenario: run.scenario, journal: run.journal, clientHeaders: run.clientHeaders, upstreamHost: run.upstreamHost }) : []),
  ];
  if (!upstreamStreams(run)) {
    outcomes.push(...checkTerminalFrame({ scenario: run.scenario, exchange: run.exchange, prefix: new Uint8Array(0), kind: 'status', upstreamStatus: run.upstream.status, cause: `the upstream answered HTTP ${run.upstream.status}` }));
    outcomes.push(...checkErrorDetail({ scenario: run.scenario, exchange: run.exchange, upstreamStatus: run.upstream.status, upstreamBody: run.upstream.bytes, upstreamHost: run.upstreamHost }));
    return outcomes;
  }
  if (run.upstream.end === 'reset') {
    outcomes.push(...checkTerminalFrame({ scenario: run.scenario, exchange: run.exchange, prefix: run.upstream.bytes, kind: 'stream-error', cause: 'the upstream connection broke mid-stream' }));
  }
  outcomes.push(...checkFlushing(run.scenario, run.upstream, run.exchange), ...checkSilence(run.scenario, run.upstream, run.exchange));
  return outcomes;
}
