/** Mutant: every event is held back until the turn ends, then written at once (right events, no streaming). */
import { createBlockNormalizer as reference, type BlockNormalizerConfig, type BlockNormalizer, type BlockStreamEvent } from '../../../reference-impl/block-normalizer.ts';

export function createBlockNormalizer(config: BlockNormalizerConfig): BlockNormalizer {
  let held: BlockStreamEvent[] = [];
  const inner = reference({ onEvent: (event) => { held.push(event); } });
  return {
    feed: (input) => inner.feed(input),
    end() {
      inner.end();
      const out = held;
      held = [];
      for (const e of out) config.onEvent(e);
    },
    reset() { inner.reset(); held = []; },
  };
}
