/**
 * One certification run, end to end: load the scenarios, start the mock, build the part runners
 * for the target, run the engine, write the reports, print the verdict. The CLI's `run` and
 * `start` are thin shells over this; tests call it directly.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { UsageError } from '../core/errors.ts';
import type { Scenario } from '../schemas/types.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { startMock } from '../mock-adk/server/start.ts';
import { requirements } from './requirements/index.ts';
import { mutantKills } from './mutants/index.ts';
import { runConformance, type Progress } from './engine.ts';
import { createRunners, describeTarget } from './targets/index.ts';
import { writeReports } from './reporters/index.ts';
import { describeGate, describeObserved, unprovenRequirements } from './verdict.ts';
import type { RunResult } from './model.ts';
import { describeStartup } from './startup.ts';
import { describeSpec } from './spec-version.ts';
import type { TargetSpec } from './targets/spec.ts';
import { packageVersion } from './version.ts';
import { applyProfile, checkProfile, describeProfile, profileRunners, profileScenarios, type Profile } from './profile.ts';
import { defaultGeneratedCount, generatedBatch, generatedIndex } from './generated.ts';
import { withGeneratedRuns } from './targets/generated.ts';
import { describeSeed, type SeedSource } from './seed.ts';
import { assertReachable } from './targets/reachability.ts';
import { checkModuleTargets } from './targets/module-target.ts';
import { applyRunnerScope } from './targets/runner-scope.ts';
import { captureUpstream, type UpstreamName } from './upstream.ts';
import { clipReason } from './clip.ts';
import { createPaint, type Paint } from './colour.ts';
import { createProgress } from './progress.ts';
import { applySkip, resolveGrep } from './grep.ts';
import { reporters as reporterTable } from './reporters/index.ts';
import { describeRuns, describeScenarioCount } from './reporters/counting.ts';

export { clipReason } from './clip.ts';
import { checkBaselineScenarios, type LoadedBaseline } from './baseline.ts';
import { applyBaseline, baselinedEntry, baselinedText, describeBaselineConsole } from './baseline-gate.ts';

export type CertifyOptions = {
  target: TargetSpec;
  level: 'must' | 'should' | 'may';
  seed: number;
  /** Where the seed came from (harness/seed.ts); default 'given'. */
  seedSource?: SeedSource;
  grep: string[];
  /** Scenarios and probes left out (`--skip`): the run is then narrowed like a --grep (harness/grep.ts applySkip). */
  skip?: string[];
  shard?: { index: number; total: number };
  outDir: string;
  reporters: Array<'json' | 'junit' | 'md' | 'html'>;
  scenariosDir?: string;
  scenarioTimeoutMs: number;
  replayBase: string;
  log: (line: string) => void;
  relativeOut?: (path: string) => string;
  /** Applicability profile (docs/configuration.md): requirements outside it are not applicable. */
  profile?: Profile;
  /** fast-check generated runs drawn from `seed` and certified with the scenarios (docs/hostile.md); default 0. */
  generated?: number;
  /** What serves the scenarios: the scripted mock (default) or the real adk-js runtime's captured output (harness/upstream.ts). */
  upstream?: UpstreamName;
  /** Scenario runs at once across the parts, which run side by side (--jobs; default defaultJobs()). */
  jobs?: number;
  /** When the run started, as a performance.now() value (the CLI: 0, the process's start); default: when runCertification is called. */
  startedAt?: number;
  /** --bail N: stop after N failed runs (harness/engine.ts EngineOptions.bail). */
  bail?: number;
  /** Colour for the console lines (harness/colour.ts); default none. */
  paint?: Paint;
  /** The console is a terminal: progress is one line rewritten in place; default: stdout is a TTY outside CI. */
  interactive?: boolean;
  /** Least time between two progress lines in a log (default 10 s). */
  progressEveryMs?: number;
  /** Raw console writes (the in-place progress line); default process.stdout. */
  write?: (text: string) => void;
  /** With outDir '-': where the one report goes (default process.stdout), every other line going to `log`. */
  writeReport?: (text: string) => void;
  /** An expected-failure baseline (--baseline; docs/baseline.md): the exit code follows its ratchet gate, the verdict is unchanged. */
  baseline?: LoadedBaseline;
};

/** `--out -`: the one chosen report is written to stdout, and nothing else is. */
export const stdoutOut = '-';

/**
 * Twice the cores, at most 8: most of a scenario run is waiting (a child starting, an idle window,
 * a held [DONE]), so the cores stay busy; timing-sensitive scenarios run alone whatever this is.
 */
export function defaultJobs(): number {
  return Math.max(1, Math.min(8, availableParallelism() * 2));
}

export async function runCertification(options: CertifyOptions): Promise<RunResult> {
  const { log } = options;
  // The verdict line's time is the run's, set-up included: a proof-stream run in virtual time spends nearly all of it outside the engine.
  const t0 = options.startedAt ?? performance.now();
  const loaded = loadScenarios(options.scenariosDir);
  for (const e of loaded.errors) log(`scenario not loaded: ${e.file}: ${e.path}: ${e.message}`);
  const batch = generatedBatch(options.generated ?? 0, options.seed);
  const all = [...loaded.scenarios, ...batch.scenarios];
  const profile = options.profile ? checkProfile(options.profile, [...requirements.values()]) : undefined;
  const profiled = profile ? profileScenarios(profile, all) : { scenarios: all, excluded: [] };
  if (profile) log(`${describeProfile(profile)}${profiled.excluded.length ? `; ${profiled.excluded.length} scenarios left out: ${profiled.excluded.map((e) => `${e.id} (${e.reason})`).join(', ')}` : ''}`);
  const real = options.upstream === 'real-adk-js';
  // Built before the mock starts, so a profile that names a part the target lacks fails first.
  const runners = (profile ? profileRunners(profile, createRunners(options.target)) : createRunners(options.target))
    // A gateway's upstream is fixed when it starts, so its failing generated runs cannot be served anew to shrink.
    // A shrink candidate is served by the mock's rendering, not by the real runtime's bytes.
    .map((r) => withGeneratedRuns(r, { batch, replayBase: options.replayBase, shrink: r.part !== 'gateway' && !real }));
  // Checked before the real runtime's capture, which takes minutes; a probe's name is a selector too.
  const selection = { grep: options.grep, scenarios: all, requirements: [...requirements.values()], probes: runners.flatMap((r) => (r.probes ?? []).map((p) => p.id)) };
  const selected = applySkip({ ...selection, skip: options.skip ?? [] }, resolveGrep(selection));
  const grep = selected.words;
  if (options.baseline) checkBaselineScenarios(options.baseline, new Set([...all.map((s) => s.id), ...runners.flatMap((r) => (r.probes ?? []).map((p) => `probe:${p.id}`))]));
  const upstream = real ? await captureUpstream(profiled.scenarios, log) : undefined;
  const scenarios = upstream ? upstream.scenarios : profiled.scenarios;
  // A generated run is replayed by its index with the same seed and at least as many runs.
  const replayBase = `${batch.count > 0 && batch.count !== defaultGeneratedCount ? `${options.replayBase} --generated ${batch.count}` : options.replayBase}${real ? ' --upstream real-adk-js' : ''}`;
  // A target nothing answers at gives no observation: exit 3 before any finding, never a verdict.
  await assertReachable(options.target);
  // A module Node cannot load, or without the part's factory, is a configuration error: exit 2 before the mock starts.
  await checkModuleTargets(options.target);
  const mock = await startMock({ host: '127.0.0.1', port: options.target.mockPort, scenarios, logger: false }).catch((error: NodeJS.ErrnoException) => {
    // The quick start's `mock --port 8080` still running is the usual cause: say which port and how to move.
    if (error.code === 'EADDRINUSE') {
      throw new UsageError(`port ${options.target.mockPort} on 127.0.0.1 is in use, so the harness cannot start its mock ADK server there (is \`adk-conformance mock --port ${options.target.mockPort}\` still running?). Stop what holds it, or pass --mock-port N to use another port${options.target.gateway && 'url' in options.target.gateway ? ', and point your gateway\'s upstream (ADK_UPSTREAM_URL) at http://127.0.0.1:N' : ''}.`);
    }
    throw error;
  });
  const gate = { level: options.level, untestedFails: true } as const;
  log(`adk-conformance: certifying ${describeTarget(options.target)}`);
  const seedSource = options.seedSource ?? 'given';
  log(`mock ADK server on ${mock.url}; ${describeScenarioCount(scenarios.length, scenarios.filter((s) => generatedIndex(s.id) !== undefined).length)}; ${describeSeed(options.seed, seedSource, packageVersion())}`);
  for (const note of selected.notes) log(note);
  log(describeGate(gate));
  const paint = options.paint ?? createPaint(false);
  const interactive = options.interactive ?? (process.stdout.isTTY === true && !process.env.CI);
  const onProgress = createProgress({ interactive, write: options.write ?? ((text) => process.stdout.write(text)), log, paint, ...(options.progressEveryMs !== undefined ? { everyMs: options.progressEveryMs } : {}) });
  let result: RunResult;
  try {
    result = await runConformance({
      runners,
      scenarios,
      requirements: [...requirements.values()],
      mutantKills,
      mockUrl: mock.url,
      gate,
      seed: options.seed,
      seedSource,
      scenarioTimeoutMs: options.scenarioTimeoutMs,
      grep,
      grepAsGiven: options.grep,
      ...(options.skip?.length ? { skipAsGiven: options.skip } : {}),
      ...(options.bail !== undefined ? { bail: options.bail } : {}),
      ...(options.shard ? { shard: options.shard } : {}),
      replayBase,
      targetDescription: describeTarget(options.target),
      version: packageVersion(),
      onProgress,
      jobs: options.jobs ?? defaultJobs(),
      ...(upstream ? { upstream: { flag: '--upstream real-adk-js', description: upstream.description } } : {}),
    });
    if (upstream) result = { ...result, upstream: upstream.report };
  } finally {
    await mock.close();
  }
  if (profile) result = applyProfile(profile, result);
  result = applyRunnerScope(result, runners);
  const spec = runners.map((r) => r.spec?.()).find((s) => s !== undefined);
  if (spec) result = { ...result, spec };
  const startup = runners.flatMap((r) => r.startups?.() ?? []);
  if (startup.length > 0) {
    result = { ...result, startup };
    log(describeStartup(startup));
  }
  if (options.baseline) result = applyBaseline(result, options.baseline);
  const toStdout = options.outDir === stdoutOut;
  const outDir = resolve(options.outDir);
  const written = toStdout ? writeOneReport(result, options) : await writeReports(result, { outDir, reporters: options.reporters });
  const rel0 = options.relativeOut ?? ((p: string) => p);
  printSummary(result, log, options.reporters.includes('json') && !toStdout ? rel0(resolve(outDir, 'report.json')) : undefined, performance.now() - t0, paint);
  if (seedSource === 'random' && !result.passed) log(`explored with a random seed: add --seed ${options.seed} to keep this failure as a regression case`);
  const rel = options.relativeOut ?? ((p: string) => p);
  log(`reports: ${toStdout ? written.join(', ') : written.map((p) => rel(p)).join(', ')}`);
  return result;
}

/** `--out -`: the one reporter's text to stdout (the CLI checked there is exactly one). */
function writeOneReport(result: RunResult, options: CertifyOptions): string[] {
  const [name] = options.reporters;
  if (name === undefined || options.reporters.length !== 1) throw new UsageError(`--out - writes one report to stdout: choose one reporter (--reporter json), got ${options.reporters.join(',') || 'none'}.`);
  (options.writeReport ?? ((text: string) => process.stdout.write(text)))(reporterTable[name].render(result));
  return [`${reporterTable[name].file} on stdout`];
}

function printSummary(result: RunResult, log: (line: string) => void, reportFile: string | undefined, wallMs: number, paint: Paint): void {
  const said = new Map<string, string>();
  const c = result.counts.requirements;
  const line = (level: 'MUST' | 'SHOULD' | 'MAY') => `${level} ${c[level].passed} passed, ${c[level].failed > 0 ? paint.red(`${c[level].failed} failed`) : '0 failed'}, ${c[level].flaky ? `${c[level].flaky} flaky, ` : ''}${c[level].untested} untested, ${c[level]['not-applicable']} n/a`;
  log('');
  for (const r of result.requirements.filter((r) => r.status === 'failed' || r.status === 'flaky' || r.status === 'untested')) {
    log(`${r.status === 'failed' ? paint.red('FAIL') : r.status === 'flaky' ? paint.yellow('FLAKY') : paint.yellow('UNTESTED')} ${r.id} [${r.level}] ${r.title}`);
    const known = baselinedEntry(result, r.id);
    if (known) log(`  ${r.status === 'untested' ? `in the baseline, not exercised here (neither confirmed nor stale): ${known.reason}` : baselinedText(known)}`);
    if (r.status === 'flaky' && r.reason) log(`  flaky: ${r.reason}`);
    // A shrunk generated run is the smallest case to start from: shown even when it is not among the first.
    const shown = [...new Set([...r.findings.slice(0, 3), ...r.findings.filter((x) => x.code === 'generated-run-fails').slice(0, 1)])];
    const messages = new Map<string, string[]>();
    for (const f of shown) {
      // One crash seen in several scenarios is one message: printed once, with where else it was seen.
      const same = messages.get(`${f.path}\u0000${f.message}`);
      if (same) { same.push(f.scenario ?? ''); continue; }
      messages.set(`${f.path}\u0000${f.message}`, []);
      log(`  ${f.scenario ?? ''} ${f.path}: ${f.message}`);
      if (f.replay) log(`  replay: ${f.replay}`);
    }
    for (const also of messages.values()) if (also.length > 0) log(`  (the same in ${also.join(', ')})`);
    if (r.status === 'untested' && r.reason) {
      // Eleven requirements left untested by one crash share one reason: print it once.
      // A fail-fast reason ("not run: ...") said inside an earlier reason is said by it too.
      const first = said.get(r.reason) ?? (r.reason.startsWith('not run: ') ? [...said].find(([said]) => said.includes(r.reason as string))?.[1] : undefined);
      if (first !== undefined) { log(`  reason: as for ${first} above`); continue; }
      said.set(r.reason, r.id);
      const clipped = clipReason(r.reason);
      log(`  reason: ${clipped}${clipped !== r.reason && reportFile ? ` (whole reason and the implementation's stderr: ${reportFile})` : ''}`);
    }
  }
  const unproven = unprovenRequirements(result.requirements);
  if (result.selection) log(`selection: ${result.selection.description}`);
  log(`requirements: ${line('MUST')}; ${line('SHOULD')}; ${line('MAY')}`);
  // `runs: ` starts the line: CI scripts read passed/total up to the first parenthesis (docs/harness.md "Counting").
  log(`${describeRuns(result).replace(/^(\d+) runs?: (\d+) passed, /, (_all, total: string, passed: string) => `runs: ${passed}/${total} passed, `)}; mutants: ${result.counts.mutants.killed}/${result.counts.mutants.total} proven; unproven requirements: ${unproven.length}${unproven.length ? ` (${unproven.map((r) => r.id).join(', ')})` : ''}`);
  // Colour inside the parenthesis only: `verdict: <verdict> (` stays plain for the scripts that read it, even under FORCE_COLOR.
  const gate = result.verdict === 'could not evaluate' ? paint.yellow(`nothing applicable was observed, so the ${result.gate.level.toUpperCase()} gate cannot be judged: exit 3`) : result.passed ? paint.green(`meets the ${result.gate.level.toUpperCase()} gate`) : paint.red(`does not meet the ${result.gate.level.toUpperCase()} gate`);
  // `verdict: <verdict> (` stays the line's prefix: CI scripts read the verdict up to the parenthesis.
  for (const line of describeBaselineConsole(result)) log(line);
  log(`verdict${result.shard ? ` of shard ${result.shard.index}/${result.shard.total} alone` : ''}: ${result.verdict} (${describeObserved(result.counts.requirements)}; ${gate}${result.baseline ? `; baseline: ${result.baseline.summary}, exit ${result.verdict === 'could not evaluate' ? 3 : result.baseline.passed ? 0 : 1}` : ''}${result.spec ? `; ${describeSpec(result.spec)}` : ''}) in ${(wallMs / 1000).toFixed(1)} s`);
}
