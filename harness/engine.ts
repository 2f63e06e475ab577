/**
 * The conformance engine: runs every part under test over its scenarios and probes, each within a
 * time bound, and turns the outcomes into requirement results and a verdict. It starts nothing
 * itself (the caller provides the mock URL and the part runners) and prints nothing (progress is a
 * callback; reporters print the result).
 */
import type { Scenario } from '../schemas/types.ts';
import type { CheckOutcome, GatePolicy, Requirement, RunResult, ScenarioResult } from './model.ts';
import type { PartRunner, Probe, RunEnv, ScenarioCheck } from './targets/types.ts';
import { tally, unobservedRequirements, withoutMissingEvidence } from './verdict.ts';
import { CouldNotEvaluateError } from '../core/errors.ts';
import { runInOrder } from './engine-pool.ts';
import { createGate, type Admission } from './engine-gate.ts';
import { confirmAlone, toConfirm, type ConfirmProgress } from './engine-confirm.ts';
import { bounded } from './engine-bound.ts';
import { aggregate, exercisedBy } from './engine-aggregate.ts';

export type Progress =
  | { kind: 'scenario-start'; part: string; id: string; index: number; total: number }
  | { kind: 'scenario-end'; part: string; id: string; status: ScenarioResult['status']; durationMs: number; failed: string[]; reason?: string }
  /** A timing failure or an overrun repeated alone (harness/engine-confirm.ts). */
  | ConfirmProgress;

export type EngineOptions = {
  runners: PartRunner[];
  scenarios: Scenario[];
  requirements: Requirement[];
  /** mutant id -> requirement ids it is proven to make fail. */
  mutantKills: Record<string, string[]>;
  mockUrl: string;
  gate: GatePolicy;
  seed: number;
  /** Where the seed came from (harness/seed.ts); default 'given'. */
  seedSource?: RunResult['seedSource'];
  scenarioTimeoutMs: number;
  /** Only requirement ids, requirement tags, scenario ids or scenario tags matching one of these. */
  grep?: string[];
  /** The --grep words as the user wrote them (substrings, patterns), for the selection's description; default `grep`. */
  grepAsGiven?: readonly string[];
  /** The --skip words as the user wrote them: `grep` is then what is left (harness/grep.ts applySkip). */
  skipAsGiven?: readonly string[];
  shard?: { index: number; total: number };
  /** `adk-conformance run ...` flags that select this target, for replay lines. */
  replayBase: string;
  targetDescription: string;
  version: string;
  onProgress?: (p: Progress) => void;
  /**
   * The run certifies against another upstream than the scripted mock (`--upstream real-adk-js`):
   * only its scenarios run (the probes script upstream behaviour only the mock plays), and it gates
   * only what they exercise, like a --grep selection.
   */
  upstream?: { flag: string; description: string };
  /** How many scenarios in a row with the same fatal signature stop a part (default 3; 0: never). */
  failFastAfter?: number;
  /** Scenario runs of one part at once (default 1); a runner's `maxJobs` caps it; timing-sensitive ones run alone. */
  jobs?: number;
  /** Repeat a timing failure alone before reporting it (default true; harness/engine-confirm.ts). */
  confirmTiming?: boolean;
  /**
   * --bail N: stop every part once N scenario or probe runs have failed (a run fails when it fails
   * a requirement; an errored run, which observed nothing, has fail-fast instead). A run not made is
   * errored, "not run: --bail N ...", its requirements untested there; it stops only on a failure,
   * so a bailed run is never compliant.
   */
  bail?: number;
};

type Job = { id: string; scenario?: Scenario; run: (env: RunEnv) => Promise<ScenarioCheck>; requirements?: string[]; auxiliary?: boolean; shared?: boolean; background?: boolean; collects?: boolean; timed?: boolean };

/**
 * Scenarios whose checks read wall-clock timing (idle windows, held-open connections, silences)
 * run away from the shared load, so a neighbour's CPU never eats into the tolerance their checks
 * allow; beside each other only, since they mostly wait on timers (harness/engine-gate.ts).
 */
export function isTimingSensitive(scenario: Scenario): boolean {
  return scenario.tags.some((t) => t === 'timing' || t === 'slow' || t === 'silence' || t === 'hold-open' || t === 'idle');
}

/** How a run holds the gate: a probe alone unless it says `shared`, `background` or `collects`; a timing-sensitive scenario `timed`; the rest shared. */
export function admissionOfRun(job: { probe?: Pick<Probe, 'shared' | 'background' | 'collects' | 'timed'>; scenario?: Scenario }): Admission {
  if (job.probe !== undefined) return job.probe.shared === true || job.probe.background === true || job.probe.collects === true ? 'shared' : job.probe.timed === true ? 'timed' : 'alone';
  return job.scenario !== undefined && isTimingSensitive(job.scenario) ? 'timed' : 'shared';
}

/** Whether a run keeps the shared load away while it runs (`timed` or `alone`). */
export function runsAlone(job: { probe?: Pick<Probe, 'shared' | 'background' | 'collects' | 'timed'>; scenario?: Scenario }): boolean {
  return admissionOfRun(job) !== 'shared';
}

export const defaultFailFastAfter = 3;

/** A requirement's timing failure reproduced alone this many times is the implementation's: later ones are not repeated. */
export const confirmBudget = 2;

/** One outcome per requirement the harness could not exercise, with the reason. */
function untested(requirements: string[], scenario: string, reason: string): CheckOutcome[] {
  return requirements.map((requirement) => ({ requirement, scenario, status: 'untested', findings: [], reason }));
}

/**
 * The probes a --grep names (docs/harness-normalizer.md: `--grep normalizer-generated-turns`), by
 * id or by the `probe:<id>` the console and reports list. A bare word that is also a scenario id,
 * family or tag (`errors`, `auth`, `generated`) names both: the scenarios and the probe of that name.
 */
export function namedProbes(grep: readonly string[], runners: readonly PartRunner[]): Set<string> {
  const probeIds = new Set(runners.flatMap((r) => (r.probes ?? []).map((p) => p.id.toLowerCase())));
  const named = new Set<string>();
  for (const g of grep.map((w) => w.toLowerCase())) {
    const id = g.startsWith('probe:') ? g.slice('probe:'.length) : g;
    if (probeIds.has(id)) named.add(id);
  }
  return named;
}

function matchesGrep(grep: string[] | undefined, words: string[]): boolean {
  if (!grep || grep.length === 0) return true;
  return grep.some((g) => words.some((w) => w === g || w.toLowerCase() === g.toLowerCase()));
}

export async function runConformance(opts: EngineOptions): Promise<RunResult> {
  const startedAt = new Date();
  const t0 = performance.now();
  const parts = new Set(opts.runners.flatMap((r) => [r.part, ...(r.alsoJudges ?? [])]));
  const byId = new Map(opts.requirements.map((r) => [r.id, r]));
  // A requirement-level grep narrows the requirements; a scenario-level grep narrows the scenarios.
  const grepIsRequirement = (opts.grep ?? []).some((g) => byId.has(g) || opts.requirements.some((r) => r.tags.includes(g)));
  const selectedRequirements = opts.requirements.filter((r) => !grepIsRequirement || matchesGrep(opts.grep, [r.id, ...r.tags]));
  const selectedIds = new Set(selectedRequirements.map((r) => r.id));
  const probeGrep = namedProbes(grepIsRequirement ? [] : opts.grep ?? [], opts.runners);
  // A run narrowed to some scenarios gates only what they exercise; a full run gates everything.
  const scenarioGrep = (opts.grep ?? []).length > 0 && !grepIsRequirement;
  const scenarios = [...opts.scenarios]
    .sort((a, b) => a.id.localeCompare(b.id))
    .filter((s) => grepIsRequirement || matchesGrep(opts.grep, [s.id, s.family, ...s.tags]))
    .filter((_, i) => !opts.shard || i % opts.shard.total === opts.shard.index - 1);

  const jobLimit = Math.max(1, opts.jobs ?? 1);
  // Parts run side by side through one gate: the machine carries `jobs` runs at once, as one part did alone.
  // Timed runs mostly wait on their windows: three times as many of them at once (engine-gate.ts).
  const gate = createGate(jobLimit, 3 * jobLimit);
  // A background probe's load is one process of its own (Probe.background): one at a time, beside the gate.
  const backgroundGate = createGate(1);
  // ...and it starts once every part has started: its process's start-up would take the CPU from the
  // parts' own (the gateway's first instance, whose listening starts the run's longest wait).
  let partsStarting = opts.runners.length;
  let allStarted!: () => void;
  const partsStarted = new Promise<void>((resolve) => { allStarted = resolve; });
  const partStarted = () => { if (--partsStarting === 0) allStarted(); };
  /** Failed runs so far across the parts, for --bail; `bailed` is the reason once the count is reached. */
  const failedRuns: string[] = [];
  let bailed: string | undefined;

  const runPart = async (runner: PartRunner): Promise<{ outcomes: CheckOutcome[]; scenarioResults: ScenarioResult[]; exercised: Set<string> }> => {
    const outcomes: CheckOutcome[] = [];
    const scenarioResults: ScenarioResult[] = [];
    /** Requirements some selected scenario or probe of this part reported on (whatever the status). */
    const exercised = new Set<string>();
    const controller = new AbortController();
    const baseEnv = { mockUrl: opts.mockUrl, seed: opts.seed, scenarioTimeoutMs: opts.scenarioTimeoutMs };
    const probes: Probe[] = (runner.probes ?? [])
      .filter((p) => !opts.upstream || (p.auxiliary === true && p.mockOnly !== true))
      .filter((p) => p.requirements.some((id) => selectedIds.has(id)))
      // A --grep of scenarios and probes runs the probes it names and no other: the replay line of a
      // failed scenario (`--grep <scenario> --seed N`) replays that scenario, not the 10,000-run memory
      // probes and the gateway's loads beside it (`run --grep plain_text`: 22.6 s wall and 28.7 s of CPU
      // with every probe, 2.4 s and 3.8 s without, 2026-11-29).
      // A requirement-level --grep runs every probe that exercises a selected requirement.
      .filter((p) => !scenarioGrep || probeGrep.has(p.id.toLowerCase()))
      .filter((_, i) => !opts.shard || i % opts.shard.total === opts.shard.index - 1);
    // A part's scenarios report only on the parts it judges, and on the requirements its runner lists
    // (PartRunner.scenarioRequirements). Under a requirement-level --grep that selects none of them,
    // and where no selected scenario could apply (PartRunner.couldApply), a part without a probe to run
    // starts nothing: `--grep GW-MEM-002`, the replay line of a failed memory probe, ran every part's
    // 470 scenarios and kept none of them.
    const judged = new Set<string>([runner.part, ...(runner.alsoJudges ?? [])]);
    const reportable = runner.scenarioRequirements ? new Set(runner.scenarioRequirements) : undefined;
    const partSelected = !grepIsRequirement || selectedRequirements.some((r) => judged.has(r.part) && (reportable === undefined || reportable.has(r.id)));
    if (probes.length === 0 && (!partSelected || !scenarios.some(runner.couldApply ?? runner.applies))) { partStarted(); return { outcomes, scenarioResults, exercised }; }
    // Starting a part (launching its processes) is load like a run: no exclusive run beside it.
    const started = await gate.enter('shared');
    try {
      await runner.start?.({ ...baseEnv, grep: grepIsRequirement ? [] : [...(opts.grep ?? [])], probes: probes.map((p) => p.id) });
    } finally {
      started();
      partStarted();
    }
    try {
      const mine = partSelected ? scenarios.filter((s) => runner.applies(s)) : [];
      // A job with requirements is a probe.
      const admission = (job: Job) => admissionOfRun({ probe: job.requirements !== undefined ? { shared: job.shared === true, background: job.background === true, collects: job.collects === true, timed: job.timed === true } : undefined, scenario: job.scenario });
      const listed: Job[] = [
        ...mine.map((s) => ({ id: s.id, scenario: s, run: (env: RunEnv) => runner.runScenario(s, env) })),
        ...probes.map((p) => ({ id: `probe:${p.id}`, run: p.run, requirements: p.requirements, ...(p.auxiliary ? { auxiliary: true } : {}), ...(p.shared ? { shared: true } : {}), ...(p.background ? { background: true } : {}), ...(p.collects ? { collects: true } : {}), ...(p.timed ? { timed: true } : {}) })),
      ];
      // A part's shared jobs first, then its timed ones, then those that run alone, each in listed
      // order (but the shared probes, below): the gate runs the others once the shared load is gone,
      // and the pool starts no job past a waiting one, so a timed or alone job in the middle would
      // hold back the rest of its part.
      // A background probe (thousands of runs in a process of its own: a module's memory) and a
      // collector (Probe.collects: what it waits for runs outside the gate already) are listed
      // with the part's first jobs and committed last (engine-pool.ts); a background probe's run
      // waits for every part to have started (partsStarted, above).
      // The shared probes (the long-lived ones take seconds) start right after the part's first
      // scenarios, not after its last: they overlap the rest instead of ending the shared load
      // alone, and fail fast, decided on those first scenarios, still cancels them.
      const beside = (j: Job) => j.background === true || j.collects === true;
      const rest = listed.filter((j) => !beside(j));
      const failFastAfter = opts.failFastAfter ?? defaultFailFastAfter;
      const shared = rest.filter((j) => admission(j) === 'shared');
      const sharedScenarios = shared.filter((j) => j.requirements === undefined);
      const firstScenarios = sharedScenarios.slice(0, Math.max(0, failFastAfter));
      const jobs = [
        ...firstScenarios, ...shared.filter((j) => j.requirements !== undefined), ...sharedScenarios.slice(firstScenarios.length),
        ...(['timed', 'alone'] as const).flatMap((a) => rest.filter((j) => admission(j) === a)), ...listed.filter(beside),
      ];
      /** The fatal signature of the first scenarios, while they all share it (fail fast). */
      let streak: { signature: string; reason: string; ids: string[] } | undefined;
      let opening = true;
      let givenUp: string | undefined;
      const replayOf = (job: Job) => `${opts.replayBase} --grep ${job.requirements ? job.requirements.join(',') : job.id} --seed ${opts.seed}`;
      const controllers: AbortController[] = [];
      // A command's start-up is not the scenario's time: the runner says how much it adds (PartRunner.extraBoundMs).
      const boundOf = (job: Job) => opts.scenarioTimeoutMs + (runner.extraBoundMs?.(job.id) ?? 0);
      const jobOf = new Map<ScenarioResult, Job>();
      const fatalJobs = new Set<Job>();
      const limit = Math.max(1, Math.min(jobLimit, runner.maxJobs ?? Number.POSITIVE_INFINITY));
      const startJob = async (job: Job, index: number): Promise<{ result: ScenarioCheck | 'timeout' | Error; durationMs: number }> => {
        opts.onProgress?.({ kind: 'scenario-start', part: runner.part, id: job.id, index, total: jobs.length });
        const jobController = new AbortController();
        controllers[index] = jobController;
        const forward = () => jobController.abort();
        controller.signal.addEventListener('abort', forward, { once: true });
        if (job.background) await partsStarted;
        const leave = job.collects ? () => {} : job.background ? await backgroundGate.enter('shared') : await gate.enter(admission(job));
        const started = performance.now();
        const result = await bounded(() => job.run({ ...baseEnv, signal: jobController.signal }), boundOf(job), jobController).finally(leave);
        controller.signal.removeEventListener('abort', forward);
        return { result, durationMs: Math.round(performance.now() - started) };
      };
      /** A job's result as the report lists it; undefined when it exercised nothing the run selected (not part of the run). */
      const resultOf = (job: Job, result: ScenarioCheck | 'timeout' | Error, durationMs: number): ScenarioResult | undefined => {
        // A probe is replayed through the requirements it exercises, which runs it with every scenario that exercises them (its name alone would run it alone).
        const replay = replayOf(job);
        let scenarioResult: ScenarioResult;
        if (result === 'timeout' || result instanceof Error) {
          const reason = result === 'timeout' ? `timed out: the scenario did not finish within ${boundOf(job)} ms (raise it with --timeout-ms)` : `harness error: ${result.message}`;
          const reqs = job.requirements ?? selectedRequirements.filter((r) => r.part === runner.part).map((r) => r.id);
          scenarioResult = { scenario: job.id, part: runner.part, status: 'errored', durationMs, timeline: [], outcomes: untested(reqs, job.id, reason), error: reason, replay };
        } else {
          const stray = job.requirements === undefined && reportable !== undefined ? result.outcomes.find((o) => !reportable.has(o.requirement)) : undefined;
          // The kit's own mistake, not the implementation's: a --grep of that requirement would skip the scenarios that judge it.
          if (stray) throw new Error(`the ${runner.part} runner's scenario ${job.id} reported on ${stray.requirement}, which its scenarioRequirements leave out; add ${stray.requirement} to them`);
          const kept = result.outcomes
            .filter((o) => selectedIds.has(o.requirement))
            .map((o) => ({ ...o, findings: o.findings.map((f) => ({ ...f, scenario: f.scenario ?? job.id, replay: f.replay ?? replay })) }));
          // A scenario that exercises none of the requirements a requirement-level --grep selected is not part of the run.
          if (kept.length === 0 && (grepIsRequirement || job.auxiliary)) return undefined;
          const failed = kept.some((o) => o.status === 'failed');
          // Nothing passes without an observation: a job whose every check was untested observed nothing.
          const observed = kept.some((o) => o.status === 'passed');
          const reasons = [...new Set(kept.map((o) => o.reason).filter((r): r is string => Boolean(r)))];
          const nothing = `nothing was observed${reasons.length ? `: ${reasons.slice(0, 2).join('; ')}` : ' (no check reported)'}`;
          scenarioResult = { scenario: job.id, part: runner.part, status: failed ? 'failed' : observed ? 'passed' : 'errored', durationMs, timeline: result.timeline, outcomes: kept, replay, ...(failed || observed ? {} : { error: nothing }) };
          // A developer fixes from the whole input of what failed; a passing scenario's stays out of the report.
          if (result.input && scenarioResult.status !== 'passed') scenarioResult.input = result.input;
        }
        return scenarioResult;
      };
      /** Jobs that overran their bound (the scenario's, not a run's), or that the machine kept from being judged (ScenarioCheck.machine): repeated alone below before they are reported. */
      const overran = new Set<Job>();
      const commit = (job: Job, _index: number, done: { result: ScenarioCheck | 'timeout' | Error; durationMs: number }): boolean => {
        const { result, durationMs } = done;
        const scenarioResult = resultOf(job, result, durationMs);
        if (scenarioResult === undefined) return true;
        // An overrun, or a run the machine kept from being judged: repeated alone before it is reported.
        if (result === 'timeout' || (!(result instanceof Error) && result.machine !== undefined)) overran.add(job);
        const fatal = result !== 'timeout' && !(result instanceof Error) ? result.fatal : undefined;
        if (fatal) fatalJobs.add(job);
        // Only the first scenarios count: a part that ran one scenario normally is judged on every one.
        streak = fatal && opening && (!streak || streak.signature === fatal.signature) ? { ...fatal, ids: [...(streak?.ids ?? []), job.id] } : undefined;
        opening = streak !== undefined;
        if (streak && failFastAfter > 0 && streak.ids.length >= failFastAfter) {
          givenUp = `not run: the ${runner.part} ${streak.reason} on the first ${streak.ids.length} scenarios in a row (${streak.ids.join(', ')}), so no other scenario can observe it; fix that and run again`;
        }
        if (scenarioResult.status === 'failed' && opts.bail !== undefined && bailed === undefined) {
          failedRuns.push(`${runner.part} ${job.id}`);
          if (failedRuns.length >= opts.bail) bailed = `not run: --bail ${opts.bail} stopped the run after ${failedRuns.length} failed run${failedRuns.length === 1 ? '' : 's'} (${failedRuns.join(', ')}); run without --bail to judge the rest`;
        }
        for (const id of exercisedBy(scenarioResult)) exercised.add(id);
        outcomes.push(...scenarioResult.outcomes);
        scenarioResults.push(scenarioResult);
        jobOf.set(scenarioResult, job);
        opts.onProgress?.({ kind: 'scenario-end', part: runner.part, id: job.id, status: scenarioResult.status, durationMs, failed: [...new Set(scenarioResult.outcomes.filter((o) => o.status === 'failed').map((o) => o.requirement))], ...(scenarioResult.error !== undefined ? { reason: scenarioResult.error } : {}) });
        return givenUp === undefined && bailed === undefined;
      };
      const committed = await runInOrder(jobs, { limit, admission, background: beside, cancel: (i) => controllers[i]?.abort() }, startJob, commit);
      /** A job run once more holding the gate alone, within its bound. */
      const repeatAlone = async (job: Job): Promise<{ result: ScenarioCheck | 'timeout' | Error; durationMs: number }> => {
        const jobController = new AbortController();
        const leave = await gate.enter('alone');
        const started = performance.now();
        const result = await bounded(() => job.run({ ...baseEnv, signal: jobController.signal, alone: true }), boundOf(job), jobController).finally(leave);
        return { result, durationMs: Math.round(performance.now() - started) };
      };
      if (opts.confirmTiming !== false && givenUp === undefined) {
        const confirmed = await confirmAlone({
          part: runner.part, results: scenarioResults, jobOf: (r) => jobOf.get(r), overran, fatal: fatalJobs,
          timingFailures: (first, job) => toConfirm(first, byId, job.scenario, isTimingSensitive),
          repeatAlone, resultOf: (job, repeat) => resultOf(job, repeat.result, repeat.durationMs),
          cancelled: () => controller.signal.aborted, ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
        }, confirmBudget);
        scenarioResults.splice(0, scenarioResults.length, ...confirmed);
        // The outcomes so far are exactly the committed results' outcomes, in order; an overrun's repeat
        // replaced what the overrun had made untested, so what was exercised is read again from them.
        outcomes.length = 0;
        outcomes.push(...scenarioResults.flatMap((r) => r.outcomes));
        exercised.clear();
        for (const id of scenarioResults.flatMap(exercisedBy)) exercised.add(id);
      }
      for (const job of jobs.slice(committed)) {
        // Not run: the implementation already showed it cannot run any scenario.
        const reason = givenUp ?? bailed ?? 'not run';
        const reqs = job.requirements ?? selectedRequirements.filter((r) => r.part === runner.part).map((r) => r.id);
        const skipped: ScenarioResult = { scenario: job.id, part: runner.part, status: 'errored', durationMs: 0, timeline: [], outcomes: untested(reqs, job.id, reason), error: reason, replay: replayOf(job) };
        outcomes.push(...skipped.outcomes);
        scenarioResults.push(skipped);
        // No reason on these lines: the summary prints the fail-fast reason once, with the requirements it leaves untested.
        opts.onProgress?.({ kind: 'scenario-end', part: runner.part, id: job.id, status: 'errored', durationMs: 0, failed: [] });
      }
      for (const [id, reason] of Object.entries(runner.unreachable ?? {})) {
        if (selectedIds.has(id)) outcomes.push(...untested([id], 'n/a', reason));
      }
    } finally {
      await runner.stop?.();
    }
    return { outcomes, scenarioResults, exercised };
  };

  // Results are listed part by part in the runners' order, whatever order the parts finished in.
  const perPart = await Promise.all(opts.runners.map(runPart));
  const outcomes = perPart.flatMap((p) => p.outcomes);
  const scenarioResults = perPart.flatMap((p) => p.scenarioResults);
  const exercised = new Set(perPart.flatMap((p) => [...p.exercised]));

  const narrowed = scenarioGrep || opts.upstream !== undefined;
  const outside = narrowed ? new Set(selectedRequirements.filter((r) => parts.has(r.part) && !exercised.has(r.id)).map((r) => r.id)) : new Set<string>();
  const grepShown = opts.grepAsGiven ?? opts.grep ?? [];
  const skipShown = opts.skipAsGiven ?? [];
  // A --skip selection is a --grep of what is left, shown as the user wrote it.
  const selectionFlags = skipShown.length > 0 ? [grepShown.length > 0 ? `--grep ${grepShown.join(',')}` : '', `--skip ${skipShown.join(',')}`] : [scenarioGrep ? `--grep ${grepShown.join(',')}` : ''];
  const narrowing = [...selectionFlags, opts.upstream ? opts.upstream.flag : ''].filter(Boolean).join(' ');
  const selectionReason = opts.upstream
    ? `outside this run's selection (${narrowing}): ${opts.upstream.description}; no scenario it runs exercises this requirement; a run on the mock gates it`
    : `outside this run's selection (${narrowing}): no selected scenario or probe exercises it; a run without ${skipShown.length > 0 ? '--skip' : '--grep'} gates it`;
  // An errored run's untested requirements stay untested even where other runs passed them.
  const missing = unobservedRequirements(scenarioResults);
  const requirementResults = aggregate(selectedRequirements, parts, outcomes.filter((o) => !outside.has(o.requirement)), opts.mutantKills)
    .map((r) => withoutMissingEvidence(r, missing))
    .map((r) => (outside.has(r.id) ? { ...r, status: 'not-applicable' as const, reason: selectionReason } : r));
  if (requirementResults.every((r) => r.status === 'not-applicable')) {
    throw new CouldNotEvaluateError(narrowed
      ? `${narrowing} selects no scenario or probe that exercises a requirement of the parts under test (${[...parts].join(', ')}); widen the selection or certify the part the scenarios belong to.`
      : `no requirement of the parts under test (${[...parts].join(', ')}) was selected.`);
  }
  const gated = requirementResults.filter((r) => r.status !== 'not-applicable').length;
  const mutantIds = Object.keys(opts.mutantKills);
  const derived = tally({
    gate: opts.gate,
    requirements: requirementResults,
    scenarios: scenarioResults,
    mutants: { total: mutantIds.length, killed: mutantIds.filter((m) => (opts.mutantKills[m] ?? []).length > 0).length },
  });
  return {
    tool: { name: 'adk-conformance', version: opts.version },
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - t0),
    target: { description: opts.targetDescription, parts: [...parts] },
    gate: opts.gate,
    seed: opts.seed,
    seedSource: opts.seedSource ?? 'given',
    ...(opts.shard ? { shard: opts.shard } : {}),
    ...(narrowed ? { selection: { grep: scenarioGrep ? [...(opts.grep ?? [])] : [], ...(skipShown.length > 0 ? { skip: [...skipShown] } : {}), gated, outside: outside.size, description: `${narrowing} gates only the ${gated} requirements its ${scenarioResults.length} selected scenario runs exercise; ${outside.size} others are outside the selection (not applicable in this run)` } } : {}),
    requirements: requirementResults,
    scenarios: scenarioResults,
    ...derived,
  };
}
