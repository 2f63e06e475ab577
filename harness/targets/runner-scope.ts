/**
 * A runner's `notApplicable` requirements (outside its contract in the mode it runs in, such as the
 * request under the client command contract) become not-applicable with the runner's reason, and
 * the verdict is recomputed the one way verdict.ts computes it. Only a requirement nothing
 * observed changes: one that was exercised keeps its status.
 */
import type { RunResult } from '../model.ts';
import { tally } from '../verdict.ts';
import { CouldNotEvaluateError } from '../../core/errors.ts';
import type { PartRunner } from './types.ts';

export function applyRunnerScope(result: RunResult, runners: readonly PartRunner[]): RunResult {
  const reasons = new Map(runners.flatMap((r) => Object.entries(r.notApplicable ?? {})));
  if (reasons.size === 0) return result;
  const requirements = result.requirements.map((r) => {
    const reason = reasons.get(r.id);
    // A --grep selection's "outside this run's selection" gives way too: outside the contract is the deeper reason.
    return reason === undefined || (r.status !== 'untested' && r.status !== 'not-applicable') ? r : { ...r, status: 'not-applicable' as const, scenarios: [], findings: [], reason };
  });
  if (requirements.every((r) => r.status === 'not-applicable')) {
    // `--grep GW-PROXY-002` on a gateway that does not declare the proxy: nothing was there to judge.
    const mine = requirements.filter((r) => reasons.has(r.id) && result.requirements.find((o) => o.id === r.id)?.status === 'untested');
    throw new CouldNotEvaluateError(`every requirement this run selected is outside the target's contract: ${mine.map((r) => `${r.id} (${r.reason ?? ''})`).join('; ')}; select others, or declare what the target serves.`);
  }
  return { ...result, requirements, ...tally({ gate: result.gate, requirements, scenarios: result.scenarios, mutants: result.counts.mutants }) };
}
