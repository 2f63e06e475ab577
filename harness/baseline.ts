/**
 * Expected-failure baselines (docs/baseline.md): a JSON file, checked against
 * schemas/baseline.schema.json, that lists the requirements an implementation is known to fail.
 * This module reads and checks the file and writes one from a report; baseline-gate.ts applies it
 * to a run. Every problem with the file is a configuration error (exit 2) that names the file, the
 * entry and the fix: a baseline that silently lists nothing real would let any failure through.
 */
import { readFileSync } from 'node:fs';
import { nearest, UsageError } from '../core/errors.ts';
import { parseJson } from '../scenarios/loader.ts';
import { validate } from '../schemas/registry.ts';
import type { Baseline } from '../schemas/types.ts';
import type { Level, RunResult } from './model.ts';
import { requirements } from './requirements/index.ts';
import { readLock, type IdsLock } from './requirements/ids-lock.ts';

export type { Baseline };
export type BaselineEntry = Baseline['knownFailures'][number];

/** A checked baseline and the file it came from (as the user named it, for messages and reports). */
export type LoadedBaseline = { file: string; entries: BaselineEntry[] };

export const baselineSchemaRef = './node_modules/adk-conformance/schemas/baseline.schema.json';

/** Read and check a baseline file; `shownAs` is how messages name it (default: the path). */
export function loadBaseline(path: string, shownAs = path): LoadedBaseline {
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch (error) {
    throw new UsageError(`--baseline ${shownAs}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); write one with 'adk-conformance report baseline REPORT_DIR > ${shownAs}' (docs/baseline.md).`);
  }
  const parsed = parseJson(text);
  if ('error' in parsed) throw new UsageError(`--baseline ${shownAs} is not valid JSON: ${parsed.error}.`);
  return checkBaseline(parsed.value, shownAs);
}

/** Check a baseline value against the schema, the requirement registry and the id lock. */
export function checkBaseline(value: unknown, file: string, lock: IdsLock = readLock()): LoadedBaseline {
  const result = validate('baseline', value);
  if (!result.valid) {
    const first = result.errors.slice(0, 3).map((e) => `${e.path || '/'} ${e.message}`).join('; ');
    throw new UsageError(`--baseline ${file}: ${first}. See docs/baseline.md (schema: schemas/baseline.schema.json).`);
  }
  const entries = (value as Baseline).knownFailures;
  const seen = new Map<string, number>();
  entries.forEach((entry, i) => {
    const where = `--baseline ${file}: /knownFailures/${i} (${entry.requirement})`;
    const retired = lock.ids[entry.requirement]?.retired;
    if (retired !== undefined) {
      throw new UsageError(`${where}: ${entry.requirement} was retired in ${retired} and is never judged, so this entry can never be confirmed or go stale; remove it, and baseline the requirement that replaced it if that one fails (docs/versioning.md, docs/requirements.md).`);
    }
    if (!requirements.has(entry.requirement)) {
      const near = nearest(entry.requirement, [...requirements.keys()]);
      throw new UsageError(`${where}: no requirement has this id${near ? ` (did you mean '${near}'?)` : ''}; fix the id or remove the entry (ids: docs/requirements.md).`);
    }
    const before = seen.get(entry.requirement);
    if (before !== undefined) throw new UsageError(`${where}: /knownFailures/${before} lists ${entry.requirement} too; keep one entry per requirement (merge their scenarios, or drop the scenarios to cover every failure of it).`);
    seen.set(entry.requirement, i);
  });
  return { file, entries };
}

/**
 * A scenario an entry names that the run does not know is a typo that would never be judged:
 * a configuration error, with the nearest known id. `known`: every scenario id and `probe:<id>`.
 */
export function checkBaselineScenarios(baseline: LoadedBaseline, known: ReadonlySet<string>): void {
  baseline.entries.forEach((entry, i) => {
    for (const s of entry.scenarios ?? []) {
      if (known.has(s)) continue;
      const near = nearest(s, [...known]);
      throw new UsageError(`--baseline ${baseline.file}: /knownFailures/${i} (${entry.requirement}) names scenario '${s}', which this run does not know${near ? ` (did you mean '${near}'?)` : ''}; fix it, or remove it from the entry ('adk-conformance scenarios' lists the ids; a probe is 'probe:<id>').`);
    }
  });
}

/** The levels a gate judges: must -> MUST; should -> MUST, SHOULD; may -> all three. */
export function gateLevels(level: RunResult['gate']['level']): Level[] {
  return level === 'must' ? ['MUST'] : level === 'should' ? ['MUST', 'SHOULD'] : ['MUST', 'SHOULD', 'MAY'];
}

/**
 * A baseline from a report: every requirement at the gate's levels that failed, was flaky or was
 * untested, with a reason that dates it and quotes the first finding (or the untested reason).
 * `byScenario` narrows each entry to the scenarios it failed in.
 */
export function baselineFromReport(run: RunResult, options: { date: string; byScenario?: boolean; source?: string }): Baseline {
  if (run.verdict === 'could not evaluate') throw new UsageError(`${options.source ?? 'the report'} observed nothing (could not evaluate): a baseline of it would accept every requirement untested. Fix the run first (its reasons are in report.md).`);
  if (run.shard) throw new UsageError(`${options.source ?? 'the report'} is shard ${run.shard.index}/${run.shard.total} alone: merge the shards first ('adk-conformance report merge'), then write the baseline from the merged report.`);
  const levels = gateLevels(run.gate.level);
  const knownFailures: BaselineEntry[] = [];
  for (const r of [...run.requirements].sort((a, b) => a.id.localeCompare(b.id))) {
    if (!levels.includes(r.level) || (r.status !== 'failed' && r.status !== 'flaky' && r.status !== 'untested')) continue;
    const first = r.findings[0]?.message;
    const why = r.status === 'untested' ? `untested: ${r.reason ?? 'no reason recorded'}` : r.status === 'flaky' ? `flaky: ${first ?? r.reason ?? 'no finding recorded'}` : first ?? 'failed without a recorded finding';
    const scenarios = options.byScenario && r.status !== 'untested' ? failingScenarios(run, r.id) : [];
    knownFailures.push({
      requirement: r.id,
      ...(scenarios.length > 0 && !scenarios.includes(runLevel) ? { scenarios } : {}),
      reason: `baselined on ${options.date}: ${oneLine(why)}`,
    });
  }
  return { $schema: baselineSchemaRef, knownFailures };
}

/** Stands for a failure outside every scenario (a run-level check): only an entry without scenarios covers it. */
export const runLevel = '(run)';

/** Where a requirement failed: the scenarios whose outcome for it failed or was flaky, and runLevel if a finding has no scenario. */
export function failingScenarios(run: Pick<RunResult, 'scenarios' | 'requirements'>, id: string): string[] {
  const found = new Set<string>();
  for (const s of run.scenarios) {
    if (s.outcomes.some((o) => o.requirement === id && (o.status === 'failed' || o.status === 'flaky'))) found.add(s.scenario);
  }
  const r = run.requirements.find((x) => x.id === id);
  if (r && (r.status === 'failed' || r.status === 'flaky') && (found.size === 0 || r.findings.some((f) => f.scenario === undefined))) found.add(runLevel);
  return [...found].sort();
}

function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
