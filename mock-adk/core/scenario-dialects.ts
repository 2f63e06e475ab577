/**
 * Which dialects a scenario renders in (issue 12 §3 "one scenario, every dialect"). A scenario that
 * scripts a run describes what the agent does, and every server speaks it in its own bytes: it
 * renders in every dialect, its own first. Only a run that carries bytes captured from one server
 * (ids and timestamps in that server's format, raw events as that server wrote them) is fixed to
 * that server, and says why in `pinned`. Byte, HTTP and Anthropic scripts are fixed by nature.
 */
import type { Scenario } from '../../schemas/types.ts';
import { dialectNames, resolveDialect } from './dialects/index.ts';
import type { Dialect } from './types.ts';

/** The scenario's own dialect (its primary rendering, the one its `expect` counts frames in). */
export function ownDialect(scenario: Pick<Scenario, 'dialect'>): Dialect {
  return resolveDialect(scenario.dialect) ?? (scenario.dialect as Dialect);
}

/**
 * A scenario as the harness may hold it: `renderIn` (never in a file) narrows an unpinned run's
 * renderings to the servers a profile declares (harness/profile.ts).
 */
export type ScenarioRenderings = Pick<Scenario, 'dialect' | 'upstream'> & { pinned?: string; renderIn?: readonly Dialect[] };

/** Its own dialect first, then every other one when it is an unpinned run. */
export function scenarioDialects(scenario: ScenarioRenderings): Dialect[] {
  const own = ownDialect(scenario);
  if (scenario.upstream.kind !== 'run' || scenario.pinned !== undefined) return [own];
  return [own, ...dialectNames.filter((d) => d !== own && (scenario.renderIn === undefined || scenario.renderIn.includes(d)))];
}
