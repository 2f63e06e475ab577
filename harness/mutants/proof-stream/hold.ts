/**
 * For the mutants whose defect is a window of the wrong kind: holds the events `matches` picks
 * outside the reference store, in a fixed window of `ms` from the first one held (on the injected
 * clock), then pushes them into the store and flushes. The reference's own lane never holds them,
 * so a tier-1 event cannot flush them and a later event cannot restart their window.
 */
import { createProofLayerStream as reference, type ProofLayerStreamConfig } from '../../../reference-impl/proof-layer-stream.ts';

export function holdInFixedWindow(config: ProofLayerStreamConfig, matches: (event: Record<string, unknown>) => boolean, ms: number) {
  const stream = reference(config);
  const later = config.setTimeout ?? ((fn: () => void, delay: number) => setTimeout(fn, delay));
  const cancel = config.clearTimeout ?? ((handle: ReturnType<typeof setTimeout>) => clearTimeout(handle));
  let held: unknown[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const release = () => {
    timer = undefined;
    const batch = held;
    held = [];
    for (const event of batch) stream.push(event);
    stream.flush();
  };
  return {
    ...stream,
    push(event: unknown) {
      if (typeof event !== 'object' || event === null || !matches(event as Record<string, unknown>)) { stream.push(event); return; }
      held.push(event);
      timer ??= later(release, ms);
    },
    dispose() {
      if (timer !== undefined) cancel(timer);
      held = [];
      stream.dispose();
    },
  };
}
