/**
 * How the engine drives a part under test. A PartRunner knows how to run one scenario against its
 * implementation and check what it observed; the engine knows nothing about gateways or
 * transformers. Checks return outcomes (data); a misbehaving implementation is never an exception.
 */
import type { Scenario } from '../../schemas/types.ts';
import type { CheckOutcome, Part, ScenarioInput, StartupRecord, TimelineEntry } from '../model.ts';
import type { SpecChoice } from '../spec-version.ts';

export type RunEnv = {
  /** Base URL of the mock ADK server the engine started for this run. */
  mockUrl: string;
  /** The run's seed (generated cases, ids). */
  seed: number;
  /** Upper bound for one scenario, all retries and waits included. */
  scenarioTimeoutMs: number;
  signal: AbortSignal;
  /** The run holds the engine's gate alone: a repeat of a run that overran, or that the machine kept from being judged (ScenarioCheck.machine). */
  alone?: boolean;
};

/**
 * What `start` learns besides the run's env: the scenario-level --grep words (empty in a full run),
 * so a runner can tell a scenario selected on purpose, and the probes the engine will run, so it
 * starts no background load for a probe that was left out.
 */
export type StartEnv = Omit<RunEnv, 'signal'> & { grep?: readonly string[]; probes?: readonly string[] };

export type ScenarioCheck = {
  outcomes: CheckOutcome[];
  timeline: TimelineEntry[];
  /**
   * The implementation itself is unusable on this scenario, whatever the scenario: it hung, could
   * not start, crashed before answering, or printed nothing but garbage. The same signature on the
   * first scenarios of a part makes the engine stop running that part (docs/harness.md "Fail fast").
   */
  fatal?: { signature: string; reason: string };
  /**
   * The machine, not the implementation, kept this run from being judged (the harness could not feed
   * it on time, three times): the engine repeats it once holding the gate alone, as it repeats an
   * overrun (engine-confirm.ts), and the repeat is its result.
   */
  machine?: string;
  /** What was fed, for the report of a scenario that does not pass (the engine drops it otherwise). */
  input?: ScenarioInput;
};

/** A requirement exercised outside the scenario corpus (auth probes, memory over a long run...). */
export type Probe = {
  id: string;
  requirements: string[];
  /**
   * Reports only when it finds something (the shrink of a failing generated run): no outcome from
   * it is no observation either way, so the engine leaves it out of the run instead of calling it
   * passed or errored.
   */
  auxiliary?: boolean;
  /**
   * Tolerates neighbours: it reads no wall-clock window, or only bounds seconds wide (a deadline,
   * a long timeout), so it runs beside the shared load like a scenario. Probes run alone by
   * default: one not marked says nothing of what it reads, so nothing enters beside it.
   */
  shared?: boolean;
  /**
   * Collects a load its runner started outside the gate (the gateway's memory and timing runs,
   * kicked once its instances listen): it holds no slot of either gate while it waits, since
   * what it waits for holds none, and starts with the part's first jobs and is committed last,
   * like a background job. Its bound is the scenario's plus the runner's `extraBoundMs`.
   */
  collects?: boolean;
  /**
   * Runs in a process of its own and reads nothing timed (a module's memory, counted by runs and
   * read in that process's own heap): it holds no slot of the engine's gate, so scenarios and even
   * the jobs that run alone go on beside it on the other core. One background job at a time, from
   * when every part has started (its process's start-up would slow theirs: docs/performance.md fix 62).
   */
  background?: boolean;
  /**
   * Reads wall-clock windows and mostly waits on them (held-open byte cases waiting out an idle
   * window and a grace): it keeps the shared load away like a timing-sensitive scenario, and runs
   * beside other timed runs only (harness/engine-gate.ts says why). Alone otherwise.
   */
  timed?: boolean;
  /** Left out of an --upstream run even when auxiliary (an auxiliary probe otherwise runs there). */
  mockOnly?: boolean;
  run: (env: RunEnv) => Promise<ScenarioCheck>;
};

export type PartRunner = {
  part: Part;
  /** Other parts whose requirements its probes judge too (the server helper's served bytes are judged by adk-stream's). */
  alsoJudges?: Part[];
  /** e.g. "transformer command `python3 examples/transformer.py`". */
  description: string;
  /** Whether this scenario exercises this part (asked once start() ran). */
  applies: (scenario: Scenario) => boolean;
  /**
   * Whether `applies` could say yes, asked before start() and free of side effects (default: `applies`
   * itself, which must then be both). A part none of whose selected scenarios could apply and that has
   * no probe to run is not started: the replay line of a normaliser scenario started the gateway and
   * the proxy and waited for them to listen.
   */
  couldApply?: (scenario: Scenario) => boolean;
  runScenario: (scenario: Scenario, env: RunEnv) => Promise<ScenarioCheck>;
  /**
   * Every requirement its scenario runs can report on (default: any of the parts it judges). Under a
   * requirement-level --grep that selects none of them its scenarios are not run, only its probes
   * that exercise one: the replay line of a failed memory probe runs that probe alone.
   */
  scenarioRequirements?: readonly string[];
  probes?: Probe[];
  /** Requirements this runner cannot exercise in its current mode, with the reason (counted as untested). */
  unreachable?: Record<string, string>;
  /**
   * Requirements outside this runner's contract in its current mode, with the reason (the client
   * command contract never sees the request): certify reports them not-applicable, never untested.
   */
  notApplicable?: Record<string, string>;
  start?: (env: StartEnv) => Promise<void>;
  /** The start-ups this runner waited for so far, with their bound (certify puts them in the report). */
  startups?: () => StartupRecord[];
  /** The AgentBriefingEvent spec version it judges against and how it was chosen, once known (certify puts it in the report). */
  spec?: () => SpecChoice | undefined;
  /**
   * Time the engine adds to its per-job bound for this job, known once start() ran: a command's
   * measured start-up for each process the job starts (a probe may start one per case).
   */
  extraBoundMs?: (jobId: string) => number;
  /** At most this many of its scenarios at once (the engine's --jobs is capped by it; default: no cap). */
  maxJobs?: number;
  stop?: () => Promise<void>;
};
