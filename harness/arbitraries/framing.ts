/**
 * Framing variants: the mock's faults that keep a stream's meaning (`faultCatalog` entries whose
 * effect is `same-frames` or `same-json`), each with an arbitrary for its parameters. A run may
 * carry a few of them; its frame count and briefings do not change (that is the law).
 */
import fc from 'fast-check';
import { faultCatalog, type FaultSpec } from '../../mock-adk/core/faults.ts';

/** Parameter arbitraries per framing fault. `split-at` offsets stay below 17: every generated body is longer. */
const paramArbs: Record<string, fc.Arbitrary<FaultSpec>> = {
  'line-endings': fc.constantFrom('crlf', 'cr', 'mixed').map((style) => ({ name: 'line-endings', style })),
  bom: fc.constant({ name: 'bom' }),
  comments: fc.record({ text: fc.constantFrom('ping', 'keep-alive', '', 'data: not a field'), every: fc.integer({ min: 1, max: 3 }) }).map((p) => ({ name: 'comments', ...p })),
  'multiline-data': fc.constant({ name: 'multiline-data' }),
  'split-every-byte': fc.constant({ name: 'split-every-byte' }),
  'chunk-size': fc.integer({ min: 1, max: 64 }).map((bytes) => ({ name: 'chunk-size', bytes })),
  'split-at': fc.uniqueArray(fc.integer({ min: 1, max: 16 }), { minLength: 1, maxLength: 4 }).map((offsets) => ({ name: 'split-at', offsets })),
};

/** The catalog's meaning-preserving faults, read from the catalog itself so a new one is noticed. */
export const framingFaultNames: readonly string[] = Object.entries(faultCatalog)
  .filter(([, entry]) => entry.effect === 'same-frames' || entry.effect === 'same-json')
  .map(([name]) => name)
  .sort();

/** Names the catalog marks as meaning-preserving that have no generator here (a test keeps this empty). */
export const framingFaultsWithoutGenerator = (): string[] => framingFaultNames.filter((name) => !(name in paramArbs));

export const framingFaultArb: fc.Arbitrary<FaultSpec> = fc.oneof(...framingFaultNames.filter((n) => n in paramArbs).map((n) => paramArbs[n] as fc.Arbitrary<FaultSpec>));

/**
 * Zero to `max` framing variants for one run, each fault at most once (a second BOM is no longer a
 * BOM: it becomes part of the first field name). Order matters only within a phase; the engine
 * orders the phases.
 */
export function framingArb(max: number): fc.Arbitrary<FaultSpec[]> {
  return fc.uniqueArray(framingFaultArb, { maxLength: max, selector: (f) => f.name });
}
