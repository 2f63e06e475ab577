/**
 * The harness's results are data: checks produce findings, the runner produces a RunResult,
 * reporters print it. Nothing here does I/O.
 */

export type Level = 'MUST' | 'SHOULD' | 'MAY';

/** The part of the pipeline a requirement applies to. */
/** `adk-stream` is the upstream ADK server's own stream, judged live by `adk-conformance tap` (no runner certifies it); `adk-server` is code that serves an adk-js Runner (--adk-server-module). */
export type Part = 'gateway' | 'transformer' | 'normalizer' | 'client' | 'audit-bridge' | 'proof-stream' | 'proxy' | 'adk-stream' | 'adk-server';

export type SpecSource = { doc: 'seed-000' | 'seed-001' | 'seed-002' | 'seed-003' | 'seed-004' | 'adk-wire-format' | 'adk-python-facts' | 'whatwg-sse'; section: string };

export type Requirement = {
  /** Stable id, never reused: a changed requirement gets a new id. */
  id: string;
  title: string;
  level: Level;
  source: SpecSource;
  /** The sentence of the source the requirement comes from, quoted. */
  quote: string;
  part: Part;
  tags: string[];
  /** The AgentBriefingEvent spec version (harness/spec-version.ts) that brought it in; absent: every version. */
  introducedIn?: '1.0' | '1.1';
  /** The spec version that dropped it; under that version and later it is not applicable. */
  removedIn?: '1.0' | '1.1';
};

/** One thing an implementation under test did wrong. */
export type Finding = {
  requirement: string;
  /** A stable code for the kind of failure (e.g. `frame-mutated`, `schema-invalid`). */
  code: string;
  /** Where: a JSON pointer into the event, or `frame[3]`, `header:cache-control`, `byte 1024`. */
  path: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  /** The scenario it was observed in. */
  scenario?: string;
  /** One line that replays just this case. */
  replay?: string;
  /**
   * The finding depends on the wall clock (a window of the implementation's own ran out first): the
   * engine repeats its run alone before reporting it (engine-confirm.ts), as it does for timing codes.
   */
  timing?: true;
};

/** What a check concluded about one requirement in one scenario. */
export type CheckOutcome = {
  requirement: string;
  scenario: string;
  /**
   * passed: exercised and satisfied; failed: findings; untested: the check could not run (e.g. the
   * target crashed first); flaky: a timing-dependent failure that did not reproduce when its run was
   * repeated alone (the findings of the first run are kept as the evidence).
   */
  status: 'passed' | 'failed' | 'untested' | 'flaky';
  findings: Finding[];
  /** Why untested, when it is. */
  reason?: string;
};

/** One observed moment of a scenario run, for the report timeline. */
export type TimelineEntry = { t: number; kind: 'request' | 'status' | 'frame' | 'event' | 'stderr' | 'exit' | 'end' | 'note'; summary: string };

export type ScenarioResult = {
  scenario: string;
  part: Part;
  status: 'passed' | 'failed' | 'errored';
  durationMs: number;
  timeline: TimelineEntry[];
  outcomes: CheckOutcome[];
  /** A harness-side problem running the scenario (never the implementation's fault). */
  error?: string;
  replay: string;
  /** What the implementation was fed, in full, for a scenario that did not pass (bounded: `truncated` says so). */
  input?: ScenarioInput;
};

/** The data lines a transformer was fed (docs/transform-contract.md "Input"). */
export type ScenarioInput = { kind: 'data-lines'; lines: string[]; truncated?: string };

/** The most input text a report keeps for one scenario. */
export const maxInputChars = 1024 * 1024;

/** Keep `lines` up to maxInputChars, saying where they stop. */
export function boundedInput(lines: readonly string[], whole: string): ScenarioInput {
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length > maxInputChars) {
      return { kind: 'data-lines', lines: kept, truncated: `${lines.length - kept.length} of ${lines.length} lines not kept (the report keeps ${maxInputChars} characters of input); ${whole}` };
    }
    kept.push(line);
    size += line.length;
  }
  return { kind: 'data-lines', lines: kept };
}

/** flaky: failed once, did not reproduce alone; counts against the verdict like untested (never silently passed). */
export type RequirementStatus = 'passed' | 'failed' | 'flaky' | 'untested' | 'not-applicable';

export type RequirementResult = Requirement & {
  status: RequirementStatus;
  /** Scenarios that exercised it. */
  scenarios: string[];
  findings: Finding[];
  /** Mutant ids that prove this requirement's checks can fail (empty: unproven). */
  provenBy: string[];
  /** Why not applicable, when it is. */
  reason?: string;
};

/** could not evaluate: no applicable MUST (or, where none applies, no requirement) was observed at all. */
export type Verdict = 'could not evaluate' | 'non-compliant' | 'MUST-compliant' | 'SHOULD-compliant' | 'fully compliant';

export type GatePolicy = {
  /** The level the run must reach to exit 0: must -> MUST-compliant or better, and so on. */
  level: 'must' | 'should' | 'may';
  /** Untested requirements count as failures (a2a-tck's vacuous-100% lesson). */
  untestedFails: true;
};

export type RunResult = {
  tool: { name: 'adk-conformance'; version: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  target: { description: string; parts: Part[] };
  gate: GatePolicy;
  seed: number;
  /** default: derived from the kit version; given: --seed N; random: --seed random (harness/seed.ts). */
  seedSource: 'default' | 'given' | 'random';
  shard?: { index: number; total: number };
  /** Present when --grep narrowed the scenarios: the run gates only the requirements they exercise. */
  selection?: { grep: string[]; gated: number; outside: number; description: string };
  /** Present when the scenarios were served by another upstream than the mock (`--upstream real-adk-js`). */
  upstream?: UpstreamReport;
  /**
   * A tap's report (`adk-conformance tap`): every run it judged is counted here, while `scenarios`
   * keeps the failing ones only (bounded). `report merge` sums it over several taps.
   */
  live?: { taps: number; runs: number; failedRuns: number };
  /** The start-up of every process the run started and waited for, with its readiness bound (absent: none was timed). */
  startup?: StartupRecord[];
  /** The AgentBriefingEvent spec version a transformer was judged against, and how it was chosen (absent: no transformer under test). */
  spec?: { version: '1.0' | '1.1'; how: 'given' | 'detected' | 'default'; detail: string };
  /** Present when an expected-failure baseline gated the run (--baseline; harness/baseline-gate.ts): the verdict stays as observed, the exit code follows `baseline.passed`. */
  baseline?: BaselineReport;
  verdict: Verdict;
  /** Whether the verdict meets the gate. */
  passed: boolean;
  requirements: RequirementResult[];
  scenarios: ScenarioResult[];
  counts: {
    requirements: Record<Level, Record<RequirementStatus, number>>;
    scenarios: { total: number; passed: number; failed: number; errored: number };
    mutants: { total: number; killed: number };
    unproven: number;
  };
};

/**
 * How long one process of the implementation took to show it was ready (listening, for a
 * gateway), against the bound it had. Start-up is never behaviour: run clocks start after it.
 */
export type StartupRecord = {
  part: Part;
  /** Which process, e.g. the gateway's `main` or `alt` instance. */
  instance: string;
  /** The readiness bound it had (--startup-timeout). */
  boundMs: number;
  /** How long it took, when it got ready. */
  readyMs?: number;
  outcome: 'ready' | 'timed-out' | 'failed';
};

/** What served a `--upstream` run's scenarios, which ones it captured, and why the others were left out. */
export type UpstreamReport = { name: 'real-adk-js'; runtime: string; captured: string[]; leftOut: Array<{ id: string; reason: string }> };

/** One baseline entry and what the run made of it: still failing as listed, passing now (remove it), or not observed. */
export type BaselineEntryResult = {
  requirement: string;
  scenarios?: string[];
  reason: string;
  issue?: string;
  status: 'confirmed' | 'stale' | 'unexercised';
  detail: string;
  /** The listed scenarios that now pass (a narrowed entry). */
  staleScenarios?: string[];
};

/** A failure at the gate's levels that no baseline entry covers; `scenarios`: where it failed outside its entry's list (empty: the whole requirement). */
export type BaselineNewFailure = { requirement: string; level: Level; status: 'failed' | 'flaky' | 'untested'; scenarios: string[]; detail: string };

/** The ratchet gate of a baselined run (docs/baseline.md). */
export type BaselineReport = { file: string; passed: boolean; summary: string; entries: BaselineEntryResult[]; newFailures: BaselineNewFailure[] };
