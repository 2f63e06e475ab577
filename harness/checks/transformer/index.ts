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
import { checkAlerts } from './alerts.ts';
import { checkAtomicity } from './atomicity.ts';
import { checkDeterminism } from './determinism.ts';
import { checkEndings, checkHeldOpen, checkNotPremature, checkTerminal } from './completion.ts';
import { checkConfidence } from './proof-confidence.ts';
import { checkCitations } from './proof-citations.ts';
import { checkAuditProof } from './proof-audit.ts';
import { checkTiers } from './tiers.ts';
import { checkOutline } from './outline.ts';
import { frameTexts } from './frame-texts.ts';
import { checkTextConservation } from './text-conservation.ts';
import { checkCallsOnce } from './calls-once.ts';
import { checkActionsOnly } from './actions-only.ts';
import { checkUsage } from './usage.ts';
import { untested } from './outcome.ts';

/** The requirement ids the transformer runner certifies. */
export const transformerRequirementIds: readonly string[] = [...transformerRequirements, ...proofLayerRequirements].map((r) => r.id);

/** Checks that still speak when nothing was emitted: the ending is exactly what went wrong. */
const withoutEvents = [checkSchema, checkTerminal, checkNotPremature, checkHeldOpen, checkEndings];

export function checkTransformer(obs: TransformerObservation): CheckOutcome[] {
  const outcomes = withoutEvents.flatMap((check) => check(obs));
  if (obs.run.events.length === 0) {
    const covered = new Set(outcomes.map((o) => o.requirement));
    const exit = obs.run.exit;
    const why = exit.spawnError ? `the command could not be started (${exit.spawnError})` : exit.threw ? `the module threw (${exit.threw})` : exit.timedOut ? 'it timed out' : `it exited with ${exit.signal ?? `status ${exit.exitCode}`}`;
    // A process that only talked on stderr is told apart from one that said nothing at all.
    const stderrTail = exit.stderr.trim().split('\n').slice(-2).join(' | ').slice(-300);
    const quiet = obs.run.problems.length === 0 && exit.unterminatedLine === undefined;
    const reason = `the implementation emitted no AgentBriefingEvent for this scenario: ${why}${quiet && stderrTail ? `, having written only to stderr (${stderrTail})` : ''}`;
    // Their failures say what went wrong; a pass over no event ("every emitted event is valid") observed nothing.
    const spoken = outcomes.map((o) => (o.status === 'passed' ? untested(o.requirement, obs.scenario.id, reason) : o));
    return [...spoken, ...transformerRequirementIds.filter((id) => !covered.has(id)).map((id) => untested(id, obs.scenario.id, reason))];
  }
  const facts = frameFacts(obs);
  const texts = frameTexts(obs);
  return [
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
    ...checkAtomicity(obs, facts),
    ...checkDeterminism(obs),
    ...checkConfidence(obs, facts),
    ...checkCitations(obs, facts),
    ...checkAuditProof(obs, facts),
    ...checkTiers(obs),
    ...checkOutline(obs, facts),
    // Field-reported defects (issue 11 §5).
    ...checkTextConservation(obs, texts),
    ...checkCallsOnce(obs, facts),
    ...checkActionsOnly(obs, texts),
    ...checkUsage(obs, facts, texts),
  ];
}
