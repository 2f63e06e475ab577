/**
 * Scenario fixtures for the mock core's tests: the research captures (adk-wire-format.md §5, §6)
 * rewritten as run scripts, and small helpers to read a plan back. Not a scenario corpus (that is
 * scenarios/); these stay small and exact so a test can compare whole lines of bytes.
 */
import { readSse } from '../../core/sse.ts';
import type { Scenario } from '../../schemas/types.ts';
import type { RunUpstreamInput, StepInput } from './dialects/spec.ts';
import type { Dialect, RenderContext, ReplayPlan } from './types.ts';

export function runScenario(steps: StepInput[], options: { id?: string; dialect?: Dialect; pinned?: string; upstream?: Partial<RunUpstreamInput> } = {}): Scenario {
  return {
    id: options.id ?? 'fixture',
    title: 'A fixture run renders',
    family: 'streaming',
    tags: [],
    specRefs: [{ doc: 'adk-wire-format', section: '5' }],
    dialect: options.dialect ?? 'adk-js',
    ...(options.pinned !== undefined ? { pinned: options.pinned } : {}),
    replays: 'a test fixture',
    session: { userId: 'u1', sessionId: 's-a' },
    request: { message: 'How big was Cedar Creek?' },
    upstream: { kind: 'run', steps, ...options.upstream },
    expect: { status: 200, outcome: 'complete' },
  } as unknown as Scenario;
}

export function scenarioWith(upstream: unknown, id = 'fixture', dialect: Dialect = 'adk-js'): Scenario {
  return { ...(runScenario([], { id, dialect }) as unknown as Record<string, unknown>), upstream } as unknown as Scenario;
}

export function ctx(dialect: Dialect, streaming: boolean, extra: Partial<RenderContext> = {}): RenderContext {
  return { dialect, streaming, appName: 'fixture', userId: 'u1', sessionId: 's-a', ...extra };
}

export function body(plan: ReplayPlan): Uint8Array {
  const out = new Uint8Array(plan.chunks.reduce((n, c) => n + c.bytes.length, 0));
  let at = 0;
  for (const c of plan.chunks) { out.set(c.bytes, at); at += c.bytes.length; }
  return out;
}

export function bodyText(plan: ReplayPlan): string {
  return new TextDecoder().decode(body(plan));
}

/** The `data:` payloads a reader dispatches from the plan's bytes. */
export function readBack(plan: ReplayPlan): string[] {
  return readSse(body(plan)).frames.map((f) => f.data);
}

export function events(plan: ReplayPlan): Array<Record<string, unknown>> {
  return plan.frames.map((f) => f.json as Record<string, unknown>);
}

export function keys(data: string): string[] {
  return Object.keys(JSON.parse(data) as object);
}

const CEDAR = 'The Cedar Creek fire burned 127,283 acres — about 199 square miles — and is 100% contained.';
const SPECIALISTS = ['burn_analyst', 'trail_assessor', 'cruising_assistant', 'nepa_advisor'];

/** §5a/§5b: one text answer, streamed in 4 chunks. */
export const plainText: StepInput[] = [
  { model: { author: 'assistant', text: CEDAR, chunks: ['The Cedar Creek fire ', 'burned 127,283 acres — ', 'about 199 square miles — ', 'and is 100% contained.'], usage: { promptTokenCount: 59, candidatesTokenCount: 26, totalTokenCount: 85 } } },
];

/** §5c: one FunctionTool, then the answer in 3 chunks. */
export const oneTool: StepInput[] = [
  { model: { author: 'coordinator', calls: [{ name: 'get_fire_perimeter', args: { fire_name: 'Cedar Creek' } }] } },
  { tools: { author: 'coordinator', responses: [{ name: 'get_fire_perimeter', response: { fire_name: 'Cedar Creek', acres: 127283, containment_pct: 100 } }] } },
  { model: { author: 'coordinator', text: 'Cedar Creek covers 127,283 acres and is fully contained.', chunks: ['Cedar Creek covers ', '127,283 acres and ', 'is fully contained.'] } },
];

const result = (name: string, confidence: number): { name: string; response: Record<string, unknown> } => ({
  name, response: { result: `### Summary\n${name} findings for Cedar Creek.\n\n**Confidence:** ${confidence}%\n**Source:** MTBS` },
});

/** §5d: four AgentTools in one turn (text first), then two follow-ups, then the synthesis in 6 chunks. */
export const fourAgentTools: StepInput[] = [
  { model: { author: 'coordinator', text: 'Delegating to all four specialists.', chunks: ['Delegating to all ', 'four specialists.'], calls: SPECIALISTS.map((name) => ({ name, args: { request: 'fire_id:cedar-creek-2022' } })) } },
  { tools: { author: 'coordinator', responses: SPECIALISTS.map((n, i) => result(n, 90 + i)) } },
  { model: { author: 'coordinator', calls: [{ name: 'trail_assessor', args: { request: 'Which trails need closure?' } }, { name: 'nepa_advisor', args: { request: 'Which CE applies?' } }] } },
  { tools: { author: 'coordinator', responses: [result('trail_assessor', 90), result('nepa_advisor', 95)] } },
  { model: { author: 'coordinator', text: 'Recovery briefing: severity high in the core, trails WL-001 and WL-004 closed, salvage viable, CE 36 CFR 220.6(e)(13) applies. Overall confidence 90%.', chunks: ['Recovery briefing: ', 'severity high in the core, ', 'trails WL-001 and WL-004 closed, ', 'salvage viable, ', 'CE 36 CFR 220.6(e)(13) applies. ', 'Overall confidence 90%.'] } },
];

/** §5e: the coordinator transfers to a sub-agent, which answers. */
export const transfer: StepInput[] = [
  { model: { author: 'coordinator', calls: [{ name: 'transfer_to_agent', args: { agentName: 'trail_assessor' } }] } },
  { tools: { author: 'coordinator', responses: [{ name: 'transfer_to_agent', response: { result: 'Transfer queued' } }], transferToAgent: 'trail_assessor' } },
  { model: { author: 'trail_assessor', text: 'Trail WL-001 is closed until the bridge is rebuilt.' } },
];
