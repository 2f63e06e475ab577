/**
 * Applicability profiles: an implementation declares the parts it implements and the optional
 * capabilities it provides. Requirements outside the profile are reported `not-applicable` with
 * the declared reason, in every report, never silently passed; a requirement of a declared part
 * and capability keeps its status, so a declared capability whose MUST fails is a failure
 * (a2a-tck's "false advertising" rule). docs/configuration.md documents the mapping below.
 */
import { nearest, UsageError } from '../core/errors.ts';
import { validate, formatIssues } from '../schemas/registry.ts';
import type { Config, Scenario } from '../schemas/types.ts';
import type { Part, Requirement, RunResult } from './model.ts';
import type { PartRunner } from './targets/types.ts';
import { tally } from './verdict.ts';
import { resolveDialect } from '../mock-adk/core/dialects/names.ts';
import { scenarioDialects } from '../mock-adk/core/scenario-dialects.ts';
import { dialectNames } from '../mock-adk/core/dialects/index.ts';
import { render } from '../mock-adk/core/render.ts';
import { applyFaults } from '../mock-adk/core/faults.ts';

export type Profile = NonNullable<Config['profile']>;
export type Capability = keyof NonNullable<Profile['capabilities']>;
type Dialect = Scenario['dialect'];

/**
 * Capability -> the requirement tags (harness/requirements/*.ts) it covers. A requirement carrying
 * any of these tags is not applicable when the capability is declared false.
 */
export const capabilityTags = {
  'audit-metadata': ['audit'],
  'legacy-endpoints': ['legacy'],
  'feature-flag': ['flag'],
  'jwt-auth': ['auth'],
  csrf: ['csrf'],
  'cookie-proxy': ['proxy'],
  'text-proof-layer': ['text'],
  // Completeness beyond field evidence (issue 28 §1): SHOULDs a team may declare out of scope.
  robustness: ['robustness'],
  // Reporting token usage is free (mapping rule MAP-FIELD-004); one that reports none leaves ABE-USAGE-001 unobserved.
  'token-usage': ['usage'],
  // A transformer that correlates by invocation on purpose (`--correlation invocation`) leaves ABE-CORR-002 out.
  'session-correlation': ['session-correlation'],
} as const satisfies Record<Exclude<Capability, 'dialects'>, readonly string[]>;

export type TagCapability = keyof typeof capabilityTags;
export const tagCapabilities = Object.keys(capabilityTags) as TagCapability[];
export const allParts: readonly Part[] = ['gateway', 'transformer', 'normalizer', 'client', 'audit-bridge', 'proof-stream', 'proxy', 'adk-stream', 'adk-server'];

/**
 * Check a profile (schema, then meaning) and throw a UsageError saying how to fix it. `where` names
 * its origin in messages, e.g. `adk-conformance.config.json: /profile`.
 */
export function checkProfile(value: unknown, requirements: readonly Requirement[], where = 'profile'): Profile {
  const result = validate('config#/definitions/profile', value);
  if (!result.valid) throw new UsageError(`${where} is not a valid profile (schemas/config.schema.json#/definitions/profile): ${formatIssues(result.errors)}`);
  const profile = value as Profile;
  const capabilities = (profile.capabilities ?? {}) as Partial<Record<TagCapability, boolean>>;
  const reasons = profile.reasons ?? {};
  const reasonable = [...allParts.filter((p) => !profile.parts.includes(p)), ...tagCapabilities.filter((c) => capabilities[c] === false), ...(profile.capabilities?.dialects ? ['dialects'] : [])];
  for (const key of Object.keys(reasons)) {
    if (reasonable.includes(key)) continue;
    const known = [...allParts, ...tagCapabilities, 'dialects'];
    if (!known.includes(key)) {
      const near = nearest(key, known);
      throw new UsageError(`${where}/reasons: '${key}' is not a part or a capability${near ? ` (did you mean '${near}'?)` : ''}; reasons are keyed by a left-out part or a capability declared false.`);
    }
    throw new UsageError(`${where}/reasons/${key}: '${key}' is ${(allParts as readonly string[]).includes(key) ? 'a declared part' : 'not declared false'}, so nothing is left out for this reason; remove it or leave ${key} out of the profile.`);
  }
  for (const capability of tagCapabilities) {
    if (capabilities[capability] === false && !reasons[capability]) {
      throw new UsageError(`${where}/reasons/${capability} is missing: say why the implementation does not provide ${capability} (the reason is printed in every report next to each requirement it makes not applicable).`);
    }
    if (capabilities[capability] === true) {
      const parts = new Set(requirements.filter((r) => covers(capability, r)).map((r) => r.part));
      if (parts.size > 0 && ![...parts].some((p) => profile.parts.includes(p))) {
        throw new UsageError(`${where}/capabilities/${capability} is declared true, but its requirements belong to ${[...parts].join(', ')}, which the profile's parts do not include; add the part or drop the capability.`);
      }
    }
  }
  return profile;
}

function covers(capability: TagCapability, requirement: Requirement): boolean {
  return capabilityTags[capability].some((tag) => requirement.tags.includes(tag));
}

/** Requirement id -> why it is not applicable under this profile (absent: applicable). */
export function notApplicable(profile: Profile, requirements: readonly Requirement[]): Map<string, string> {
  const out = new Map<string, string>();
  const reasons = profile.reasons ?? {};
  const capabilities = (profile.capabilities ?? {}) as Partial<Record<TagCapability, boolean>>;
  for (const r of requirements) {
    if (!profile.parts.includes(r.part)) {
      out.set(r.id, `profile: the ${r.part} part is not declared (${reasons[r.part] ?? `the profile declares ${profile.parts.join(', ')} only`})`);
      continue;
    }
    const off = tagCapabilities.find((c) => capabilities[c] === false && covers(c, r));
    if (off) out.set(r.id, `profile: capability ${off} is declared false (${reasons[off]})`);
  }
  return out;
}

/**
 * The scenarios a profile's `dialects` keeps: those whose own dialect is declared, with their
 * other renderings narrowed to the declared ones (`renderIn`, mock-adk/core/scenario-dialects.ts),
 * so no other server's bytes are fed. An unpinned run of another dialect describes what the agent
 * does, which every server speaks in its own bytes: for the transformer it is kept, rehomed to a
 * declared dialect (issue 28 §1: "What a profile excludes is not applicable, or exercised in the
 * dialects it keeps"; the one held-open run, ABE-TERM-003's, is written in adk-js), and left out
 * for every other part, whose expectations count its own server's frames.
 */
export function profileScenarios(profile: Profile, scenarios: readonly Scenario[]): { scenarios: Scenario[]; excluded: Array<{ id: string; reason: string }> } {
  const dialects = profile.capabilities?.dialects as readonly Dialect[] | undefined;
  if (!dialects) return { scenarios: [...scenarios], excluded: [] };
  const why = profile.reasons?.['dialects'];
  const kept: Scenario[] = [];
  const excluded: Array<{ id: string; reason: string }> = [];
  for (const s of scenarios) {
    // Versioned names and aliases compare by the server they name (adk-js@2.0 is adk-js).
    const same = (d: string): boolean => dialects.some((p) => (resolveDialect(p) ?? p) === (resolveDialect(d) ?? d));
    const renderIn: Dialect[] = dialectNames.filter(same);
    if (!same(s.dialect)) {
      const moved = rehomed(s, renderIn);
      if (moved) kept.push(moved);
      excluded.push({ id: s.id, reason: `replays ${s.dialect}; the profile declares ${dialects.join(', ')} only${why ? ` (${why})` : ''}${moved ? `; the transformer is fed its ${moved.dialect} rendering instead` : ''}` });
      continue;
    }
    kept.push({ ...s, renderIn } as Scenario);
  }
  if (kept.length === 0) throw new UsageError(`profile/capabilities/dialects (${dialects.join(', ')}) leaves no scenario to run; every selected scenario replays another dialect.`);
  return { scenarios: kept, excluded };
}

/** A scenario kept for the transformer only, in a dialect other than its file's (`rehomedFrom` names that one). */
export type Rehomed = Scenario & { renderIn: Dialect[]; rehomedFrom: Dialect };

export const isRehomed = (s: Scenario): s is Rehomed => typeof (s as Partial<Rehomed>).rehomedFrom === 'string';

/**
 * An unpinned run moved to the first declared dialect, its frame-counted expectations moved with
 * it: unchanged where both servers write as many frames; where they do not, only a completion
 * point on the last frame (the final answer) is known to move to the other's last frame, and only
 * without faults (they were written against its own frames). Otherwise it stays out.
 */
function rehomed(s: Scenario, renderIn: Dialect[]): Rehomed | undefined {
  const to = renderIn[0];
  if (!to || s.upstream.kind !== 'run' || (s as { pinned?: string }).pinned !== undefined) return undefined;
  const count = (dialect: Dialect): number | undefined => {
    try {
      const enhanced = s.request.endpoint === '/run_sse_enhanced';
      return applyFaults(render(s, { dialect, streaming: s.request.streaming === true, appName: s.id, userId: s.session.userId, sessionId: 'profile', ...(enhanced ? { enhanced: true } : {}) }), s.faults ?? []).frames.length;
    } catch { return undefined; }
  };
  const own = count(s.dialect);
  const theirs = count(to);
  if (own === undefined || theirs === undefined) return undefined;
  const shift = theirs - own;
  const point = s.expect.completionPoint;
  if (shift !== 0 && ((s.faults ?? []).length > 0 || (typeof point === 'number' && point !== own - 1))) return undefined;
  const expect = { ...s.expect, ...(typeof point === 'number' ? { completionPoint: point + shift } : {}), ...(typeof s.expect.frames === 'number' ? { frames: s.expect.frames + shift } : {}) };
  return { ...s, dialect: to, expect, renderIn, rehomedFrom: s.dialect } as Rehomed;
}

/**
 * The runners of the declared parts. A declared part the target does not provide is an error:
 * declaring it and testing nothing would be the vacuous pass the profile exists to prevent.
 */
export function profileRunners(profile: Profile, runners: readonly PartRunner[]): PartRunner[] {
  const provided = new Set(runners.map((r) => r.part));
  const missing = profile.parts.filter((p) => !provided.has(p));
  if (missing.length > 0) throw new UsageError(`profile/parts declares ${missing.join(', ')}, but the target provides only ${[...provided].join(', ') || 'nothing'}; give a target flag for ${missing.join(', ')} or remove it from the profile.`);
  // A rehomed scenario's expectations hold for the transformer only (profileScenarios).
  return runners.filter((r) => profile.parts.includes(r.part)).map((r) => (r.part === 'transformer' ? r : { ...r, applies: (s: Scenario) => !isRehomed(s) && r.applies(s) }));
}

/** One line for reports: the target description carries it, so every reporter shows it. */
export function describeProfile(profile: Profile): string {
  const capabilities = Object.entries(profile.capabilities ?? {}).map(([name, value]) => (Array.isArray(value) ? `${name}=${value.join('|')}` : `${name}=${String(value)}`));
  return `profile: parts ${profile.parts.join(', ')}${capabilities.length ? `; ${capabilities.join(', ')}` : ''}`;
}

/**
 * Apply a profile to an engine result: requirements outside it become not-applicable with the
 * declared reason (their findings are dropped: they were not in scope), every other status stands,
 * and the verdict and counts are recomputed the one way verdict.ts computes them.
 */
export function applyProfile(profile: Profile, result: RunResult): RunResult {
  const outside = notApplicable(profile, result.requirements);
  const requirements = result.requirements.map((r) => {
    const reason = outside.get(r.id);
    return reason === undefined ? r : { ...r, status: 'not-applicable' as const, scenarios: [], findings: [], reason };
  });
  let derived: ReturnType<typeof tally>;
  try {
    derived = tally({ gate: result.gate, requirements, scenarios: result.scenarios, mutants: result.counts.mutants });
  } catch (error) {
    throw new UsageError(`the profile leaves no applicable requirement (${describeProfile(profile)}): ${(error as Error).message}`);
  }
  return { ...result, target: { ...result.target, description: `${result.target.description} (${describeProfile(profile)})` }, requirements, ...derived };
}
