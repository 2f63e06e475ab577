/**
 * The client's long-lived probe (issue 30 §2, CLI-ISO-001): one client instance reads every
 * stream, as an app keeps one client object for every turn. Orders of streams
 * (harness/targets/isolation-orders.ts: up to 1,000 prior streams, a drawn history, up to 20 open
 * at once) each run in a new long-lived instance, and each run's records are compared with the same
 * bytes read first by a fresh instance. The extremes always run, then orders drawn from the seed; a
 * difference is shrunk to the smallest order (seed printed, replay line given).
 *
 * The instances come from the runner (client.ts): for a session-form command, session processes
 * (the long-lived one takes up to 20 runs at once); for a module, ONE object from createClient
 * (fresh: the module imported again under another URL, so its top-level state is new too), whose
 * base URL serves every stream by the run's sessionId (cases.ts serveCases). A one-shot
 * command has no history to leak: the requirement is not applicable there.
 */
import { setMaxListeners } from 'node:events';
import { maxListenersOf } from '../../../core/max-listeners.ts';
import type { TimelineEntry } from '../../model.ts';
import { checkClientIsolation, clientIsolationId, describeClientCase, recordsDifference, type ClientIsolationCase, type ClientIsolationObservation } from '../../checks/client/long-lived.ts';
import type { ReportedRecord } from '../../checks/client/index.ts';
import { byteCases, type ByteCase } from './cases.ts';
import type { Drive } from './drive.ts';
import type { Probe, RunEnv, ScenarioCheck } from '../types.ts';
import { groupOf, priorBatch, priorIds, searchOrders } from '../isolation-orders.ts';
import { currentLedger } from '../../fair-timer.ts';

export const clientLongLivedProbeId = 'client-long-lived';

export const clientOneShotIsolation = 'a one-shot command starts a fresh process per stream: no stream has a history to leak into it (a command speaking the session form, docs/session-protocol.md, has this judged)';

/**
 * A stream cut inside a UTF-8 sequence (a proxy's deadline, a broken connection): a decoder kept
 * across runs holds its first bytes and spoils the next stream's first line.
 */
export const cutMidUtf8: ByteCase = {
  id: 'cut-mid-utf8', requirements: [clientIsolationId], transport: 'reset',
  chunks: [{ bytes: Buffer.concat([Buffer.from('data: {"a":1}\n\ndata: {"t":"', 'utf8'), Buffer.from([0xe2, 0x82])]), delayMs: 0 }],
};

/** Streams that end cleanly, inside an event, mid-line, mid-sequence, with a BOM, in CRLF. */
const poolIds = ['event-field', 'unfinished-event-at-eof', 'cut-mid-line', 'crlf', 'bom'];
export const isolationCases: ByteCase[] = [...poolIds.map((id) => {
  const c = byteCases.find((b) => b.id === id);
  if (!c) throw new Error(`the kit's byte cases lack ${id}: reinstall adk-conformance`);
  return c;
}), cutMidUtf8];

/** A place runs go: the long-lived instance, or a fresh one. */
export type ClientInstance = {
  read: (c: ByteCase, env: RunEnv) => Promise<Drive>;
  close: () => Promise<void>;
};

export type ClientLongLivedDeps = {
  /** The instance every run shares; `concurrent`: runs it must take at once. */
  shared: (concurrent: number) => Promise<ClientInstance>;
  /** A new instance, for one baseline run; undefined: the form has no history (one-shot). */
  fresh?: () => Promise<ClientInstance>;
  /** "one session process" or "one client object". */
  instanceLabel: string;
  replay: (seed: number) => string;
  /** The longest prior history of an order (default priorRunsMax, isolation-orders.ts). */
  historyMax?: number;
};

const whole = (d: Drive): boolean => !d.exit.timedOut && !d.exit.spawnError && d.exit.threw === undefined && d.records.length > 0;

export function createClientLongLivedProbe(deps: ClientLongLivedDeps): Probe {
  return {
    id: clientLongLivedProbeId,
    requirements: [clientIsolationId],
    // Compares records, never timing: its byte cases are served at once.
    shared: true,
    // A one-shot command is known only once the runner started: the probe then reports nothing and
    // the engine leaves it out of the run, while the runner lists CLI-ISO-001 not applicable, with why.
    auxiliary: true,
    // Its byte cases are the kit's own, but an --upstream run runs no probe (harness/upstream.ts).
    mockOnly: true,
    async run(env): Promise<ScenarioCheck> {
      const probe = `probe:${clientLongLivedProbeId}`;
      const timeline: TimelineEntry[] = [];
      if (!deps.fresh) return { outcomes: [], timeline };
      const began = performance.now();
      // The isolation search ends by the probe's bound, which moved for the start-ups it waited on (waitForStartup).
      const iso = await isolation(deps, env, () => began + env.scenarioTimeoutMs - 3000 + (currentLedger()?.movedMs ?? 0));
      timeline.push({ t: 0, kind: 'note', summary: `isolation (${deps.instanceLabel}): ${iso.tried} order(s) tried in ${((performance.now() - began) / 1000).toFixed(1)} s (${iso.runs ?? 0} prior and history streams in all), fast-check seed ${iso.seed}${iso.counterexample ? `; differs: ${describeClientCase(iso.counterexample)}` : iso.passedExample ? `; e.g. ${describeClientCase(iso.passedExample)} gave the baseline's records` : ''}` });
      return { outcomes: checkClientIsolation(iso, probe, deps.replay(env.seed)), timeline };
    },
  };
}

async function isolation(deps: ClientLongLivedDeps, env: RunEnv, deadline: () => number): Promise<ClientIsolationObservation> {
  const fresh = deps.fresh as NonNullable<ClientLongLivedDeps['fresh']>;
  const label = deps.instanceLabel;
  const baselines = new Map<string, ReportedRecord[]>();
  for (const c of isolationCases) {
    const instance = await fresh();
    try {
      const d = await instance.read(c, env);
      if (!whole(d)) return { instance: label, seed: env.seed, tried: 0, unobserved: `the baseline run of byte case ${c.id}, first in a fresh instance, ${d.exit.timedOut ? 'timed out' : d.exit.spawnError ? `could not start (${d.exit.spawnError})` : d.exit.threw ? `threw (${d.exit.threw})` : 'reported no record'}: nothing to compare with` };
      baselines.set(c.id, d.records);
    } finally { await instance.close(); }
  }
  const ids = isolationCases.map((c) => c.id);
  // Up to 20 runs open at once each listen on the run's signal.
  const listeners = maxListenersOf(env.signal);
  setMaxListeners(Math.max(listeners, 64), env.signal);
  const byId = (id: string) => isolationCases.find((c) => c.id === id) as ByteCase;
  try {
    const search = await searchOrders<ClientIsolationCase>(ids, env.seed, Math.max(1000, deadline() - performance.now()), async (order, signal) => {
      const orderEnv = { ...env, signal };
      // A new long-lived instance per order: the order alone decides, so the shrunk one replays as printed.
      const shared = await deps.shared(Math.max(order.concurrent, priorBatch));
      const group = groupOf(ids, order);
      let runs: Drive[];
      try {
        const prior = priorIds(ids, order.prior);
        for (let i = 0; i < prior.length && !signal.aborted; i += priorBatch) await Promise.all(prior.slice(i, i + priorBatch).map((id) => shared.read(byId(id), orderEnv)));
        if (signal.aborted) return {};
        for (const id of order.history) await shared.read(byId(id), orderEnv);
        if (signal.aborted) return {};
        runs = await Promise.all(group.map((id) => shared.read(byId(id), orderEnv)));
        if (signal.aborted) return {};
      } finally { await shared.close(); }
      let matched: ClientIsolationCase | undefined;
      // Every run of the group is judged against its own baseline: any of them may be the one a leak reaches.
      for (const [i, d] of runs.entries()) {
        const id = group[i] as string;
        if (!whole(d)) continue; // a hang or a crash is CLI-END-001's or the fail fast's; it says nothing of isolation
        const c: ClientIsolationCase = { stream: id, baseline: baselines.get(id) as ReportedRecord[], order, records: d.records };
        if (recordsDifference(c.baseline, c.records) !== undefined) return { differs: c };
        matched = c;
      }
      return matched ? { matched } : {};
    }, deps.historyMax, env.signal);
    const cx = search.counterexample;
    return {
      instance: label, seed: search.seed, tried: search.tried, runs: search.runs,
      ...(cx ? { counterexample: cx.case, shrinks: cx.shrinks } : {}),
      ...(search.passedExample ? { passedExample: search.passedExample } : {}),
    };
  } finally {
    setMaxListeners(listeners, env.signal);
  }
}
