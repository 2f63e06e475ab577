import { describe, expect, it } from 'vitest';
import { loadScenarios } from '../../scenarios/loader.ts';
import type { Scenario } from '../../schemas/types.ts';
import { dialectNames } from '../core/dialects/index.ts';
import { scenarioDialects } from '../core/scenario-dialects.ts';
import type { Dialect } from '../core/types.ts';
import { renderDialect } from './mock-state.ts';

describe('renderDialect', () => {
  it('is the mock dialect when the scenario renders in it, else the scenario own one, for every corpus scenario, dialect and renderIn', () => {
    const { scenarios } = loadScenarios();
    const narrowings: Array<readonly Dialect[] | undefined> = [undefined, [], [dialectNames[0] as Dialect], dialectNames.slice(1)];
    let compared = 0;
    for (const base of scenarios) {
      for (const renderIn of narrowings) {
        const scenario = (renderIn === undefined ? base : { ...base, renderIn }) as Scenario;
        const list = scenarioDialects(scenario);
        for (const dialect of dialectNames) {
          expect(renderDialect(scenario, dialect), `${scenario.id} in ${dialect}`).toBe(list.includes(dialect) ? dialect : list[0]);
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(renderDialect(scenarios[0] as Scenario, 'adk-js', 'adk-go@2.0.0')).toBe('adk-go@2.0.0');
  });
});
