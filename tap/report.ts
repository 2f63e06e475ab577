/**
 * The tap's report: an observer that keeps a bounded summary of every run it judged and turns it
 * into the harness's RunResult, so the harness's reporters write the same four reports as a
 * certification run. What it keeps does not grow with traffic: per requirement a count of runs
 * and failures, its first `maxFindings` findings and first `maxScenarioNames` run names; full
 * results only for the first `maxFailingRuns` failing runs. Passed runs leave counts only.
 */
import type { CheckOutcome, Finding, Part, RequirementResult, RunResult, ScenarioResult, TimelineEntry } from '../harness/model.ts';
import { mutantKills } from '../harness/mutants/index.ts';
import { requirements } from '../harness/requirements/index.ts';
import { packageVersion } from '../harness/version.ts';
import { tally } from '../harness/verdict.ts';
import { tapMutants } from '../harness/mutants/tap.ts';
import { createRunState } from './run-state.ts';
import type { TapFrame, TapObserver, TapRun, TapRunSummary, UpstreamRole } from './types.ts';

/** What a tap can judge on live traffic, per role; every other requirement is not applicable to a tap. */
export function judgeableRequirements(role: UpstreamRole): ReadonlySet<string> {
  const ids = [...requirements.values()].filter((r) => r.part === 'adk-stream').map((r) => r.id);
  ids.push('CLI-REQ-001', 'CLI-REQ-003');
  if (role === 'gateway') ids.push('GW-HDR-001', 'GW-HDR-002', 'GW-HDR-003', 'GW-HDR-004', 'GW-ERR-001', 'GW-ERR-002', 'GW-ERR-003', 'GW-ERR-004', 'GW-ERR-005', 'GW-TIMEOUT-001', 'GW-PASS-004', 'GW-REQ-001');
  return new Set(ids);
}

export type ReportCollectorOptions = {
  role: UpstreamRole;
  upstream: string;
  maxFindings?: number;
  maxScenarioNames?: number;
  maxFailingRuns?: number;
  /** Requirements judged besides the role's (`tap --pair` judges GW-PASS-001, GW-FWD-003... on matched runs, tap/pair.ts). */
  judgeable?: readonly string[];
  /** Requirements the verdict covers (default all); the others' runs stay listed, their requirements not applicable. */
  gated?: (id: string) => boolean;
  /** The option that narrowed the verdict, for the reason and the report's selection line. */
  gatedDescription?: string;
  /** The replay line of a failing run (the --save-failing observer knows the file it wrote). */
  replayOf?: (run: TapRun) => string | undefined;
};

type Tally = { runs: number; failedRuns: number; findings: number; kept: Finding[]; names: string[] };

/**
 * Requirements on the client's own request (CLI-REQ-*): the client made it, not the upstream. A
 * tap in front of an ADK server (--role adk) judges the server, so these are reported apart: each
 * run lists its findings, and the verdict does not count them (the real adk-js server was
 * "non-compliant" for bodies a client sent it). `run --client-cmd` certifies a client.
 */
export function clientRequestRequirement(id: string): boolean {
  return id.startsWith('CLI-REQ-');
}

export type ReportCollector = TapObserver & {
  /** Runs judged so far (kind 'run' only) and how many failed. */
  counts: () => { runs: number; failed: number; other: number };
  /** Per requirement: runs that exercised it, runs it failed in, findings seen. */
  perRequirement: () => ReadonlyMap<string, { runs: number; failedRuns: number; findings: number }>;
  /** The RunResult of everything so far; undefined before the first judged run, or when no run exercised a gated requirement (a verdict over nothing is refused). */
  result: () => RunResult | undefined;
};

export function createReportCollector(options: ReportCollectorOptions): ReportCollector {
  const maxFindings = options.maxFindings ?? 20;
  const maxNames = options.maxScenarioNames ?? 20;
  const maxFailing = options.maxFailingRuns ?? 50;
  const startedAt = new Date();
  const t0 = performance.now();
  const byRequirement = new Map<string, Tally>();
  const failing: ScenarioResult[] = [];
  /** A run's timeline while it streams: a frame without findings is one number (index * 8 + kind), built into an entry only if the run fails. */
  const timelines = createRunState<Array<TimelineEntry | number>>('report timeline');
  let runs = 0;
  let failed = 0;
  let other = 0;
  let otherFailed = 0;

  /** Every frame passes here: the entry is built only while the run's timeline has room. */
  const note = (run: TapRun, entry: () => TimelineEntry | number) => {
    const list = timelines.get(run);
    if (list && list.length < 40) list.push(entry());
  };

  return {
    onRunStart(run) { timelines.set(run, [{ t: 0, kind: 'request', summary: `${run.method} ${run.url}` }]); },
    onResponseHead(run) { note(run, () => ({ t: 0, kind: 'status', summary: `HTTP ${run.response?.status ?? '?'}` })); },
    // Most frames pass clean and most runs pass: a clean frame is noted as a number, no string.
    onFrame(run, frame, findings) { note(run, () => (findings.length === 0 ? frame.index * 8 + frameKinds.indexOf(frame.kind) : { t: 0, kind: 'frame', summary: `frame[${frame.index}] ${frame.kind}: ${findings.map((f) => `${f.requirement} ${f.code}`).join(', ')}` })); },
    onFindings(run, findings) { for (const f of findings) note(run, () => ({ t: 0, kind: 'note', summary: `${f.requirement} ${f.code}: ${f.message.slice(0, 160)}` })); },
    onRunEnd(run, summary) {
      const noted = timelines.get(run) ?? [];
      timelines.clear(run);
      if (run.kind === 'run') runs++; else other++;
      if (summary.failed) { if (run.kind === 'run') failed++; else otherFailed++; }
      // A forwarded request that is not a run counts only when its transport failed.
      if (run.kind === 'other' && !summary.failed) return;
      for (const [id, list] of summary.judged) {
        const t = byRequirement.get(id) ?? { runs: 0, failedRuns: 0, findings: 0, kept: [], names: [] };
        byRequirement.set(id, t);
        t.runs++;
        t.findings += list.length;
        if (list.length > 0) t.failedRuns++;
        if (t.names.length < maxNames) t.names.push(run.name);
        for (const f of list) if (t.kept.length < maxFindings) t.kept.push(f);
      }
      if (summary.failed && failing.length < maxFailing) failing.push(scenarioOf(run, summary, [...noted.map(entryOf), { t: summary.durationMs, kind: 'end', summary: `${endText(summary)}${run.server ? `; the events are ${run.server}'s` : ''}` }], options.replayOf?.(run)));
    },
    counts: () => ({ runs, failed, other }),
    perRequirement: () => new Map([...byRequirement].map(([id, t]) => [id, { runs: t.runs, failedRuns: t.failedRuns, findings: t.findings }])),
    result() {
      if (byRequirement.size === 0) return undefined;
      const judgeable = new Set([...judgeableRequirements(options.role), ...(options.judgeable ?? [])]);
      const proven = provenBy();
      const results: RequirementResult[] = [...requirements.values()].map((r) => {
        const t = byRequirement.get(r.id);
        const base = { ...r, provenBy: proven.get(r.id) ?? [] };
        if (!t) {
          const reason = judgeable.has(r.id) ? 'no run through the tap exercised it'
            : judgeableRequirements('gateway').has(r.id) ? 'the tap ran with --role adk: gateway requirements are judged with --role gateway'
              : 'a tap does not judge it on live traffic; `adk-conformance run` certifies it';
          return { ...base, status: 'not-applicable' as const, scenarios: [], findings: [], reason };
        }
        if (options.role === 'adk' && clientRequestRequirement(r.id)) {
          const reason = `the client's request, not the ADK server's (--role adk judges the server): ${t.runs} runs exercised it, ${t.failedRuns} failed it; those runs list its findings, and \`adk-conformance run --client-cmd\` certifies a client`;
          return { ...base, status: 'not-applicable' as const, scenarios: t.names, findings: [], reason };
        }
        if (options.gated && !options.gated(r.id)) {
          const reason = `outside the verdict (${options.gatedDescription ?? 'narrowed'}): ${t.runs} runs exercised it, ${t.failedRuns} failed it; those runs list its findings`;
          return { ...base, status: 'not-applicable' as const, scenarios: t.names, findings: [], reason };
        }
        return { ...base, status: t.failedRuns > 0 ? 'failed' as const : 'passed' as const, scenarios: t.names, findings: t.kept };
      });
      const outside = options.gated ? [...byRequirement.keys()].filter((id) => !options.gated?.(id)).length : 0;
      const gatedCount = results.filter((r) => r.status !== 'not-applicable').length;
      // A verdict over nothing is refused (harness/verdict.ts): no run exercised a gated requirement.
      if (gatedCount === 0) return undefined;
      const parts: Part[] = options.role === 'gateway' ? ['gateway', 'adk-stream', 'client'] : ['adk-stream'];
      const gate = { level: 'must' as const, untestedFails: true as const };
      const mutants = { total: tapMutants.length, killed: tapMutants.length };
      const derived = tally({ gate, requirements: results, scenarios: failing, mutants });
      const finishedAt = new Date();
      return {
        tool: { name: 'adk-conformance', version: packageVersion() },
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: Math.round(performance.now() - t0),
        target: { description: `live traffic through adk-conformance tap, upstream ${options.upstream} (${options.role === 'gateway' ? 'a /run_sse gateway' : 'an ADK server'}): ${runs} runs, ${failed} failing; full results kept for the first ${maxFailing} failing runs`, parts },
        gate,
        seed: 0,
        seedSource: 'default',
        requirements: results,
        scenarios: failing,
        ...(options.gated ? { selection: { grep: [], gated: gatedCount, outside, description: `${options.gatedDescription ?? 'a narrowed verdict'} gates only the ${gatedCount} requirements of the gateway its runs exercised; ${outside} others the runs exercised (the ADK server's, the client's) are listed in the runs, outside the verdict` } } : {}),
        ...derived,
        // The scenario list keeps failing runs only (bounded); the counts are of every run.
        counts: { ...derived.counts, scenarios: { total: runs + otherFailed, passed: runs - failed, failed: failed + otherFailed, errored: 0 } },
        live: { taps: 1, runs: runs + otherFailed, failedRuns: failed + otherFailed },
      };
    },
  };
}

const frameKinds: ReadonlyArray<TapFrame['kind']> = ['event', 'error-line', 'gateway-error', 'done', 'invalid'];

function entryOf(noted: TimelineEntry | number): TimelineEntry {
  return typeof noted === 'number' ? { t: 0, kind: 'frame', summary: `frame[${Math.floor(noted / 8)}] ${frameKinds[noted % 8] ?? 'invalid'}` } : noted;
}

function provenBy(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // mutantKills holds the certification mutants and the tap's own (harness/mutants/index.ts).
  for (const [id, kills] of Object.entries(mutantKills)) for (const r of kills) out.set(r, [...(out.get(r) ?? []), id]);
  return out;
}

function endText(s: TapRunSummary): string {
  return `${s.ending}${s.status !== undefined ? `, HTTP ${s.status}` : ''}, ${s.frames} events, ${s.bytes} bytes${s.droppedFindings ? `, ${s.droppedFindings} more findings not kept` : ''}${s.error ? ` (${s.error})` : ''}`;
}

function scenarioOf(run: TapRun, summary: TapRunSummary, timeline: TimelineEntry[], replay: string | undefined): ScenarioResult {
  const outcomes: CheckOutcome[] = [...summary.judged].map(([requirement, findings]) => ({ requirement, scenario: run.name, status: findings.length > 0 ? 'failed' : 'passed', findings }));
  const part: Part = outcomes.some((o) => o.requirement.startsWith('GW-') && o.status === 'failed') ? 'gateway' : 'adk-stream';
  return {
    scenario: run.kind === 'run' ? run.name : `${run.name} (other)`,
    part,
    status: 'failed',
    durationMs: summary.durationMs,
    timeline,
    outcomes,
    replay: replay ?? `not saved: run the tap with --save-failing DIR to keep failing runs as scenarios (${run.method} ${run.url} at ${run.startedAt})`,
  };
}
