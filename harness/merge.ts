/**
 * Merging the report.json of sharded runs into one RunResult: the union of scenario results,
 * requirement statuses combined (failed beats passed beats untested, so a requirement passed in
 * one shard and untested in another, because the other shard never ran its scenarios, is passed;
 * but one an errored scenario or probe left untested stays untested, as in a single run),
 * then counts and verdict recomputed by the same `tally` the runner uses.
 *
 * Shards of one run share the seed and the gate; anything else is a configuration error, thrown
 * with the files that disagree.
 */
import { readFile } from 'node:fs/promises';
import type { Finding, RequirementResult, RunResult, ScenarioResult } from './model.ts';
import { formatIssues, validate } from '../schemas/registry.ts';
import { tally, unobservedRequirements, withoutMissingEvidence } from './verdict.ts';

export type ShardInput = { file: string; result: RunResult };
export type MergeResult = { result: RunResult; warnings: string[] };

/** Read and schema-check one report.json; throws naming the file and the failing JSON pointers. */
export async function readRunResult(file: string): Promise<RunResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}; pass a report.json written by 'adk-conformance run' or its directory`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON (${(error as Error).message}); pass a report.json written by 'adk-conformance run'`);
  }
  const { valid, errors } = validate('report', value);
  if (!valid) throw new Error(`${file} is not a valid report (schemas/report.schema.json): ${formatIssues(errors)}`);
  return value as RunResult;
}


/** The one value every shard must share, or an error naming each file's value. */
function agree<T>(shards: readonly ShardInput[], what: string, pick: (r: RunResult) => T, fix: string): T {
  const values = shards.map((s) => JSON.stringify(pick(s.result)));
  if (new Set(values).size > 1) {
    const detail = shards.map((s, i) => `${s.file}: ${values[i]}`).join(', ');
    throw new Error(`cannot merge: the shards disagree on the ${what} (${detail}); ${fix}`);
  }
  return pick((shards[0] as ShardInput).result);
}

function checkShards(shards: readonly ShardInput[], warnings: string[]): void {
  const sharded = shards.filter((s) => s.result.shard);
  if (sharded.length === 0) return;
  agree(sharded, 'shard total', (r) => r.shard?.total, 'merge the shards of one run, all started with the same shard count');
  const byIndex = new Map<number, string>();
  for (const s of sharded) {
    const index = s.result.shard?.index ?? 0;
    const other = byIndex.get(index);
    if (other !== undefined) throw new Error(`cannot merge: ${other} and ${s.file} are both shard ${index}; pass each shard's report once`);
    byIndex.set(index, s.file);
  }
  const total = sharded[0]?.result.shard?.total ?? 0;
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) warnings.push(`shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${total} missing: their requirements stay untested unless another shard exercised them`);
}

/** Two registries disagreeing on a requirement means two kit versions: their statuses cannot be combined. */
function sameDefinition(a: RequirementResult, b: RequirementResult): boolean {
  return a.level === b.level && a.part === b.part && a.title === b.title && a.source.doc === b.source.doc && a.source.section === b.source.section;
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function combineRequirement(entries: { file: string; r: RequirementResult }[]): RequirementResult {
  const first = entries[0] as { file: string; r: RequirementResult };
  for (const e of entries) {
    if (!sameDefinition(first.r, e.r)) {
      throw new Error(`cannot merge: requirement ${first.r.id} is defined differently in ${first.file} (${first.r.level}, ${first.r.part}, "${first.r.title}") and ${e.file} (${e.r.level}, ${e.r.part}, "${e.r.title}"); merge reports of one kit version`);
    }
  }
  const applicable = entries.map((e) => e.r).filter((r) => r.status !== 'not-applicable');
  const provenBy = [...new Set(entries.flatMap((e) => e.r.provenBy))].sort();
  if (applicable.length === 0) return { ...first.r, provenBy };
  // A flaky shard is not outvoted by a passing one: the failure it saw is still unexplained.
  const status = applicable.some((r) => r.status === 'failed') ? 'failed' : applicable.some((r) => r.status === 'flaky') ? 'flaky' : applicable.some((r) => r.status === 'passed') ? 'passed' : 'untested';
  const findings = uniqueBy(applicable.flatMap((r) => r.findings), (f: Finding) => JSON.stringify(f));
  const scenarios = [...new Set(applicable.flatMap((r) => r.scenarios))];
  const reasons = [...new Set(applicable.map((r) => r.reason).filter((x): x is string => x !== undefined))];
  const { reason: _dropped, ...rest } = first.r;
  return { ...rest, status, findings, scenarios, provenBy, ...((status === 'untested' || status === 'flaky') && reasons.length > 0 ? { reason: reasons.join('; ') } : {}) };
}

const scenarioRank: Record<ScenarioResult['status'], number> = { passed: 0, failed: 1, errored: 2 };

function mergeScenarios(shards: readonly ShardInput[], warnings: string[]): ScenarioResult[] {
  const byKey = new Map<string, { file: string; s: ScenarioResult }>();
  for (const { file, result } of shards) {
    for (const s of result.scenarios) {
      const key = `${s.part}\u0000${s.scenario}`;
      const seen = byKey.get(key);
      if (!seen) { byKey.set(key, { file, s }); continue; }
      // Overlapping shards: keep the worse result so a failure is never hidden by a pass.
      const keep = scenarioRank[s.status] > scenarioRank[seen.s.status] ? { file, s } : seen;
      warnings.push(`scenario ${s.scenario} (${s.part}) is in both ${seen.file} and ${file}; kept the ${keep.s.status} result from ${keep.file}`);
      byKey.set(key, keep);
    }
  }
  return [...byKey.values()].map((v) => v.s);
}

export function mergeRunResults(shards: readonly ShardInput[]): MergeResult {
  if (shards.length === 0) throw new Error('cannot merge: no report given; pass the directories (or report.json files) of the shards');
  const warnings: string[] = [];
  agree(shards, 'tool', (r) => r.tool.name, "merge adk-conformance reports only");
  const seed = agree(shards, 'seed', (r) => r.seed, 'run every shard with the same --seed');
  // A shard written before seedSource existed counts as given.
  const seedSource = agree(shards, 'seed source', (r) => r.seedSource ?? 'given', 'run every shard with the same --seed');
  const level = agree(shards, 'gate level', (r) => r.gate.level, 'run every shard with the same gate level');
  const gate = { level, untestedFails: true } as const;
  const versions = [...new Set(shards.map((s) => s.result.tool.version))];
  if (versions.length > 1) warnings.push(`the shards were written by different kit versions (${versions.join(', ')})`);
  checkShards(shards, warnings);

  // Shard order, when known, so the merged report lists scenarios in run order.
  const ordered = [...shards].sort((a, b) => (a.result.shard?.index ?? 0) - (b.result.shard?.index ?? 0));
  const byId = new Map<string, { file: string; r: RequirementResult }[]>();
  for (const { file, result } of ordered) {
    for (const r of result.requirements) byId.set(r.id, [...(byId.get(r.id) ?? []), { file, r }]);
  }
  const scenarios = mergeScenarios(ordered, warnings);
  // As in one run: what an errored scenario or probe of any shard left unobserved is not passed by another shard.
  const missing = unobservedRequirements(scenarios);
  const requirements = [...byId.values()].map(combineRequirement).map((r) => withoutMissingEvidence(r, missing));

  const started = ordered.map((s) => Date.parse(s.result.startedAt));
  const finished = ordered.map((s) => Date.parse(s.result.finishedAt));
  const startedAt = new Date(Math.min(...started));
  const finishedAt = new Date(Math.max(...finished));
  const spansKnown = [...started, ...finished].every(Number.isFinite);
  // Every shard runs the whole mutant registry, so its tally is the run's, not a share of it.
  const mutants = { total: Math.max(...ordered.map((s) => s.result.counts.mutants.total)), killed: Math.max(...ordered.map((s) => s.result.counts.mutants.killed)) };
  const first = (ordered[0] as ShardInput).result;
  const result: RunResult = {
    tool: { name: 'adk-conformance', version: versions.join(' + ') },
    startedAt: spansKnown ? startedAt.toISOString() : first.startedAt,
    finishedAt: spansKnown ? finishedAt.toISOString() : first.finishedAt,
    durationMs: spansKnown ? finishedAt.getTime() - startedAt.getTime() : Math.max(...ordered.map((s) => s.result.durationMs)),
    target: {
      description: [...new Set(ordered.map((s) => s.result.target.description))].join(' + '),
      parts: [...new Set(ordered.flatMap((s) => s.result.target.parts))],
    },
    gate,
    seed,
    seedSource,
    requirements,
    scenarios,
    ...tally({ gate, requirements, scenarios, mutants }),
  };
  // Taps' reports list only their failing runs: the runs they counted are the merged run counts.
  const lives = ordered.map((s) => s.result.live);
  if (lives.every((l) => l !== undefined)) {
    const live = { taps: 0, runs: 0, failedRuns: 0 };
    for (const l of lives) { live.taps += l?.taps ?? 0; live.runs += l?.runs ?? 0; live.failedRuns += l?.failedRuns ?? 0; }
    result.live = live;
    result.counts = { ...result.counts, scenarios: { total: live.runs, passed: live.runs - live.failedRuns, failed: live.failedRuns, errored: 0 } };
  } else if (lives.some((l) => l !== undefined)) {
    warnings.push('some reports are a tap\'s (live traffic) and some a certification\'s: the merged scenario counts are of the listed runs only');
  }
  // The spec a transformer was judged against: one per run; shards judged against different ones do not add up.
  const specs = ordered.map((s) => s.result.spec).filter((x): x is NonNullable<RunResult['spec']> => x !== undefined);
  if (specs[0]) result.spec = specs[0];
  if (new Set(specs.map((x) => x.version)).size > 1) warnings.push(`the shards judged the transformer against different spec versions (${[...new Set(specs.map((x) => x.version))].join(', ')}): give every shard the same --spec`);
  return { result, warnings };
}
