/**
 * Where each step of a run script starts in the stream: the frame index before which the step's
 * audit events are recorded. The harness renders the scenario itself (mock-adk/core/render.ts,
 * the plain /run_sse plan) with an SSE comment between steps: a comment dispatches no frame and
 * touches no id or clock, so the frames are those the mock writes and each comment's chunk marks
 * a step boundary.
 */
import { render } from '../../../mock-adk/core/render.ts';
import type { Scenario } from '../../../schemas/types.ts';

type Step = Record<string, unknown> & { audit?: Array<Record<string, unknown>> };

const marker = (i: number) => `: adk-conformance step ${i}\n\n`;

export function runSteps(scenario: Scenario): Step[] {
  if (scenario.upstream.kind !== 'run') return [];
  return (scenario.upstream as unknown as { steps: Step[] }).steps;
}

/** The scenario's pinned invocation id, if it pins one. */
export function pinnedInvocationId(scenario: Scenario): string | undefined {
  const id = (scenario.upstream as { invocationId?: unknown }).invocationId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** For each step, the number of frames written before it; and the plan's frame count. */
export function stepFrameStarts(scenario: Scenario, ctx: { streaming: boolean; userId: string; sessionId: string }): { starts: number[]; frames: number } {
  const steps = runSteps(scenario);
  const marked = steps.flatMap((step, i) => [{ raw: { text: marker(i) } }, step]);
  const variant = { ...scenario, upstream: { ...scenario.upstream, steps: marked } } as unknown as Scenario;
  const plan = render(variant, { dialect: scenario.dialect, streaming: ctx.streaming, appName: scenario.id, userId: ctx.userId, sessionId: ctx.sessionId });
  const decoder = new TextDecoder();
  const starts: number[] = [];
  plan.chunks.forEach((chunk, c) => {
    const text = decoder.decode(chunk.bytes);
    const m = /^: adk-conformance step (\d+)\n\n$/.exec(text);
    if (!m) return;
    // The next chunk that dispatches a frame names that frame's index: the frames before the marker.
    const nextFrame = plan.chunks.slice(c + 1).find((k) => k.frame >= 0)?.frame ?? plan.frames.length;
    starts[Number(m[1])] = nextFrame;
  });
  if (starts.length !== steps.length || starts.some((s) => s === undefined)) {
    throw new Error(`scenario ${scenario.id}: the step markers did not survive rendering (found ${starts.filter((s) => s !== undefined).length} of ${steps.length})`);
  }
  return { starts, frames: plan.frames.length };
}
