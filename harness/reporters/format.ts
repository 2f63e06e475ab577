/**
 * What every reporter prints the same way: values, sources, replay commands and the grouping of
 * requirements by outcome. Reporters differ only in markup, never in what they say.
 */
import type { Finding, RequirementResult, RunResult, SpecSource } from '../model.ts';
import { describeGate, describeVerdict, levels, unprovenRequirements } from '../verdict.ts';

/** An expected/actual value as text: JSON (so "\n\n" and trailing spaces stay visible). */
export function formatValue(value: unknown): string {
  if (value === undefined) return '(not recorded)';
  try {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v), 2) ?? String(value);
  } catch {
    // A circular value from a buggy check must not take the report down with it.
    return String(value);
  }
}

export function sourceLabel(source: SpecSource): string {
  return `${source.doc} § ${source.section}`;
}

/** The one line that replays a finding: its own, else its scenario's. */
export function replayCommand(finding: Finding, run: Pick<RunResult, 'scenarios'>): string | undefined {
  if (finding.replay) return finding.replay;
  if (finding.scenario === undefined) return undefined;
  return run.scenarios.find((s) => s.scenario === finding.scenario)?.replay || undefined;
}

const levelRank = (r: RequirementResult) => levels.indexOf(r.level);

/** Requirements in report order: MUST first, then by id. */
export function sortedRequirements(requirements: readonly RequirementResult[]): RequirementResult[] {
  return [...requirements].sort((a, b) => levelRank(a) - levelRank(b) || a.id.localeCompare(b.id));
}

export type Groups = {
  failed: RequirementResult[];
  /** Failed once, did not reproduce alone: shown apart, never folded into passed. */
  flaky: RequirementResult[];
  untested: RequirementResult[];
  notApplicable: RequirementResult[];
  unproven: RequirementResult[];
};

export function groupRequirements(run: Pick<RunResult, 'requirements'>): Groups {
  const sorted = sortedRequirements(run.requirements);
  return {
    failed: sorted.filter((r) => r.status === 'failed'),
    flaky: sorted.filter((r) => r.status === 'flaky'),
    untested: sorted.filter((r) => r.status === 'untested'),
    notApplicable: sorted.filter((r) => r.status === 'not-applicable'),
    unproven: unprovenRequirements(sorted),
  };
}

/** Per-level count lines: `MUST: 3 passed, 2 failed, 1 untested, 0 not applicable`. */
export function countLines(run: Pick<RunResult, 'counts'>): { level: string; passed: number; failed: number; flaky: number; untested: number; notApplicable: number }[] {
  return levels.map((level) => {
    const row = run.counts.requirements[level];
    // A report written before flaky existed has no such count.
    return { level, passed: row.passed, failed: row.failed, flaky: row.flaky ?? 0, untested: row.untested, notApplicable: row['not-applicable'] };
  });
}

/** The verdict with what was observed at each level (harness/verdict.ts describeVerdict), and the gate. */
export function verdictSentence(run: Pick<RunResult, 'verdict' | 'passed' | 'gate' | 'counts'>): string {
  const gate = run.verdict === 'could not evaluate' ? 'nothing was observed to judge it (exit 3)' : run.passed ? 'is met' : 'is not met';
  return `Verdict: ${describeVerdict(run)}. The gate (${run.gate.level}) ${gate}.`;
}

export function gateSentence(run: Pick<RunResult, 'gate'>): string {
  return describeGate(run.gate);
}

/** Strip what no text format should carry: C0 controls except tab and newline, DEL, lone surrogates. */
export function stripControls(text: string): string {
  // Lone surrogates are unpaired halves that no encoder can write; the rest is XML 1.0's Char production.
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');
}

/** Make control characters visible (`\u0007`) where a human reads the text: they may be the finding. */
export function showControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The mutants sentence of the counts. A certification ran its mutants; a tap's live report ran none,
 * so it says where the tap's mutants are caught rather than claiming kills of its own.
 */
export function mutantsText(run: Pick<RunResult, 'counts' | 'live'>): string {
  const m = run.counts.mutants;
  if (run.live) return `Mutants: none run on live traffic; the ${m.total} tap mutants are each caught by the kit's own test suite.`;
  return `Mutants: ${m.killed} of ${m.total} killed.`;
}
