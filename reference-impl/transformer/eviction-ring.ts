/**
 * Bounded memory for the transformer's lookup tables (docs/performance.md, "transformer: flat
 * memory"): the last `limit` keys noted, and the oldest handed to `evict` when a new one comes.
 * A ring, not `map.keys().next()`: after many deletions a Map's iterator walks the holes they
 * left, which cost more than the lookups it bounds.
 */
export function createEvictionRing(limit: number, evict: (key: string) => void): (key: string) => void {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`createEvictionRing: limit must be a positive integer, got ${limit}`);
  const ring: Array<string | undefined> = new Array<string | undefined>(limit);
  let at = 0;
  return (key) => {
    const oldest = ring[at];
    if (oldest !== undefined) evict(oldest);
    ring[at] = key;
    at = (at + 1) % limit;
  };
}
