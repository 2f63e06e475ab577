/**
 * The mapping's view of a run's briefings: per event, the fields a rule fixes (type, state,
 * source_agent, and the proof numbers: confidence or its absence, citation count and sources).
 * Everything else of an event is free or checked by a requirement on its own (the mapping's
 * `fields` table).
 */
import type { OutlineEntry } from './types.ts';

type Event = { type: string; state?: string; source_agent: string; proof_layer?: { confidence?: number; citations?: Array<{ source: string }> } };

/** The full outline of a run's events, as an example states it. */
export function outlineOf(events: readonly Event[]): OutlineEntry[] {
  return events.map((e) => {
    const entry: Record<string, unknown> = { type: e.type };
    if (e.state !== undefined) entry.state = e.state;
    entry.source_agent = e.source_agent;
    if (e.proof_layer) {
      entry.confidence = e.proof_layer.confidence ?? null;
      const sources = (e.proof_layer.citations ?? []).map((c) => c.source);
      if (sources.length > 0) { entry.citations = sources.length; entry.citationSources = sources; }
    }
    return entry as OutlineEntry;
  });
}

/**
 * Where `actual` departs from `expected` (an example's outline), entry by entry, or undefined.
 * An expected entry fixes the keys it has; a missing key is free.
 */
export function outlineDifference(expected: readonly OutlineEntry[], actual: readonly Record<string, unknown>[]): string | undefined {
  const show = (o: unknown) => JSON.stringify(o);
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    const e = expected[i];
    const a = actual[i];
    if (!e) return `briefing ${i}: none expected, got ${show(a)}`;
    if (!a) return `briefing ${i}: expected ${show(e)}, got none (${actual.length} in all)`;
    for (const [key, value] of Object.entries(e)) {
      const got = a[key] ?? (key === 'confidence' ? null : undefined);
      if (key === 'citationSources' && Array.isArray(value)) {
        if (!Array.isArray(got) || value.some((v, j) => got[j] !== v) || got.length !== value.length) return `briefing ${i}: ${key} expected ${show(value)}, got ${show(got)} (in ${show(a)})`;
      } else if (typeof value === 'number' && typeof got === 'number' ? Math.abs(value - got) > 1e-9 : value !== got) {
        return `briefing ${i}: ${key} expected ${show(value)}, got ${show(got)} (in ${show(a)})`;
      }
    }
  }
  return undefined;
}
