/**
 * Streaming text (adk-python-facts §3.2, adk-wire-format §5b): `partial:true` chunks carry deltas,
 * then one `partial:false` event repeats the whole text. adk-web appends chunks to a bubble and lets
 * the non-partial event replace it; briefings are atomic (seed 002 §4.2 rule 2), so the transformer
 * emits only the replacement and this module keeps the chunks to know what was left unfinished.
 */
import { authorOf, callsOf, errorCodeOf, isPartial, partsOf, textOf } from './adk-event.ts';
import { createEvictionRing } from './eviction-ring.ts';
import type { AdkEvent } from './types.ts';

export type Accumulated =
  | { kind: 'chunk'; author: string; text: string } // a delta: shown nowhere, kept
  | { kind: 'block'; author: string; text: string } // a complete event (its text may be empty)
  | { kind: 'duplicate' }; // the same complete content again, under the same event id

export type TextAccumulator = {
  feed: (event: AdkEvent) => Accumulated;
  /** Chunk text never replaced by a complete event (a cut stream), by author. */
  unfinished: () => Array<{ author: string; text: string }>;
  reset: () => void;
};

/** Complete events remembered for de-duplication. */
const seenLimit = 1024;

export function createTextAccumulator(): TextAccumulator {
  const chunks = new Map<string, string>();
  // Recent complete events by id, with their contents. Duplicates come back to back (Python's
  // artifact split, adk-python-facts §5), so a window of recent ids catches them in bounded
  // memory, and a content is serialised only when its id comes again (docs/performance.md).
  const seen = new Map<string, unknown[]>();
  const noteSeen = createEvictionRing(seenLimit, (old) => seen.delete(old));

  function feed(event: AdkEvent): Accumulated {
    const author = authorOf(event);
    const text = textOf(event);
    if (isPartial(event)) {
      // Python's partial function-call previews carry no text and never run (adk-python-facts §3.2).
      if (text) chunks.set(author, (chunks.get(author) ?? '') + text);
      return { kind: 'chunk', author, text };
    }
    if (typeof event.id === 'string' && partsOf(event).length > 0) {
      // De-duplicate by (id, content), never by id alone: Python's artifact split sends two frames
      // with one id, the content and then the actions (adk-python-facts §5).
      const earlier = seen.get(event.id);
      if (earlier === undefined) {
        noteSeen(event.id);
        seen.set(event.id, [event.content]);
      } else {
        const content = JSON.stringify(event.content);
        if (earlier.some((c) => JSON.stringify(c) === content)) return { kind: 'duplicate' };
        earlier.push(event.content);
      }
    }
    // A complete model event replaces the chunks of its author; an error event leaves them, so a
    // stream cut by an error still shows what was left unfinished (adk-wire-format §6).
    if (errorCodeOf(event) === undefined && (text || callsOf(event).length > 0)) chunks.delete(author);
    return { kind: 'block', author, text };
  }

  const unfinished = () => [...chunks].filter(([, text]) => text.length > 0).map(([author, text]) => ({ author, text }));

  function reset(): void { chunks.clear(); seen.clear(); }

  return { feed, unfinished, reset };
}
