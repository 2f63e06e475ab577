/**
 * Mutants of the reference normaliser are the reference with one rule broken: each one rewrites
 * the events the reference emits, knowing the input being fed and how many blocks were started.
 * Every mutant module exports `createBlockNormalizer`, the module contract of
 * docs/harness-normalizer.md, so the harness certifies it exactly like a team's module.
 */
import { createBlockNormalizer as reference, type BlockNormalizer, type BlockNormalizerConfig, type BlockStreamEvent } from '../../../reference-impl/block-normalizer.ts';

export type WrapState = {
  /** The input event being fed (undefined during end()). */
  input: Record<string, unknown> | undefined;
  /** Block starts emitted so far in this turn. */
  started: number;
  /** Block starts emitted before the current message began. */
  startedBeforeMessage: number;
  /** tool_use id -> the LLM index its content_block_start carried. */
  toolLlmIndex: Map<string, number>;
};

/** Return the events to emit instead (none, one or several). */
export type Rewrite = (event: BlockStreamEvent, state: WrapState) => BlockStreamEvent[];

export function wrapReference(rewrite: Rewrite): (config: BlockNormalizerConfig) => BlockNormalizer {
  return (config) => {
    const state: WrapState = { input: undefined, started: 0, startedBeforeMessage: 0, toolLlmIndex: new Map() };
    const inner = reference({
      onEvent(event) {
        if (event.event_type === 'message_start') state.startedBeforeMessage = state.started;
        const out = rewrite(event, state);
        if (event.event_type === 'text_block_start' || event.event_type === 'tool_use_start') state.started++;
        for (const e of out) config.onEvent(e);
      },
    });
    return {
      feed(input) {
        const i = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : undefined;
        state.input = i;
        const block = i?.content_block as Record<string, unknown> | undefined;
        if (i?.type === 'content_block_start' && block?.type === 'tool_use' && typeof block.id === 'string' && typeof i.index === 'number') state.toolLlmIndex.set(block.id, i.index);
        inner.feed(input);
      },
      end() {
        state.input = undefined;
        inner.end();
        state.started = 0;
        state.startedBeforeMessage = 0;
        state.toolLlmIndex = new Map();
      },
      reset() {
        inner.reset();
        state.started = 0;
        state.startedBeforeMessage = 0;
        state.toolLlmIndex = new Map();
      },
    };
  };
}

export function withIndex(event: BlockStreamEvent, index: unknown): BlockStreamEvent {
  return { event_type: event.event_type, data: { ...event.data, index } };
}

/** The delta an unknown-index error refused, as the reference would have emitted it for a known block. */
export function refusedDelta(event: BlockStreamEvent, index: number): BlockStreamEvent | undefined {
  const input = event.data.input as Record<string, unknown> | undefined;
  const delta = input?.delta as Record<string, unknown> | undefined;
  if (input?.type !== 'content_block_delta' || !delta) return undefined;
  if (delta.type === 'text_delta') return { event_type: 'text_delta', data: { index, text: delta.text } };
  if (delta.type === 'thinking_delta') return { event_type: 'text_delta', data: { index, text: delta.thinking } };
  if (delta.type === 'input_json_delta') return { event_type: 'tool_use_input_delta', data: { index, partial_json: delta.partial_json } };
  return undefined;
}
