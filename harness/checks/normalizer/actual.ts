/**
 * The implementation's output as the checks read it: the lines that are `{event_type, data}`
 * objects, each with its output position, and the index the implementation gave each block.
 * Lines that are not such objects are FLOW-002's findings; the other checks skip them.
 */
import type { NormalizerObservation, TurnCase } from './types.ts';

export type ActualEvent = { pos: number; type: string; data: Record<string, unknown> };

export const startTypes = new Set(['text_block_start', 'tool_use_start']);

export function actualEvents(obs: NormalizerObservation): ActualEvent[] {
  const out: ActualEvent[] = [];
  obs.lines.forEach((line, pos) => {
    const e = line.event;
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return;
    const { event_type: type, data } = e as Record<string, unknown>;
    if (typeof type !== 'string' || typeof data !== 'object' || data === null || Array.isArray(data)) return;
    out.push({ pos, type, data: data as Record<string, unknown> });
  });
  return out;
}

/** The index the implementation gave its n-th block start (undefined: no such start, or no integer index). */
export function blockIndexer(actual: readonly ActualEvent[]): (ordinal: number) => number | undefined {
  const starts = actual.filter((e) => startTypes.has(e.type));
  return (ordinal) => {
    const index = starts[ordinal]?.data.index;
    return typeof index === 'number' && Number.isInteger(index) ? index : undefined;
  };
}

/** Where a finding points: the output event (0-based position in the output), then a JSON pointer inside it. */
export function at(c: TurnCase, pos: number, pointer = ''): string {
  return `${c.pathPrefix}event[${pos}]${pointer}`;
}

/** A short description of an output event for `actual` fields. */
export function brief(e: ActualEvent): Record<string, unknown> {
  return { event_type: e.type, data: e.data };
}
