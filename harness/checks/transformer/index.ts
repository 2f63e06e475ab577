/**
 * Every transformer check (ABE-* and PL-*), each a pure function from one observation to outcomes.
 * A check that does not apply to a scenario (no specialist call, no audit trail...) says nothing;
 * when the implementation emitted no event at all, the checks that need events are `untested`
 * with the reason, and the ending checks say what went wrong.
 */
import type { CheckOutcome } from '../../model.ts';
import { transformerRequirements } from '../../requirements/transformer.ts';
import { proofLayerRequirements } from '../../requirements/proof-layer.ts';
import type { TransformerObservation } from './observation.ts';
import { frameFacts } from './frame-facts.ts';
import { checkSchema } from './schema.ts';
import { checkCorrelation, checkEventIds } from './identity.ts';
import { checkParents } from './parent.ts';
import { checkSourceAgents } from './source-agent.ts';
import { checkComplete, checkDelegations, checkErrors, checkSpecialistInsights, checkThinkingFirst } from './lifecycle.ts';
import { checkStateOrder } from './state-order.ts';
import { checkAlertWords, checkAlerts } from './alerts.ts';
import { checkAtomicity } from './atomicity.ts';
import { checkDeterminism } from './determinism.ts';
import { checkEndings, checkHeldOpen, checkNotPremature, checkTerminal } from './completion.ts';
import { checkConfidence } from './proof-confidence.ts';
import { checkCitations } from './proof-citations.ts';
import { checkAuditProof } from './proof-audit.ts';
import { checkInventedProof } from './proof-invented.ts';
import { checkTiers } from './tiers.ts';
import { checkOutline } from './outline.ts';
import { frameTexts } from './frame-texts.ts';
import { checkTextConservation } from './text-conservation.ts';
import { checkCallsOnce } from './calls-once.ts';
import { checkActionsOnly } from './actions-only.ts';
import { checkUsage } from './usage.ts';
import { untested } from './outcome.ts';
import { invalidOutputReason, versionHint } from './invalid-output.ts';
import { canonicalView, inSpecWords } from './spec-view.ts';
import { inSpec, specSchemas, type SpecVersion } from '../../spec-version.ts';

/** The requirement ids the transformer runner certifies. */
/** Judged by the long-lived probes over runs of one instance (long-lived.ts, memory.ts), not by a scenario's run. */
export const longLivedRequirementIds: readonly string[] = ['ABE-CORR-002', 'ABE-ISO-001', 'ABE-MEM-001'];
/** The ids a scenario's checks judge under one spec version (harness/spec-version.ts). */
export function transformerRequirementIdsFor(spec: SpecVersion): readonly string[] {
  return [...transformerRequirements, ...proofLayerRequirements].filter((r) => inSpec(r, spec)).map((r) => r.id).filter((id) => !longLivedRequirementIds.includes(id));
}
/** Spec 1.0's (the default): what a transformer that declares no schema_version is judged on. */
export const transformerRequirementIds: readonly string[] = transformerRequirementIdsFor('1.0');
/** Every version's. */
export const allTransformerRequirementIds: readonly string[] = [...new Set([...transformerRequirementIdsFor('1.0'), ...transformerRequirementIdsFor('1.1')])];

/** Checks that still speak when nothing was emitted: the ending is exactly what went wrong. */
const withoutEvents = [checkTerminal, checkNotPremature, checkHeldOpen, checkEndings];

/**
 * Judges one run against its spec version: the schema check reads the events as written, every
 * other check reads them in 1.0's type names (spec-view.ts) and speaks the version's words.
 */
export function checkTransformer(observed: TransformerObservation): CheckOutcome[] {
  const spec = observed.spec ?? '1.0';
  const schemaId = specSchemas[spec].requirement;
  const invalid = invalidOutputReason(observed.run, spec);
  const mismatch = invalid !== undefined && versionHint(observed.run, spec) !== '';
  return inSpecWords(judgeRun(canonicalView(observed, spec), checkSchema(observed), invalid, transformerRequirementIdsFor(spec), mismatch), spec, new Set([schemaId]), invalid);
}

function judgeRun(obs: TransformerObservation, schemaOutcomes: CheckOutcome[], invalid: string | undefined, transformerRequirementIds: readonly string[], versionMismatch: boolean): CheckOutcome[] {
  const outcomes = [...schemaOutcomes, ...withoutEvents.flatMap((check) => check(obs))];
  if (obs.run.events.length === 0) {
    const covered = new Set(outcomes.map((o) => o.requirement));
    const exit = obs.run.exit;
    const why = exit.spawnError ? `the command could not be started (${exit.spawnError})` : exit.threw ? `the module threw (${exit.threw})` : exit.timedOut ? 'it timed out' : `it exited with ${exit.signal ?? `status ${exit.exitCode}`}`;
    // A process that only talked on stderr is told apart from one that said nothing at all.
    const stderrTail = exit.stderr.trim().split('\n').slice(-2).join(' | ').slice(-300);
    const quiet = obs.run.problems.length === 0 && exit.unterminatedLine === undefined;
    const garbage = obs.run.problems.length > 0 ? `, having written ${obs.run.problems.length} output line(s) that are not event objects (first: ${obs.run.problems[0]?.reason ?? ''})` : '';
    const reason = `the implementation emitted no AgentBriefingEvent for this scenario: ${why}${garbage}${quiet && stderrTail ? `, having written only to stderr (${stderrTail})` : ''}`;
    // Their failures say what went wrong; a pass over no event ("every emitted event is valid") observed nothing.
    // An untested check's own reason ("no terminal event ...") follows from this one: one reason for all.
    const spoken = outcomes.map((o) => (o.status !== 'failed' ? untested(o.requirement, obs.scenario.id, reason) : o));
    return [...spoken, ...transformerRequirementIds.filter((id) => !covered.has(id)).map((id) => untested(id, obs.scenario.id, reason))];
  }
  const facts = frameFacts(obs);
  const texts = frameTexts(obs);
  const judged = [
    ...outcomes,
    ...checkEventIds(obs),
    ...checkCorrelation(obs),
    ...checkParents(obs, facts),
    ...checkSourceAgents(obs, facts),
    ...checkThinkingFirst(obs, facts),
    ...checkDelegations(obs, facts),
    ...checkSpecialistInsights(obs, facts),
    ...checkComplete(obs, facts),
    ...checkErrors(obs, facts),
    ...checkStateOrder(obs),
    ...checkAlerts(obs, facts),
    ...checkAlertWords(obs, facts),
    ...checkAtomicity(obs, facts),
    ...checkDeterminism(obs),
    ...checkConfidence(obs, facts),
    ...checkCitations(obs, facts),
    ...checkAuditProof(obs, facts),
    ...checkInventedProof(obs, facts),
    ...checkTiers(obs),
    ...checkOutline(obs, facts),
    // Field-reported defects (issue 11 §5).
    ...checkTextConservation(obs, texts),
    ...checkCallsOnce(obs, facts),
    ...checkActionsOnly(obs, texts),
    ...checkUsage(obs, facts, texts),
  ];
  if (invalid) {
    // Every requirement the checks could not judge says why: events came, none was valid.
    const spoken = new Set(judged.map((o) => o.requirement));
    judged.push(...transformerRequirementIds.filter((id) => !spoken.has(id)).map((id) => untested(id, obs.scenario.id, invalid)));
    for (const [i, o] of judged.entries()) if (o.status === 'untested') judged[i] = { ...o, reason: invalid };
    // Types of another spec version (versionHint): a check that failed on a type name judged the
    // wrong version, not the implementation; only the schema and the per-event checks stand.
    if (versionMismatch) for (const [i, o] of judged.entries()) if (o.status === 'failed' && !eventByEvent.has(o.requirement)) judged[i] = untested(o.requirement, o.scenario, invalid);
  }
  if (!obs.run.exit.timedOut) return judged;
  // Stopped at its bound: the hang is ABE-TERM-001's finding, named as a hang. What the output
  // lacks is what the stop cut off, not what the implementation would have left out: no other
  // requirement fails on it (a late start made correct code "lose text" this way, issue 28 §3).
  const reason = 'timed out: the run was stopped at its time bound before it finished, so what its output lacks is not judged (ABE-TERM-001 reports the hang)';
  return judged.map((o) => (o.status === 'failed' && !eventByEvent.has(o.requirement) ? untested(o.requirement, o.scenario, reason) : o));
}

/** Requirements judged on each emitted event alone: a run cut short shows them as well as a whole one. */
const eventByEvent = new Set(['ABE-TERM-001', 'ABE-SCHEMA-001', 'ABE-SCHEMA-002', 'ABE-ID-001', 'ABE-CORR-001']);
