/**
 * The proof-layer stream fed what the reference transformer really emits for the corpus's
 * briefing runs: every event is accepted, the tiers hold (STATUS waits for its debounce, the final
 * INSIGHT lands at once and completes the stream), and the state matches the final answer.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { loadScenarios } from '../scenarios/loader.ts';
import { render } from '../mock-adk/core/render.ts';
import { readSse } from '../core/sse.ts';
import { createTransformer } from '../reference-impl/transformer/index.ts';
import { classify, createProofLayerStream } from '../reference-impl/proof-layer-stream.ts';

const { scenarios } = loadScenarios();
const runs = scenarios.filter((s) => s.upstream.kind === 'run' && s.expect?.outcome === 'complete' && s.id.startsWith('cedar_creek_briefing'));

beforeEach(() => { vi.useFakeTimers({ now: Date.UTC(2025, 11, 27) }); });
afterEach(() => { vi.useRealTimers(); });

describe('proof-layer stream over the reference transformer', () => {
  test('the corpus has Cedar Creek briefing runs to feed', () => {
    expect(runs.length).toBeGreaterThan(0);
  });

  test.each(runs.map((s) => [s.id, s] as const))('%s: every briefing is accepted and the final INSIGHT completes the stream at once', (_id, scenario) => {
    const plan = render(scenario, { dialect: scenario.dialect as 'adk-js' | 'adk-python', streaming: scenario.request?.streaming ?? false, appName: scenario.id, userId: 'u1', sessionId: 's1' });
    const transformer = createTransformer({ sessionId: 's1', now: () => Date.now() });
    for (const frame of readSse(Buffer.concat(plan.chunks.map((c) => Buffer.from(c.bytes)))).frames) transformer.pushData(frame.data);
    const briefings = transformer.end() as unknown as Array<Record<string, unknown>>;
    expect(briefings.length).toBeGreaterThan(0);

    const stream = createProofLayerStream();
    const final = briefings.find((b) => b.type === 'INSIGHT' && b.state === 'COMPLETE');
    expect(final).toBeDefined();
    for (const b of briefings) {
      stream.push(b);
      if (b === final) expect(stream.getState().isComplete).toBe(true);
      else if (classify(b).tier !== 1) expect(stream.getState().isComplete).toBe(false);
    }
    stream.flush();
    const state = stream.getState();
    expect(state.eventCount).toBe(briefings.length);
    const proof = (final!.proof_layer ?? {}) as { confidence?: number; reasoning_chain?: string[] };
    if (typeof proof.confidence === 'number') expect(state.confidenceHistory.some((c) => c.confidence === proof.confidence)).toBe(true);
    for (const text of proof.reasoning_chain ?? []) expect(state.reasoningSteps.map((r) => r.text)).toContain(text);
    stream.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});
