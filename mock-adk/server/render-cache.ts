/**
 * Rendered plans kept for the requests that ask for the same rendering again. `render` is pure
 * ("Rendering is deterministic: ids and timestamps derive from the seed", docs/design.md), so a
 * plan for the same scenario object and the same context is the same plan; rendering cost 11-14 µs
 * per event, several times what writing the event costs (docs/performance.md, "mock: render
 * once per scenario and session"). Plans are shared, never changed: the fault engine builds new
 * plans and the shells only read them.
 *
 * Bounded by entries and by bytes, least recently used out first, so a load test that opens a
 * new session for every run costs a cache miss, never memory.
 */
import type { Scenario } from '../../schemas/types.ts';
import { render } from '../core/render.ts';
import type { RenderContext, ReplayPlan } from '../core/types.ts';

export type RenderCacheOptions = { maxEntries?: number; maxBytes?: number };

export type RenderCache = {
  render: (scenario: Scenario, ctx: RenderContext) => ReplayPlan;
  stats: () => { entries: number; bytes: number; hits: number; misses: number };
  clear: () => void;
};

type Entry = { scenario: Scenario; plan: ReplayPlan; bytes: number };

export const renderCacheDefaults = { maxEntries: 512, maxBytes: 32 * 1024 * 1024 } as const;

export function createRenderCache(options: RenderCacheOptions = {}): RenderCache {
  const maxEntries = options.maxEntries ?? renderCacheDefaults.maxEntries;
  const maxBytes = options.maxBytes ?? renderCacheDefaults.maxBytes;
  if (!Number.isInteger(maxEntries) || maxEntries < 0) throw new RangeError(`render cache maxEntries must be an integer >= 0 (0 turns the cache off), got ${maxEntries}`);
  if (!Number.isInteger(maxBytes) || maxBytes < 0) throw new RangeError(`render cache maxBytes must be an integer >= 0, got ${maxBytes}`);
  // Map order is insertion order: a hit is re-inserted, so the first key is the least recently used.
  const entries = new Map<string, Entry>();
  let bytes = 0;
  /** The entry last used or added (the map's last), so a repeated hit skips the re-insertion. */
  let newest: Entry | undefined;
  let hits = 0;
  let misses = 0;

  // Every string length-prefixed, so two contexts never share a key; built per run request, so not JSON.stringify.
  const part = (text: string) => `${text.length}:${text}`;
  const keyOf = (scenario: Scenario, ctx: RenderContext) =>
    `${part(scenario.id)}${part(ctx.dialect)}${ctx.streaming ? 1 : 0}${ctx.enhanced === true ? 1 : 0}${part(ctx.appName)}${part(ctx.userId)}${part(ctx.sessionId)}${(ctx.seed ?? null) === null ? '-' : part(ctx.seed as string)}`;

  function drop(key: string, entry: Entry): void {
    entries.delete(key);
    bytes -= entry.bytes;
  }

  return {
    render(scenario, ctx) {
      const key = keyOf(scenario, ctx);
      const found = entries.get(key);
      // Same id, other object: an armed or reloaded scenario, which may script something else.
      if (found && found.scenario === scenario) {
        hits += 1;
        // Already the most recently used (a run repeated): its place is right as it is.
        if (found !== newest) {
          entries.delete(key);
          entries.set(key, found);
          newest = found;
        }
        return found.plan;
      }
      misses += 1;
      if (found) drop(key, found);
      const plan = render(scenario, ctx);
      const size = planBytes(plan);
      if (maxEntries === 0 || size > maxBytes) return plan;
      newest = { scenario, plan, bytes: size };
      entries.set(key, newest);
      bytes += size;
      for (const [oldKey, old] of entries) {
        if (entries.size <= maxEntries && bytes <= maxBytes) break;
        drop(oldKey, old);
      }
      return plan;
    },
    stats: () => ({ entries: entries.size, bytes, hits, misses }),
    clear() { entries.clear(); bytes = 0; newest = undefined; },
  };
}

/** Rough retained size: the body bytes, and the frames' text and parsed JSON (about twice the text). */
function planBytes(plan: ReplayPlan): number {
  let size = 0;
  for (const chunk of plan.chunks) size += chunk.bytes.byteLength;
  for (const frame of plan.frames) size += frame.data.length * 3;
  return size;
}
