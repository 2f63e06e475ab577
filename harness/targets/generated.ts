/**
 * Generated runs through a part runner. The batch's runs are ordinary scenarios to the engine
 * (served by the run's mock, checked by the runner's own checks); this wrapper only notes which of
 * them failed, and adds the probe `generated`, which takes the first failing run and shrinks it
 * with fast-check to the smallest run that still fails the same requirements, reporting it with
 * the seed and the one line that replays the generated runs (docs/hostile.md "Generated runs").
 *
 * A shrink candidate is a scenario no mock was started with, so each one is served by a mock of
 * its own. That needs a runner that reads every scenario from `env.mockUrl` (the transformer, the
 * audit bridge); a gateway's upstream is fixed when its process starts, so its failing runs are
 * reported as they are, unshrunk.
 */
import type { Scenario } from '../../schemas/types.ts';
import { startMock } from '../../mock-adk/server/start.ts';
import type { CheckOutcome, Finding, TimelineEntry } from '../model.ts';
import { requirements } from '../requirements/index.ts';
import { describeGenerated, generatedIndex, generatedReplay, shrinkGenerated, type GeneratedBatch } from '../generated.ts';
import type { PartRunner, Probe, RunEnv, ScenarioCheck } from './types.ts';

export const generatedProbeId = 'generated';

export type GeneratedRunsOptions = {
  batch: GeneratedBatch;
  /** `npx adk-conformance run <target flags>`: the replay line adds `--generated N --seed S --grep generated`. */
  replayBase: string;
  /** Shrink failing runs (false for a runner whose mock is fixed at start: the gateway). */
  shrink: boolean;
  /** Share of the engine's scenario bound the shrinking may take (default 0.7): the probe must answer within that bound. */
  shrinkShare?: number;
};

type FailedRun = { requirements: string[]; check: ScenarioCheck; durationMs: number };

/** Findings shown per requirement of the shrunk run (the report keeps them short). */
const findingsShown = 5;

export function withGeneratedRuns(runner: PartRunner, options: GeneratedRunsOptions): PartRunner {
  const { batch } = options;
  if (batch.count === 0) return runner;
  const share = options.shrinkShare ?? 0.7;
  if (!(share > 0 && share < 1)) throw new TypeError(`withGeneratedRuns: shrinkShare must be between 0 and 1, got ${share}`);
  // By id: a profile may hand the engine copies of the batch's scenario objects.
  const inBatch = new Set(batch.scenarios.map((s) => s.id));
  /** Batch index → the requirements its run failed, its check, and how long the run took. */
  const failed = new Map<number, FailedRun>();
  const partRequirements = [...requirements.values()].filter((r) => r.part === runner.part).map((r) => r.id);

  async function runScenario(scenario: Scenario, env: RunEnv): Promise<ScenarioCheck> {
    const started = performance.now();
    const check = await runner.runScenario(scenario, env);
    const k = inBatch.has(scenario.id) ? generatedIndex(scenario.id) : undefined;
    const requirementIds = [...new Set(check.outcomes.filter((o) => o.status === 'failed').map((o) => o.requirement))];
    if (k !== undefined && requirementIds.length > 0) failed.set(k, { requirements: requirementIds, check, durationMs: performance.now() - started });
    return check;
  }

  const probe: Probe = {
    id: generatedProbeId,
    requirements: partRequirements,
    auxiliary: true,
    run: (env) => shrinkFirstFailure(runner, options, failed, env, share),
  };
  // Only where a generated run applies (the normaliser takes none). `applies` is not asked of a
  // runner that will not shrink: the gateway's plans a run for each scenario it is asked about.
  const shrinks = options.shrink && batch.scenarios.some((s) => runner.applies(s));
  return { ...runner, runScenario, probes: [...(runner.probes ?? []), ...(shrinks ? [probe] : [])] };
}

async function shrinkFirstFailure(runner: PartRunner, options: GeneratedRunsOptions, failed: Map<number, FailedRun>, env: RunEnv, share: number): Promise<ScenarioCheck> {
  const { batch } = options;
  const replay = generatedReplay(options.replayBase, batch.count, batch.seed);
  const first = [...failed.keys()].sort((a, b) => a - b)[0];
  if (first === undefined) {
    return { outcomes: [], timeline: [{ t: 0, kind: 'note', summary: `no generated run failed (${batch.count} drawn with seed ${batch.seed}; those the selection left out did not run)` }] };
  }
  const original = failed.get(first) as FailedRun;
  const targets = new Set(original.requirements);
  const checks = new Map<Scenario, ScenarioCheck>();
  const started = performance.now();
  const fails = async (candidate: Scenario): Promise<string | undefined> => {
    // Past the engine's bound nothing is reported anyway: let fast-check see passes and stop.
    if (env.signal.aborted) return undefined;
    const mock = await startMock({ host: '127.0.0.1', port: 0, scenarios: [candidate], logger: false });
    try {
      const check = await runner.runScenario(candidate, { ...env, mockUrl: mock.url });
      const bad = check.outcomes.filter((o) => o.status === 'failed' && targets.has(o.requirement));
      if (bad.length === 0) return undefined;
      checks.set(candidate, check);
      const f = bad[0]?.findings[0];
      return `${bad.map((o) => o.requirement).join(', ')}${f ? `: ${f.code} at ${f.path}: ${f.message}` : ''}`;
    } finally {
      await mock.close();
    }
  };
  const budget = Math.floor(env.scenarioTimeoutMs * share);
  const failedCount = `${failed.size} of the ${batch.count} generated runs (seed ${batch.seed}) failed`;
  const firstRun = batch.scenarios[first] as Scenario;
  let cx: Scenario = firstRun;
  let check: ScenarioCheck | undefined = original.check;
  let how: string;
  let path = String(first);
  // fast-check stops between runs, so the last one may start just before the limit: keep one run's time free.
  const limit = budget - Math.ceil(original.durationMs) - 100;
  if (limit < original.durationMs) {
    how = `not shrunk (one run takes ${Math.round(original.durationMs)} ms and the probe has ${budget} ms: raise --timeout-ms to shrink); it is`;
  } else {
    const shrunk = await shrinkGenerated(batch, first, fails, limit);
    if (!shrunk.reproduced) {
      const elapsed = Math.round(performance.now() - started);
      return { outcomes: [], timeline: [{ t: elapsed, kind: 'note', summary: `${failedCount}; replaying ${firstRun.id} passed this time (${shrunk.runs} run(s)), so there is nothing to shrink: the implementation does not answer the same run the same way` }] };
    }
    cx = shrunk.counterexample;
    check = checks.get(cx);
    path = shrunk.path;
    how = `shrunk in ${shrunk.shrinks} step(s) over ${shrunk.runs} run(s)${shrunk.interrupted ? ` (stopped by the ${limit} ms budget)` : ''} to`;
  }
  const elapsed = Math.round(performance.now() - started);
  const outcomes: CheckOutcome[] = [...targets].flatMap((requirement): CheckOutcome[] => {
    const own = (check?.outcomes ?? []).filter((o) => o.requirement === requirement && o.status === 'failed').flatMap((o) => o.findings);
    if (own.length === 0) return [];
    const summary: Finding = {
      requirement,
      code: 'generated-run-fails',
      path: `generated[${first}]`,
      message: `generated run ${first} of ${batch.count} (seed ${batch.seed}) fails ${requirement}; ${how}: ${describeGenerated(cx)}. First finding on it: ${own[0]?.message ?? ''}`,
      expected: `every generated run satisfies ${requirement}`,
      actual: { counterexample: cx, fastCheckPath: path },
      scenario: `${generatedProbeId}:${firstRun.id}`,
      replay,
    };
    const details = own.slice(0, findingsShown).map((f): Finding => ({ ...f, scenario: cx === firstRun ? firstRun.id : `${firstRun.id} (shrunk)`, replay }));
    return [{ requirement, scenario: `probe:${generatedProbeId}`, status: 'failed', findings: [summary, ...details] }];
  });
  const timeline: TimelineEntry[] = [
    { t: 0, kind: 'note', summary: `${failedCount}: ${[...failed.entries()].map(([k, r]) => `${batch.scenarios[k]?.id ?? k} (${r.requirements.join(', ')})`).join('; ')}` },
    { t: elapsed, kind: 'note', summary: `${firstRun.id} ${how}: ${describeGenerated(cx)} (fast-check path ${path})` },
    { t: elapsed, kind: 'note', summary: `counterexample: ${JSON.stringify(cx)}` },
    { t: elapsed, kind: 'note', summary: `replay: ${replay}` },
    ...(check?.timeline ?? []).map((e) => ({ ...e, t: e.t + elapsed })),
  ];
  return { outcomes, timeline };
}
