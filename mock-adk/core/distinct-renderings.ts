/**
 * The renderings of a scenario that are different runs. Two server versions often write the same
 * bytes for a run (adk-js 1.4 to 1.6 and 2.0 differ only where a streamed turn ends in tool calls):
 * feeding an implementation the same bytes under another name is the same run again, which costs
 * its time and observes nothing new. A rendering whose plan (status, headers, every chunk's bytes
 * and delay, the ending) equals an earlier one's, rendered for the same session, is left out.
 * So is another server's rendering that the scenario's faults do not fit (a fault on frame 6 of a
 * server that writes 6 frames): the faults were written against the scenario's own rendering.
 */
import type { Scenario } from '../../schemas/types.ts';
import { applyFaults } from './faults.ts';
import { render } from './render.ts';
import { scenarioDialects } from './scenario-dialects.ts';
import type { Dialect, ReplayPlan } from './types.ts';

/** The scenario's dialects (its own first), without those that render byte for byte as an earlier one. */
export function distinctRenderings(scenario: Scenario & { renderIn?: readonly Dialect[] }): Dialect[] {
  const all = scenarioDialects(scenario);
  if (all.length < 2) return all;
  const seen = new Set<string>();
  return all.filter((dialect, i) => {
    let key: string;
    try {
      const plan = render(scenario, { dialect, streaming: scenario.request.streaming === true, appName: scenario.id, userId: 'u', sessionId: 's' });
      key = planKey(applyFaults(plan, scenario.faults ?? []));
    } catch {
      // The own rendering's failure is the mock's to report when the run asks for it.
      return i === 0;
    }
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function planKey(plan: ReplayPlan): string {
  const chunks = plan.chunks.map((c) => `${c.delayMs}:${Buffer.from(c.bytes).toString('base64')}`);
  return JSON.stringify([plan.status, plan.headers, plan.end, chunks]);
}
