/**
 * The transformer part runner (ABE-* and PL-*): for each scenario with an ADK stream, capture the
 * stream from the mock, feed it to the implementation under test (a command per
 * docs/transform-contract.md, or a module per docs/harness.md), feed it again to a fresh instance
 * and feed its rendering in each other dialect it renders in (every dialect unless it is pinned);
 * then run the pure checks of harness/checks/transformer over what was observed. docs/harness.md lists the time bounds.
 */
import { kitModule } from '../../../core/package-root.ts';
import type { Dialect } from '../../../mock-adk/core/types.ts';
import { distinctRenderings } from '../../../mock-adk/core/distinct-renderings.ts';
import type { Scenario } from '../../../schemas/types.ts';
import { boundedInput, type TimelineEntry } from '../../model.ts';
import { allTransformerRequirementIds, checkTransformer, transformerRequirementIdsFor } from '../../checks/transformer/index.ts';
import { createSpecChoice } from './spec-choice.ts';
import { unobservedSpec, type SpecVersion } from '../../spec-version.ts';
import { sameRun } from '../../checks/transformer/determinism.ts';
import { classifyFrame, type FedFrame, type TransformerObservation, type TransformerRun } from '../../checks/transformer/observation.ts';
import { stateOf } from '../../checks/transformer/briefing.ts';
import type { PartRunner, RunEnv, ScenarioCheck } from '../types.ts';
import { captureFromPlan, captureRun, scriptedWaitMs, type Capture } from './capture.ts';
import { availableParallelism } from 'node:os';
import { answeredWithin, defaultStartupTimeoutMs, probeInBackground, probeStartup, startupWindowMs, type BackgroundProbe, type ProtocolChoice, type Startup } from '../command-startup.ts';
import { openSessionPool, type SessionPool } from '../../session.ts';
import { createLongLivedProbe, longLivedProbeId, oneShotIsolation, type Instance } from './long-lived.ts';
import { childModuleMemory, createMemoryProbe, memoryExtraMs, memoryProbeId, oneShotMemory, sessionMemory } from './memory.ts';
import { loadTransformerModule } from './load.ts';
import { backToBack, driveCommand, runBoundMs, driveModule, driveUnstalled, linesWithGaps, type Drive, type DriveSpec, type ModuleFactory } from './drive.ts';
import { stallShare } from '../feed-stall.ts';
import { waitForStartup } from '../../fair-timer.ts';

/** The reference transformer adapted to the module contract (what `adk-conformance run` certifies by default). */
export const referenceTransformerModule: string = kitModule('harness/targets/transformer/reference.ts');
/** The reference emitting spec 1.1 (schema_version "1.1.0", lowercase types, severity, ui_binding, suggested_actions). */
export const referenceTransformer11Module: string = kitModule('harness/targets/transformer/reference-1-1.ts');

/** `spec`: the AgentBriefingEvent spec version to judge against (--spec); absent: the schema_version its events declare, else 1.0. */
export type TransformerTarget = ({ command: string; startupTimeoutMs?: number; protocol?: ProtocolChoice } | { module: string }) & { spec?: SpecVersion };

export type TransformerRunnerOptions = {
  /** Idle window given to the implementation (default $ADK_CONFORMANCE_IDLE_MS or 500). */
  idleMs?: number;
  /** Lateness allowed after the idle window on a held-open run (default $ADK_CONFORMANCE_IDLE_TOLERANCE_MS or 1000). */
  toleranceMs?: number;
  /**
   * How long the input stays open after `[DONE]` (default 1000 ms for commands, 50 ms for modules):
   * long enough for a process that started late to read `[DONE]` well before it sees EOF.
   */
  doneHoldMs?: number;
  /** Pause before the completion-point frame (default 50 ms for commands, 5 ms for modules). */
  pauseMs?: number;
  /** Longest silence of the captured stream that is replayed (default 100 ms). */
  maxGapMs?: number;
  /**
   * Include scenarios tagged `slow` or `timing` (default: $ADK_CONFORMANCE_INCLUDE_SLOW === '1'). They
   * test the byte stream's wall-clock behaviour; a transformer gets their gaps capped at maxGapMs,
   * so they add nothing the other scenarios do not and cost seconds of capture each.
   */
  includeSlow?: boolean;
  /** Captures keyed by mock URL, scenario and dialect, shared between runners of one process (a mutation test). */
  captureCache?: Map<string, Capture>;
  /**
   * Run the memory probe (ABE-MEM-001, 10,000+ runs; default true). A mutation test proving other
   * requirements leaves it out; ABE-MEM-001 is then untested, never passed.
   */
  memoryProbe?: boolean;
  /**
   * The isolation probe's longest prior history (ABE-ISO-001; default the issue's 1,000).
   * A mutation test proving other requirements asks less, as it does of the memory probe.
   */
  isolationHistory?: number;
};

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`$${name} must be a positive number of milliseconds, got '${raw}'`);
  return n;
}

/** A bound in seconds from the environment, in milliseconds. */
function envSeconds(name: string, fallbackMs: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallbackMs;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`$${name} must be a positive number of seconds, got '${raw}'`);
  return Math.round(n * 1000);
}

const streamEndpoints = new Set([undefined, '/run_sse', '/run_sse_enhanced']);

export function createTransformerRunner(target: TransformerTarget, options: TransformerRunnerOptions = {}): PartRunner {
  const isCommand = 'command' in target;
  if (isCommand ? typeof target.command !== 'string' || target.command.trim() === '' : typeof target.module !== 'string' || target.module === '') {
    throw new TypeError('createTransformerRunner: give {command: "python3 my_transformer.py"} or {module: "/abs/path/transformer.ts"}');
  }
  const idleMs = options.idleMs ?? envNumber('ADK_CONFORMANCE_IDLE_MS', 500);
  const toleranceMs = options.toleranceMs ?? envNumber('ADK_CONFORMANCE_IDLE_TOLERANCE_MS', 1000);
  const doneHoldMs = options.doneHoldMs ?? (isCommand ? 1000 : 50);
  const pauseMs = options.pauseMs ?? (isCommand ? 50 : 5);
  const maxGapMs = options.maxGapMs ?? 100;
  const includeSlow = options.includeSlow ?? process.env.ADK_CONFORMANCE_INCLUDE_SLOW === '1';
  const cache = options.captureCache ?? new Map<string, Capture>();
  let factory: ModuleFactory | undefined;
  let startup: Startup | undefined;
  // The start-up probe while it has not answered (command-startup.ts startupWindowMs).
  let probing: BackgroundProbe | undefined;
  // The session form (docs/session-protocol.md): runs go to long-lived processes instead of one each.
  let pool: SessionPool | undefined;

  async function capture(env: RunEnv, scenario: Scenario, dialect: Dialect): Promise<Capture> {
    const key = `${env.mockUrl} ${scenario.id} ${dialect}`;
    const hit = cache.get(key);
    if (hit) return hit;
    // A scripted silence longer than a third of the scenario bound is not waited out (captureFromPlan).
    const fresh = scriptedWaitMs(scenario, dialect) > env.scenarioTimeoutMs / 3 ? captureFromPlan(scenario, dialect) : await captureRun(env.mockUrl, scenario, dialect, env.signal);
    cache.set(key, fresh);
    return fresh;
  }

  /** The mock's rendering of a run, read without serving it (captureFromPlan), once per scenario and dialect. */
  function planned(scenario: Scenario, dialect: Dialect): Capture {
    const key = `plan ${scenario.id} ${dialect}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const fresh = captureFromPlan(scenario, dialect);
    cache.set(key, fresh);
    return fresh;
  }

  function feed(c: Capture, scenario: Scenario, withPause: boolean): { lines: DriveSpec['lines']; frames: Omit<FedFrame, 'at'>[]; pauseAt?: number } {
    const point = scenario.expect.completionPoint;
    const pauseAt = withPause && typeof point === 'number' && point > 0 && point < c.frames.length ? point : undefined;
    const lines = linesWithGaps(c.frames, maxGapMs).map((l, i) => (i === pauseAt ? { ...l, delayMs: l.delayMs + pauseMs } : l));
    const frames = c.frames.map((f, index) => ({ index, data: f.data, ...classifyFrame(f.data) }));
    return { lines, frames, ...(pauseAt !== undefined ? { pauseAt } : {}) };
  }

  /** `checked`: the run the timing checks read; the comparison runs close their input at once. */
  /** `via`: where the run goes instead of the runner's own instance (the long-lived probe's instances). */
  async function drive(c: Capture, scenario: Scenario, lines: DriveSpec['lines'], env: RunEnv, checked: boolean, via?: { pool?: SessionPool; factory?: ModuleFactory }): Promise<Drive> {
    const hasDone = c.frames.some((f) => f.data.trim() === '[DONE]');
    // Held open: commands get their stdin closed after the idle window (the contract's harness
    // decision); modules own their idle timer, so they get the window, the tolerance and a margin.
    const holdMs = !checked ? 0 : c.ending === 'hold-open' ? (isCommand ? idleMs : idleMs + toleranceMs + 250) : hasDone ? doneHoldMs : 0;
    const spec: DriveSpec = {
      lines, sessionId: c.sessionId, enhanced: scenario.request.endpoint === '/run_sse_enhanced', idleMs, holdMs,
      // After [DONE] the input stays open until the terminal event, at most doneHoldMs: a command that
      // answered has shown [DONE] ended its run, and waiting out the rest cost a second a run.
      ...(checked && c.ending !== 'hold-open' && hasDone ? { holdUntilTerminal: true as const } : {}),
      boundMs: runBoundMs(env.scenarioTimeoutMs), signal: env.signal,
      // The measured start-up extends the bound but does not delay the feed: fed after it, the example
      // Python transformer lost its first frames on a loaded machine (generated runs of seed 7 under
      // CPU hogs; fed from spawn it passes), so the checks count from the first output instead.
      ...(startup?.known ? { startupMs: 0, startupSlackMs: startup.startupMs + startup.slackMs } : startup ? { startupNote: startup.note } : probing ? { startupNote: probing.note() } : {}),
    };
    const sessions = via ? via.pool : pool;
    if (sessions) { delete spec.startupSlackMs; spec.startupMs = 0; spec.runChild = sessions.runChild; }
    return isCommand ? driveCommand(target.command, spec) : driveModule((via?.factory ?? factory) as ModuleFactory, spec);
  }

  /**
   * A comparison run (ABE-DET-001 reads its briefings, never its timing). Its lines go in back to
   * back: every scripted gap is under maxGapMs, below the idle window, so a correct implementation
   * gives the same briefings with or without them, and a loaded machine then has no gap to stretch
   * into an idle window (a stretched gap made correct transformers "differ" between runs). A feed
   * the machine stalled anyway is run again (twice at most).
   */
  async function driveSteady(c: Capture, scenario: Scenario, timed: DriveSpec['lines'], env: RunEnv): Promise<Drive> {
    const lines = backToBack(timed);
    return (await driveUnstalled(() => drive(c, scenario, lines, env, false), { idleMs, signal: env.signal })).driven;
  }

  let freshModules = 0;
  const sessionPool = (concurrent: number): SessionPool => openSessionPool({ command: (target as { command: string }).command, part: 'transformer', startupTimeoutMs: startup?.boundMs ?? 30_000, processes: 1, runsPerProcess: concurrent, killGraceMs: 500 });
  const instance = (via: { pool?: SessionPool; factory?: ModuleFactory }): Instance => ({
    run: async (scenario, sessionId, env, backToBack) => {
      // Rendered by the mock's own renderer, not served: the probe's kit scenarios need not be among the mock's (--scenarios DIR).
      const c = { ...planned(scenario, scenario.dialect as Dialect), sessionId };
      // A millisecond between lines: runs open at once interleave line by line, as concurrent streams reach an app.
      return (await drive(c, scenario, feed(c, scenario, false).lines.map((l) => ({ ...l, delayMs: backToBack ? 0 : 1 })), env, false, via)).run;
    },
    close: async () => { await via.pool?.close(); },
  });
  // A new session process's start-up is not the probe's time: the probe's bound moves while it waits (waitForStartup).
  const started = async (p: SessionPool): Promise<Instance> => { await waitForStartup(p.ready()); return instance({ pool: p }); };
  const longLived = createLongLivedProbe({
    // A new long-lived instance each time: a session process, or the module imported again (its top-level state new).
    shared: async (concurrent) => (pool ? started(sessionPool(concurrent)) : instance(!isCommand ? { factory: await loadTransformerModule(target.module, ++freshModules) } : {})),
    // A fresh instance exists where runs share one: a session process, or a module imported again.
    get fresh() {
      if (pool) return async () => started(sessionPool(1));
      if (!isCommand) return async () => instance({ factory: await loadTransformerModule(target.module, ++freshModules) });
      return undefined;
    },
    applies: (s) => runner.applies(s),
    get instanceLabel() { return pool ? 'one session process' : isCommand ? 'a fresh process per run' : 'one module instance'; },
    replay: (seed) => `npx adk-conformance run ${isCommand ? `--transformer-cmd '${target.command}'` : `--transformer-module ${target.module}`} --grep probe:${longLivedProbeId} --seed ${seed}`,
    ...(options.isolationHistory !== undefined ? { historyMax: options.isolationHistory } : {}),
  });
  // ABE-MEM-001: one instance for thousands of runs (a session process of its own, or the module loaded once).
  const memory = createMemoryProbe(async (env) => {
    // A background job starts with the part's first runs, before a command's start-up probe may
    // have said which form it speaks: the instance is chosen once it has (or its bound ran out).
    if (probing && !probing.answer()) await probing.wait(env.signal);
    if (pool) return sessionMemory(sessionPool(8), (target as { command: string }).command, idleMs, env.seed);
    return 'module' in target ? childModuleMemory(target.module, idleMs, env.seed) : undefined;
  });
  const notApplicable: Record<string, string> = {};
  const spec = createSpecChoice(target.spec, notApplicable);

  const runner: PartRunner = {
    part: 'transformer',
    probes: options.memoryProbe === false ? [longLived] : [longLived, memory],
    notApplicable,
    spec: () => spec.choice() ?? unobservedSpec,
    description: isCommand ? `transformer command \`${target.command}\`` : `transformer module ${target.module}`,
    applies: (s) => (s.upstream.kind === 'run' || s.upstream.kind === 'bytes') && streamEndpoints.has(s.request.endpoint)
      && s.family !== 'index-reuse' && s.session.create !== false && (includeSlow || !(s.tags ?? []).some((t) => t === 'slow' || t === 'timing')),
    // The judged run and the comparison runs after it each start a process; the memory probe's
    // thousands of runs get their own room (memory.ts memoryExtraMs).
    extraBoundMs: (jobId) => (jobId === `probe:${memoryProbeId}` ? memoryExtraMs : startup?.known ? 2 * (startup.startupMs + startup.slackMs) : 0),
    async start(env) {
      if (isCommand) {
        const boundMs = target.startupTimeoutMs ?? envSeconds('ADK_CONFORMANCE_STARTUP_TIMEOUT', defaultStartupTimeoutMs(env.scenarioTimeoutMs));
        const protocol = target.protocol ?? 'auto';
        const probeEnv = { ADK_CONFORMANCE_SESSION_ID: 'adk-conformance-startup-probe', ADK_CONFORMANCE_IDLE_MS: String(idleMs) };
        const ask = protocol === 'one-shot' ? undefined : { part: 'transformer' };
        const decide = (s: Startup) => {
          startup = s;
          if (!(protocol === 'session' || (s.known && s.session))) { notApplicable['ABE-ISO-001'] = oneShotIsolation; notApplicable['ABE-MEM-001'] = oneShotMemory; }
          if (protocol === 'session' || (s.known && s.session)) {
            // A scenario drives its judged run and its comparison runs side by side: a process each.
            pool = openSessionPool({ command: target.command, part: 'transformer', startupTimeoutMs: boundMs, processes: 2 * Math.max(1, availableParallelism()), killGraceMs: 500 });
          }
        };
        // A bound given (flag, config, environment) says the command starts slowly, and an explicit
        // session form has no one-shot runs to start with: their runs wait for the probe, as before.
        const given = target.startupTimeoutMs !== undefined || (process.env.ADK_CONFORMANCE_STARTUP_TIMEOUT ?? '') !== '';
        if (given || protocol === 'session') { decide(await probeStartup(target.command, boundMs, probeEnv, undefined, ask)); return; }
        probing = probeInBackground(target.command, boundMs, probeEnv, ask, decide);
        await answeredWithin(probing, startupWindowMs);
        return;
      }
      factory = await loadTransformerModule(target.module);
    },
    async stop() {
      // Still unanswered (fail fast stopped the part first): its runs were one-shot runs, judged as a one-shot command's, as when the probe's bound ran out.
      if (probing && !probing.answer()) { notApplicable['ABE-ISO-001'] = oneShotIsolation; notApplicable['ABE-MEM-001'] = oneShotMemory; }
      probing?.stop();
      await pool?.close();
    },
    // The long-lived requirements (ABE-CORR-002, ABE-ISO-001, ABE-MEM-001) only its probes judge.
    scenarioRequirements: allTransformerRequirementIds,
    async runScenario(scenario, env): Promise<ScenarioCheck> {
      if (!probing || probing.answer()) return runScenario(scenario, env);
      // Started before the start-up probe answered (command-startup.ts startupWindowMs): kept only as a hang by both measures.
      const early = await runScenario(scenario, env);
      // A hang by both measures: the run overran and the probe, still unanswered, waits rather than works.
      if (early.fatal?.signature === 'hangs' && !probing.answer() && !(await probing.works())) return early;
      if (!(await probing.wait(env.signal))) return early;
      return runScenario(scenario, env);
    },
  };

  async function runScenario(scenario: Scenario, env: RunEnv): Promise<ScenarioCheck> {
    const timeline: TimelineEntry[] = [];
    if (startup) timeline.push({ t: 0, kind: 'note', summary: startup.how });
    const restartsBefore = pool?.restarts().length ?? 0;
    const restartNotes = (): TimelineEntry[] => (pool?.restarts().slice(restartsBefore) ?? []).map((r) => ({ t: 0, kind: 'note' as const, summary: `session process ${r.process} was replaced: it ${r.reason} (a correct implementation needs no restart)` }));
    const main = await capture(env, scenario, scenario.dialect as Dialect);
    timeline.push({ t: 0, kind: 'request', summary: `captured ${main.frames.length} frame(s) of ${scenario.id} (${main.dialect}, ${main.ending}) from the mock` });
    const first = feed(main, scenario, true);
    // A loaded machine can stall the feeder itself; a pause near the idle window that the script
    // does not have would let a correct implementation complete early. Such a run is not an
    // observation of the script: it is run again (twice at most), and reported untested if the
    // machine never fed it on time.
    const { driven, stallMs } = await driveUnstalled(() => drive(main, scenario, first.lines, env, true), {
      idleMs, signal: env.signal,
      onRetry: (ms) => timeline.push({ t: 0, kind: 'note', summary: `the harness fed a line ${Math.round(ms)} ms later than scripted (a loaded machine); run again` }),
    });
    if (stallMs >= idleMs * stallShare) {
      const reason = `not judged: the harness could not feed the frames on time (a ${Math.round(stallMs)} ms pause the script does not have, against a ${idleMs} ms idle window, three times); the machine is overloaded: run again, or with --jobs 1`;
      return { outcomes: transformerRequirementIdsFor(spec.version()).map((id) => ({ requirement: id, scenario: scenario.id, status: 'untested' as const, findings: [], reason })), timeline, machine: reason };
    }
    const frames: FedFrame[] = first.frames.map((f, i) => ({ ...f, at: driven.fedAt[i] ?? 0 }));
    const runOther = async (dialect: Dialect): Promise<NonNullable<TransformerObservation['others']>[number]> => {
      // A comparison run reads no timing, so its frames are the mock's rendering in that dialect read
      // through the same SSE reader (captureFromPlan), not served: the bytes are the same, and the
      // harness pays no HTTP exchange with its own mock for each (about 2.5 ms of its CPU; fix 47).
      const c = planned(scenario, dialect);
      const o = feed(c, scenario, false);
      const d = await driveSteady(c, scenario, o.lines, env);
      return { dialect, sessionId: c.sessionId, frames: o.frames.map((f, i) => ({ ...f, at: d.fedAt[i] ?? 0 })), run: d.run };
    };
    // The comparison runs (ABE-DET-001) read no timing, so they run side by side.
    // An implementation that cannot run at all (it hung, did not start, crashed) gains nothing
    // from the comparison runs but their time bounds: they are left out (fail fast).
    const fatal = fatalOf(driven.run);
    // An output the harness cut at its limit is not compared either: another run's would be cut at
    // another byte (where a read ended), so a difference would say nothing of the implementation,
    // and each comparison run would flood the harness again (the hostile flooding transformer:
    // 16 MB a run, some 73,000 events parsed, up to three times more per scenario).
    const compared = !fatal && !driven.run.exit.overflowed;
    // A server version that writes this run byte for byte as another is not fed again.
    const otherDialects = scenario.upstream.kind === 'run' && compared ? distinctRenderings(scenario).filter((d) => d !== main.dialect) : [];
    const [repeat, others] = await Promise.all([
      !compared ? Promise.resolve(undefined) : driveSteady(main, scenario, feed(main, scenario, false).lines, env).then((d) => d.run),
      Promise.all(otherDialects.map((d) => runOther(d))),
    ]);
    const obs: TransformerObservation = {
      scenario, sessionId: main.sessionId, dialect: main.dialect, frames, ending: main.ending,
      timing: { idleMs, toleranceMs, implementationOwnsIdle: !isCommand, ...(first.pauseAt !== undefined ? { completionPointAt: frames[first.pauseAt]?.at ?? 0 } : {}) },
      run: driven.run, ...(repeat ? { repeat } : {}), ...(others.length > 0 ? { others } : {}),
      spec: spec.observe(driven.run.events.map((e) => e.value)),
    };
    timeline.push(...describe(frames, driven.run));
    for (const o of sameRun(obs).other) timeline.push({ t: 0, kind: 'note', summary: `the ${o.dialect} rendering means another run (its server behaves differently here): fed, not compared (ABE-DET-001)` });
    const input = boundedInput(main.frames.map((f) => f.data), `the replay line runs the scenario again, and \`npx adk-conformance frames ${scenario.id}\` prints a corpus scenario's lines`);
    timeline.push(...restartNotes());
    return { outcomes: checkTransformer(obs), timeline, input, ...(fatal ? { fatal } : {}) };
  }
  return runner;
}

export { loadTransformerModule } from './load.ts';

const clip = (s: string, n = 120): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * What makes a transformer unusable whatever the scenario (the engine's fail fast): it could not
 * start, hung after its input ended, crashed before writing an event, or wrote only lines that are
 * not events. A wrong event is a finding, never fatal.
 */
export function fatalOf(run: TransformerRun): { signature: string; reason: string } | undefined {
  const e = run.exit;
  if (e.spawnError) return { signature: 'spawn', reason: `could not be started (${clip(e.spawnError)})` };
  if (e.timedOut) return { signature: 'hangs', reason: 'hangs: it did not finish after its input ended' };
  if (run.events.length > 0) return undefined;
  if (e.threw) return { signature: 'throws', reason: `threw before emitting an event (${clip(e.threw)})` };
  if (e.mode === 'command' && e.exitCode !== 0 && e.exitCode !== null) return { signature: `exit ${e.exitCode}`, reason: `exited with code ${e.exitCode} before writing an event${e.stderr.trim() ? ` (stderr: ${clip(e.stderr.trim().split('\n').pop() ?? '')})` : ''}` };
  if (run.problems.length > 0) return { signature: 'garbage', reason: `wrote only lines that are not events (first: ${clip(run.problems[0]?.reason ?? '')})` };
  return undefined;
}

function describe(frames: FedFrame[], run: TransformerRun): TimelineEntry[] {
  const out: TimelineEntry[] = [
    ...frames.map((f): TimelineEntry => ({ t: Math.round(f.at), kind: 'frame', summary: `frame[${f.index}] ${f.kind}: ${clip(f.data)}` })),
    ...run.events.map((e): TimelineEntry => ({ t: Math.round(e.at), kind: 'event', summary: `event[${e.index}] ${String(e.value.type)}${stateOf(e) ? ` ${stateOf(e)}` : ''} ${String(e.value.source_agent)}: ${clip(String((e.value.content as Record<string, unknown> | undefined)?.summary ?? ''))}` })),
    ...run.problems.map((p): TimelineEntry => ({ t: 0, kind: 'note', summary: `output line ${p.line} is not an event: ${p.reason}` })),
  ];
  out.push({ t: Math.round(run.inputClosedAt), kind: 'end', summary: 'input closed' });
  if (run.exit.stderr.trim()) out.push({ t: Math.round(run.inputClosedAt), kind: 'stderr', summary: clip(run.exit.stderr.trim(), 400) });
  const e = run.exit;
  out.push({ t: Math.round(run.inputClosedAt), kind: 'exit', summary: e.spawnError ? `not started: ${e.spawnError}` : e.threw ? `threw: ${clip(e.threw)}` : e.timedOut ? 'timed out' : e.signal ? `ended by ${e.signal}` : `exit ${e.exitCode}` });
  return out.sort((a, b) => a.t - b.t).slice(0, 300);
}
