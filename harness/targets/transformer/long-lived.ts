/**
 * The transformer's long-lived probe (issue 30 §2): one instance serves every run, as a singleton
 * transformer does in an app.
 *
 * - Sessions across turns (ABE-CORR-002): two sessions of two turns each (the same session id,
 *   other invocation ids): a follow-up after a transfer, and a long-running tool resumed in a later
 *   turn; the two sessions' turns run side by side in the same instance, so nothing of one may leak
 *   into the other.
 * - Isolation (ABE-ISO-001): orders of runs (harness/targets/isolation-orders.ts: up to 1,000 prior
 *   runs, a drawn history, up to 20 runs open at once), each in a new long-lived instance; every run
 *   open at the end is compared with the same frames fed first to a fresh instance. The two
 *   extremes (after 1,000 runs; 20 at once) always run, then orders drawn from the seed; a
 *   difference is shrunk to the smallest order (fast-check), named with its seed and replay line.
 *
 * The instances come from the runner (transformer.ts): for a session-form command, session
 * processes (the long-lived one takes up to 32 runs at once); for a module, the module loaded once
 * (fresh: imported again under another URL, so its top-level state is new). A one-shot command has
 * no history to leak: isolation is not applicable there, correlation across turns still is.
 */
import { setMaxListeners } from 'node:events';
import { maxListenersOf } from '../../../core/max-listeners.ts';
import type { Scenario } from '../../../schemas/types.ts';
import { loadScenarios } from '../../../scenarios/loader.ts';
import type { TimelineEntry } from '../../model.ts';
import { checkIsolation, checkSessionCorrelation, cutShort, describeCase, type IsolationCase, type IsolationObservation, type Turn } from '../../checks/transformer/long-lived.ts';
import type { TransformerRun } from '../../checks/transformer/observation.ts';
import { runDifference } from '../../checks/transformer/determinism.ts';
import { untested } from '../../checks/transformer/outcome.ts';
import { groupOf, priorBatch, priorIds, searchOrders } from '../isolation-orders.ts';
import type { Probe, RunEnv, ScenarioCheck } from '../types.ts';
import { currentLedger } from '../../fair-timer.ts';

export const longLivedProbeId = 'transformer-long-lived';

export const oneShotIsolation = 'a one-shot command starts a fresh process per run: no run has a history to leak into it (a command speaking the session form, docs/session-protocol.md, has this judged)';

/** A place runs go: the long-lived instance, or a fresh one. */
export type Instance = {
  /** `backToBack`: every line at once (a prior run, whose briefings are not read), else a millisecond apart. */
  run: (scenario: Scenario, sessionId: string, env: RunEnv, backToBack?: boolean) => Promise<TransformerRun>;
  close: () => Promise<void>;
};

export type LongLivedDeps = {
  /** A new long-lived instance, for the turns of the probe or one order; `concurrent`: runs it must take at once. */
  shared: (concurrent: number) => Promise<Instance>;
  /** A new instance, used for one baseline run; undefined: the form has no history (one-shot). */
  fresh?: () => Promise<Instance>;
  /** Whether a scenario exercises the transformer (the runner's `applies`). */
  applies: (s: Scenario) => boolean;
  /** "one session process" or "one module instance". */
  instanceLabel: string;
  replay: (seed: number) => string;
  /** The longest prior history of an order (default priorRunsMax, isolation-orders.ts). */
  historyMax?: number;
};

/** Corpus runs of different shapes: a plain answer, a tool call, a transfer, an audit trail. */
const pool = ['plain_text', 'single_tool_call', 'transfer_to_specialist', 'audit_data_sources', 'cedar_creek_briefing'];
/**
 * Two sessions of two turns each: a follow-up after a transfer (the sub-agent answers alone) and a
 * long-running tool resumed in a later turn (its result comes with the next request).
 */
const threadScenarios = [['transfer_to_specialist', 'transfer_followup_same_session'], ['long_running_tool_pending', 'long_running_tool_resumed']] as const;

export function createLongLivedProbe(deps: LongLivedDeps): Probe {
  return {
    id: longLivedProbeId,
    requirements: ['ABE-CORR-002', 'ABE-ISO-001'],
    // Compares briefings, never timing: its lines go in back to back or a millisecond apart.
    shared: true,
    async run(env): Promise<ScenarioCheck> {
      const probe = `probe:${longLivedProbeId}`;
      const began = performance.now();
      const all = loadScenarios().scenarios;
      const corpus = all.filter((s) => pool.includes(s.id) && deps.applies(s));
      const byId = new Map(all.map((s) => [s.id, s]));
      const missing = threadScenarios.flat().filter((id) => !byId.has(id));
      if (missing.length > 0) throw new Error(`the kit's corpus lacks ${missing.join(', ')}: reinstall adk-conformance`);
      const timeline: TimelineEntry[] = [];
      const note = (summary: string) => timeline.push({ t: 0, kind: 'note', summary });
      const outcomes = [];
      // Sessions across turns, in one long-lived instance: two threads whose turns run side by side.
      // A turn cut short (it overran, threw, its process was lost or could not start) says nothing of
      // correlation and may be the machine's doing: the turns run once more in a new instance.
      let threads = await sessionTurns(deps, byId, env);
      const cut = threads.flat().find((t) => cutShort(t.run) !== undefined);
      if (cut) {
        note(`sessions across turns: the ${cut.label} of session ${cut.sessionId} (${cut.scenario}) ${cutShort(cut.run)}; the turns ran again in a new instance`);
        threads = await sessionTurns(deps, byId, env);
      }
      note(`sessions across turns (${deps.instanceLabel}), the two sessions' turns side by side: ${threads.map((th) => `session ${th[0]?.sessionId}: ${th.map((t) => `${t.label} ${t.scenario} correlation_id ${JSON.stringify(t.run.events[0]?.value.correlation_id ?? null)}`).join(', ')}`).join('; ')}`);
      outcomes.push(...checkSessionCorrelation({ threads }, probe));
      if (!deps.fresh) {
        // The runner lists it not applicable for the one-shot form (runner-scope.ts) with the same reason.
        outcomes.push(untested('ABE-ISO-001', probe, oneShotIsolation));
        return { outcomes, timeline };
      }
      const t0 = performance.now();
      // Up to 20 runs open at once each listen on the run's signal.
      const listeners = maxListenersOf(env.signal);
      setMaxListeners(Math.max(listeners, 64), env.signal);
      // The isolation search ends by the probe's bound, which moved for the start-ups it waited on (waitForStartup).
      const iso = await isolation(deps, corpus, env, () => began + env.scenarioTimeoutMs - 3000 + (currentLedger()?.movedMs ?? 0)).finally(() => setMaxListeners(listeners, env.signal));
      note(`isolation (${deps.instanceLabel}): ${iso.tried} order(s) tried in ${((performance.now() - t0) / 1000).toFixed(1)} s (${iso.runs ?? 0} prior and history runs in all), fast-check seed ${iso.seed}${iso.counterexample ? `; differs: ${describeCase(iso.counterexample)}` : iso.passedExample ? `; e.g. ${describeCase(iso.passedExample)} gave the baseline's briefings` : ''}`);
      outcomes.push(...checkIsolation(iso, probe, deps.replay(env.seed)));
      return { outcomes, timeline };
    },
  };
}

/** The two threads' turns, in one new long-lived instance, each turn of the two threads side by side. */
async function sessionTurns(deps: LongLivedDeps, byId: Map<string, Scenario>, env: RunEnv): Promise<Turn[][]> {
  const shared = await deps.shared(21);
  try {
    const threads: Turn[][] = [];
    const sessions = threadScenarios.map((_, k) => `adk-conformance-thread-${env.seed}-${String.fromCharCode(97 + k)}`);
    for (let turn = 0; turn < 2; turn++) {
      // The threads' turns interleave line by line, as two users' runs reach one app.
      const runs = await Promise.all(threadScenarios.map(async (ids, k) => {
        const scenario = byId.get(ids[turn] as string) as Scenario;
        return { label: `turn ${turn + 1}`, scenario: scenario.id, sessionId: sessions[k] as string, run: await shared.run(scenario, sessions[k] as string, env) };
      }));
      runs.forEach((t, k) => { (threads[k] ??= []).push(t); });
    }
    return threads;
  } finally {
    await shared.close();
  }
}

const whole = (r: TransformerRun): boolean => !r.exit.timedOut && !r.exit.spawnError && r.events.length > 0;

async function isolation(deps: LongLivedDeps, corpus: Scenario[], env: RunEnv, deadline: () => number): Promise<IsolationObservation> {
  const fresh = deps.fresh as NonNullable<LongLivedDeps['fresh']>;
  // Each baseline has an instance of its own, so they run at once: one after another, a command's
  // five start-ups came before the first order.
  const baselines = new Map<string, TransformerRun>(await Promise.all(corpus.map(async (s): Promise<[string, TransformerRun]> => {
    const instance = await fresh();
    try { return [s.id, await instance.run(s, `adk-conformance-iso-${s.id}`, env)]; } finally { await instance.close(); }
  })));
  const broken = [...baselines].find(([, r]) => !whole(r));
  if (broken) return { instance: deps.instanceLabel, seed: env.seed, tried: 0, unobserved: `the baseline run of ${broken[0]}, first in a fresh instance, ${broken[1].exit.timedOut ? 'timed out' : 'emitted no briefing'}: nothing to compare with` };
  const ids = corpus.map((s) => s.id);
  const scenario = (id: string) => corpus.find((s) => s.id === id) as Scenario;
  const search = await searchOrders<IsolationCase>(ids, env.seed, Math.max(1000, deadline() - performance.now()), async (order, signal) => {
    const orderEnv = { ...env, signal };
    // A new long-lived instance per order: the order alone decides what it saw, so the shrunk one replays as printed.
    const shared = await deps.shared(Math.max(order.concurrent, priorBatch));
    try {
      // The prior runs go back to back, a few at a time, each under its own session: history, not turns of one thread.
      const prior = priorIds(ids, order.prior);
      for (let i = 0; i < prior.length && !signal.aborted; i += priorBatch) {
        await Promise.all(prior.slice(i, i + priorBatch).map((id, k) => shared.run(scenario(id), `adk-conformance-iso-p${i + k}`, orderEnv, true)));
      }
      if (signal.aborted) return {};
      for (const [i, id] of order.history.entries()) await shared.run(scenario(id), `adk-conformance-iso-h${i}`, orderEnv);
      if (signal.aborted) return {};
      const group = groupOf(ids, order);
      const runs = await Promise.all(group.map((id, i) => shared.run(scenario(id), `adk-conformance-iso-c${i}`, orderEnv)));
      if (signal.aborted) return {};
      let matched: IsolationCase | undefined;
      // Every run of the group is judged against its own baseline: any of them may be the one a leak reaches.
      for (const [i, run] of runs.entries()) {
        const id = group[i] as string;
        if (!whole(run)) continue; // a hang or a crash is ABE-TERM-001's; it says nothing of isolation
        const c: IsolationCase = { scenario: id, baseline: baselines.get(id) as TransformerRun, order, run };
        if (runDifference(c.baseline, run) !== undefined) return { differs: c };
        matched = c;
      }
      return matched ? { matched } : {};
    } finally {
      await shared.close();
    }
  }, deps.historyMax, env.signal);
  const cx = search.counterexample;
  return {
    instance: deps.instanceLabel, seed: search.seed, tried: search.tried, runs: search.runs,
    ...(cx ? { counterexample: cx.case, shrinks: cx.shrinks } : {}),
    ...(search.passedExample ? { passedExample: search.passedExample } : {}),
  };
}
