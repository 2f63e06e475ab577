/**
 * The server-helper checks (SRV-*), pure functions of what the harness observed: the events the
 * Runner yielded beside the events the helper served, and the Runner's record around a client
 * that left, a client that read nothing, and an empty message. The probes that make the
 * observations are harness/targets/adk-server/probes.ts.
 */
import { finding } from '../gateway/types.ts';
import type { CheckOutcome, Finding } from '../../model.ts';

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first place two JSON values differ (key order aside), as a JSON pointer, with what each side holds there. */
export function firstDifference(yielded: unknown, served: unknown, at = ''): { path: string; yielded: unknown; served: unknown } | undefined {
  if (Array.isArray(yielded) && Array.isArray(served)) {
    for (let i = 0; i < Math.max(yielded.length, served.length); i++) {
      if (i >= yielded.length || i >= served.length) return { path: `${at}/${i}`, yielded: yielded[i], served: served[i] };
      const d = firstDifference(yielded[i], served[i], `${at}/${i}`);
      if (d) return d;
    }
    return undefined;
  }
  if (isRecord(yielded) && isRecord(served)) {
    for (const k of Object.keys(yielded)) {
      if (!Object.hasOwn(served, k)) return { path: `${at}/${k}`, yielded: yielded[k], served: undefined };
      const d = firstDifference(yielded[k], served[k], `${at}/${k}`);
      if (d) return d;
    }
    for (const k of Object.keys(served)) if (!Object.hasOwn(yielded, k)) return { path: `${at}/${k}`, yielded: undefined, served: served[k] };
    return undefined;
  }
  return Object.is(yielded, served) ? undefined : { path: at, yielded, served };
}

/** SRV-FID-001: every yielded event is served, in order, as the Runner yielded it (JSON.stringify's value). */
export function checkFidelity(run: string, yielded: readonly unknown[], served: readonly unknown[]): Finding[] {
  const out: Finding[] = [];
  const n = Math.min(yielded.length, served.length);
  for (let i = 0; i < n; i++) {
    const d = firstDifference(yielded[i], served[i]);
    if (!d) continue;
    const what = d.served === undefined ? `drops ${d.path}` : d.yielded === undefined ? `adds ${d.path}` : `changes ${d.path}`;
    out.push({ ...finding('SRV-FID-001', d.served === undefined ? 'field-dropped' : d.yielded === undefined ? 'field-added' : 'field-changed', `${run}/event[${i}]${d.path}`, `the served event[${i}] ${what}: the Runner yielded ${JSON.stringify(d.yielded)?.slice(0, 120) ?? 'nothing there'}, the stream carries ${JSON.stringify(d.served)?.slice(0, 120) ?? 'nothing there'} (seed 004: no mutation of ADK event structure)`, d.yielded ?? null, d.served ?? null), scenario: run });
    if (out.length >= 5) break;
  }
  if (served.length < yielded.length) out.push({ ...finding('SRV-FID-001', 'event-dropped', `${run}/event[${served.length}]`, `the Runner yielded ${yielded.length} events and the stream carries ${served.length}: event[${served.length}] onwards never reached the client`, yielded.length, served.length), scenario: run });
  if (served.length > yielded.length) out.push({ ...finding('SRV-FID-001', 'event-added', `${run}/event[${yielded.length}]`, `the stream carries ${served.length} events, the Runner yielded ${yielded.length}: event[${yielded.length}] is not the Runner's`, yielded.length, served.length), scenario: run });
  return out;
}

/** What the abort probe saw after the client closed its socket mid-run. */
export type AbortObservation = { eventsRead: number; ended?: string; aborted: boolean; msToStop?: number; callsAtClose: number; callsAfterBound: number; boundMs: number };

/** SRV-ABORT-001: the run stops once the client left: its generator ended or its signal aborted, and the model is called no more. */
export function checkAbort(o: AbortObservation): CheckOutcome {
  const scenario = 'probe:adk-server-abort';
  if (o.eventsRead === 0) return { requirement: 'SRV-ABORT-001', scenario, status: 'untested', findings: [], reason: 'the helper served no event of the looping run, so there was no run to leave' };
  const stopped = o.ended !== undefined || o.aborted;
  const findings: Finding[] = [];
  if (!stopped) findings.push({ ...finding('SRV-ABORT-001', 'run-not-stopped', scenario, `the client closed its connection after ${o.eventsRead} events, and ${o.boundMs} ms later the Runner's run was neither aborted (its abortSignal) nor ended (its generator returned): a run nobody reads keeps its resources${o.callsAfterBound > o.callsAtClose ? ` and kept calling the model (${o.callsAfterBound - o.callsAtClose} calls after the close)` : ''}`, `the run aborted or ended within ${o.boundMs} ms`, o.ended ?? 'still running'), scenario });
  else if (o.callsAfterBound > o.callsAtClose + 1) findings.push({ ...finding('SRV-ABORT-001', 'model-still-called', scenario, `the client closed its connection, and the model was called ${o.callsAfterBound - o.callsAtClose} more times before the run stopped ${o.msToStop ?? '?'} ms later`, 'at most the call in flight', o.callsAfterBound - o.callsAtClose), scenario });
  return { requirement: 'SRV-ABORT-001', scenario, status: findings.length ? 'failed' : 'passed', findings };
}

/** What the backpressure probe saw: a client that read nothing while the Runner had many large events to give. */
export type BackpressureObservation = { status?: number; offered: number; eventBytes: number; pulled: number; boundEvents: number; waitedMs: number };

/** SRV-BP-001: the helper pulls the Runner no further ahead of the client than the socket's buffers hold. */
export function checkBackpressure(o: BackpressureObservation): CheckOutcome {
  const scenario = 'probe:adk-server-backpressure';
  if (o.status !== 200 || o.pulled === 0) return { requirement: 'SRV-BP-001', scenario, status: 'untested', findings: [], reason: `the helper ${o.status === undefined ? 'gave no response' : `answered ${o.status}`} and pulled ${o.pulled} events of the flood run, so there was no stream to hold back` };
  const findings = o.pulled > o.boundEvents ? [{ ...finding('SRV-BP-001', 'no-backpressure', scenario, `with a client that read nothing for ${o.waitedMs} ms, the helper pulled ${o.pulled} of the Runner's ${o.offered} events (${Math.round((o.pulled * o.eventBytes) / 1e6)} MB) into memory: it writes without waiting for the socket to drain`, `at most ${o.boundEvents} events (${Math.round((o.boundEvents * o.eventBytes) / 1e6)} MB, more than loopback's socket buffers hold)`, o.pulled), scenario }] : [];
  return { requirement: 'SRV-BP-001', scenario, status: findings.length ? 'failed' : 'passed', findings };
}

/** One empty message sent and what followed. */
export type EmptyObservation = { label: string; message: unknown; status?: number; modelCalls: number };

/** SRV-EMPTY-001: a message with nothing in it never reaches the model (any answer is allowed). */
export function checkEmpty(list: readonly EmptyObservation[]): CheckOutcome {
  const scenario = 'probe:adk-server-empty-message';
  const answered = list.filter((o) => o.status !== undefined);
  if (answered.length === 0) return { requirement: 'SRV-EMPTY-001', scenario, status: 'untested', findings: [], reason: 'the helper answered none of the empty messages' };
  const findings = list.filter((o) => o.modelCalls > 0).map((o) => ({ ...finding('SRV-EMPTY-001', 'empty-message-ran', `${scenario}/${o.label}`, `newMessage ${JSON.stringify(o.message)} has nothing in it, yet the model was called ${o.modelCalls} time${o.modelCalls === 1 ? '' : 's'} (HTTP ${o.status ?? 'none'})`, 'no model call (refuse it: 400, or an error line)', o.modelCalls), scenario }));
  return { requirement: 'SRV-EMPTY-001', scenario, status: findings.length ? 'failed' : 'passed', findings };
}
