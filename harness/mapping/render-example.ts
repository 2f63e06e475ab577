/**
 * A worked example of the mapping as a scenario: a corpus scenario by id, or a run script with a
 * dialect, rendered the way the mock serves it. The mapping's tests and its generated doc both go
 * through here, so the frames the doc shows are the frames the implementations are tested on.
 */
import { applyFaults } from '../../mock-adk/core/faults.ts';
import { render } from '../../mock-adk/core/render.ts';
import type { Scenario } from '../../schemas/types.ts';
import type { MappingExample } from './types.ts';

export type RenderedExample = { scenario: Scenario; frames: string[]; enhanced: boolean; streaming: boolean };

function exampleScenario(example: MappingExample, id: string, corpus: ReadonlyMap<string, Scenario>): Scenario {
  if (example.scenario !== undefined) {
    const s = corpus.get(example.scenario);
    if (!s) throw new Error(`mapping example '${example.title}' names scenario '${example.scenario}', which is not in the corpus; use a scenario id from 'adk-conformance scenarios' or give steps`);
    return s;
  }
  if (!example.steps || !example.dialect) throw new Error(`mapping example '${example.title}' needs either a scenario id or steps with a dialect`);
  return {
    id,
    title: example.title,
    family: 'streaming',
    tags: ['mapping'],
    specRefs: [],
    dialect: example.dialect,
    replays: 'a worked example of harness/mapping/briefing-mapping.json',
    session: { userId: 'u1', sessionId: `s-${id.replace(/_/g, '-')}` },
    request: { message: 'Brief me on Cedar Creek', streaming: example.streaming === true, ...(example.enhanced ? { endpoint: '/run_sse_enhanced' } : {}) },
    upstream: { kind: 'run', steps: example.steps },
    expect: {},
  } as unknown as Scenario;
}

export function renderExample(example: MappingExample, id: string, corpus: ReadonlyMap<string, Scenario>): RenderedExample {
  const scenario = exampleScenario(example, id, corpus);
  const request = scenario.request as { streaming?: boolean; endpoint?: string };
  const streaming = request.streaming === true;
  const enhanced = request.endpoint === '/run_sse_enhanced';
  const plan = render(scenario, { dialect: scenario.dialect, streaming, appName: scenario.id, userId: scenario.session.userId, sessionId: scenario.session.sessionId, ...(enhanced ? { enhanced: true } : {}) });
  const faulted = applyFaults(plan, (scenario.faults ?? []) as Array<{ name: string }>);
  return { scenario, frames: faulted.frames.map((f) => f.data), enhanced, streaming };
}
