/**
 * The transformer's long-lived probe (issue 30 §2): one instance serves every run, as a singleton
 * transformer does in an app.
 *
 * - Sessions across turns (ABE-CORR-002): two turns of one session (the same session id, other
 *   invocation ids) and a run of another session, fed to the same instance one after another.
 * - Isolation (ABE-ISO-001): fast-check draws a history of corpus runs and a number of runs open at
 *   once; the probe runs the history in the long-lived instance, then the case with the others open
 *   beside it, and compares its briefings with the same frames fed first to a fresh instance. A
 *   difference is shrunk to the smallest history (fast-check's shrinking, seed printed).
 *
 * The instances come from the runner (transformer.ts): for a session-form command, session
 * processes (the long-lived one takes up to 32 runs at once); for a module, the module loaded once
 * (fresh: imported again under another URL, so its top-level state is new). A one-shot command has
 * no history to leak: isolation is not applicable there, correlation across turns still is.
 */
import fc from 'fast-check';
import type { Scenario } from '../../../schemas/types.ts';
import { loadScenarios } from '../../../scenarios/loader.ts';
import type { TimelineEntry } from '../../model.ts';
import { checkIsolation, checkSessionCorrelation, describeCase, type IsolationCase, type IsolationObservation, type Turn } from '../../checks/transformer/long-lived.ts';
import type { TransformerRun } from '../../checks/transformer/observation.ts';
import { runDifference } from '../../checks/transformer/determinism.ts';
import { untested } from '../../checks/transformer/outcome.ts';
import type { Probe, RunEnv, ScenarioCheck } from '../types.ts';

export const longLivedProbeId = 'transformer-long-lived';

export const oneShotIsolation = 'a one-shot command starts a fresh process per run: no run has a history to leak into it (a command speaking the session form, docs/session-protocol.md, has this judged)';

/** A place runs go: the long-lived instance, or a fresh one. */
export type Instance = {
  run: (scenario: Scenario, sessionId: string, env: RunEnv) => Promise<TransformerRun>;
  close: () => Promise<void>;
};

export type LongLivedDeps = {
  /** The instance every run of the probe shares; `concurrent`: runs it must take at once. */
  shared: (concurrent: number) => Promise<Instance>;
  /** A new instance, used for one baseline run; undefined: the form has no history (one-shot). */
  fresh?: () => Promise<Instance>;
  /** Whether a scenario exercises the transformer (the runner's `applies`). */
  applies: (s: Scenario) => boolean;
  /** "one session process" or "one module instance". */
  instanceLabel: string;
  replay: (seed: number) => string;
};

/** Corpus runs of different shapes: a plain answer, a tool call, a transfer, an audit trail. */
const pool = ['plain_text', 'single_tool_call', 'transfer_to_specialist', 'audit_data_sources', 'cedar_creek_briefing'];
const turnIds = ['plain_text', 'single_tool_call', 'transfer_to_specialist'] as const;

export function createLongLivedProbe(deps: LongLivedDeps): Probe {
  return {
    id: longLivedProbeId,
    requirements: ['ABE-CORR-002', 'ABE-ISO-001'],
    async run(env): Promise<ScenarioCheck> {
      const probe = `probe:${longLivedProbeId}`;
      const corpus = loadScenarios().scenarios.filter((s) => pool.includes(s.id) && deps.applies(s));
      const byId = new Map(corpus.map((s) => [s.id, s]));
      const timeline: TimelineEntry[] = [];
      const note = (summary: string) => timeline.push({ t: 0, kind: 'note', summary });
      const outcomes = [];
      // Sessions across turns, in the instance every run shares.
      const shared = await deps.shared(21);
      try {
        const [a, b, c] = turnIds.map((id) => byId.get(id));
        if (!a || !b || !c) throw new Error(`the kit's corpus lacks ${turnIds.join(' or ')}: reinstall adk-conformance`);
        const sessionA = `adk-conformance-thread-${env.seed}-a`;
        const sessionB = `adk-conformance-thread-${env.seed}-b`;
        const turns: Turn[] = [];
        turns.push({ label: 'turn 1', scenario: a.id, sessionId: sessionA, run: await shared.run(a, sessionA, env) });
        turns.push({ label: 'turn 2', scenario: b.id, sessionId: sessionA, run: await shared.run(b, sessionA, env) });
        const other: Turn = { label: 'other session', scenario: c.id, sessionId: sessionB, run: await shared.run(c, sessionB, env) };
        note(`sessions across turns (${deps.instanceLabel}): session ${sessionA} turn 1 ${a.id}, turn 2 ${b.id}; session ${sessionB} ${c.id}; correlation_ids ${[...turns, other].map((t) => JSON.stringify(t.run.events[0]?.value.correlation_id ?? null)).join(', ')}`);
        outcomes.push(...checkSessionCorrelation({ turns, other }, probe));

        if (!deps.fresh) {
          // The runner lists it not applicable for the one-shot form (runner-scope.ts) with the same reason.
          outcomes.push(untested('ABE-ISO-001', probe, oneShotIsolation));
          return { outcomes, timeline };
        }
        const iso = await isolation(deps, shared, corpus, env);
        note(`isolation (${deps.instanceLabel}): ${iso.tried} order(s) tried, fast-check seed ${iso.seed}${iso.counterexample ? `; differs: ${describeCase(iso.counterexample)}` : iso.passedExample ? `; e.g. ${describeCase(iso.passedExample)} gave the baseline's briefings` : ''}`);
        outcomes.push(...checkIsolation(iso, probe, deps.replay(env.seed)));
        return { outcomes, timeline };
      } finally {
        await shared.close();
      }
    },
  };
}

const whole = (r: TransformerRun): boolean => !r.exit.timedOut && !r.exit.spawnError && r.events.length > 0;

async function isolation(deps: LongLivedDeps, shared: Instance, corpus: Scenario[], env: RunEnv): Promise<IsolationObservation> {
  const fresh = deps.fresh as NonNullable<LongLivedDeps['fresh']>;
  const baselines = new Map<string, TransformerRun>();
  for (const s of corpus) {
    const instance = await fresh();
    try { baselines.set(s.id, await instance.run(s, `adk-conformance-iso-${s.id}`, env)); } finally { await instance.close(); }
  }
  const broken = [...baselines].find(([, r]) => !whole(r));
  if (broken) return { instance: deps.instanceLabel, seed: env.seed, tried: 0, unobserved: `the baseline run of ${broken[0]}, first in a fresh instance, ${broken[1].exit.timedOut ? 'timed out' : 'emitted no briefing'}: nothing to compare with` };
  const ids = corpus.map((s) => s.id);
  const scenario = (id: string) => corpus.find((s) => s.id === id) as Scenario;
  let tried = 0;
  let passedExample: IsolationCase | undefined;
  // Shrinking evaluates smaller and smaller failing cases: the last failure seen is the one reported.
  let lastFailing: IsolationCase | undefined;
  const property = fc.asyncProperty(
    fc.constantFrom(...ids), fc.array(fc.constantFrom(...ids), { maxLength: 8 }), fc.integer({ min: 1, max: 20 }),
    async (target, history, concurrent) => {
      tried++;
      for (const [i, id] of history.entries()) await shared.run(scenario(id), `adk-conformance-iso-h${tried}-${i}`, env);
      // Every run of the group is judged against its own baseline: any of them may be the one a leak reaches.
      const group = [target, ...Array.from({ length: concurrent - 1 }, (_, i) => ids[(i + tried) % ids.length] as string)];
      const runs = await Promise.all(group.map((id, i) => shared.run(scenario(id), `adk-conformance-iso-c${tried}-${i}`, env)));
      for (const [i, run] of runs.entries()) {
        const id = group[i] as string;
        const c: IsolationCase = { scenario: id, baseline: baselines.get(id) as TransformerRun, history, concurrent, run };
        if (!whole(run)) continue; // a hang or a crash is ABE-TERM-001's; it says nothing of isolation
        if (runDifference(c.baseline, run) !== undefined) { lastFailing = c; return false; }
        passedExample = c;
      }
      return true;
    },
  );
  // The two extremes are always tried first: a long history alone, and the most runs open at once.
  const examples: Array<[string, string[], number]> = [[ids[0] as string, [...ids, ...ids].slice(0, 8), 1], [ids[ids.length - 1] as string, [], 20]];
  const details = await fc.check(property, { seed: env.seed, numRuns: 4 + examples.length, examples, interruptAfterTimeLimit: Math.floor(env.scenarioTimeoutMs * 2), markInterruptAsFailure: false });
  if (details.failed && lastFailing) return { instance: deps.instanceLabel, seed: env.seed, tried, counterexample: lastFailing };
  return { instance: deps.instanceLabel, seed: env.seed, tried, ...(passedExample ? { passedExample } : {}) };
}
